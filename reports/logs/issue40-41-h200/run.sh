#!/usr/bin/env bash
# Issues 40 and 41 on a lent H200 (this session lends no H100): the release package of this commit,
# as a user installs it (nothing built here). The tarball unpacked under a path with spaces and
# non-ASCII letters: the cubin run and its JIT twin (the reports to commit), their JUnit grouped as
# Jenkins and GitLab group it, `diff -q` against the committed H100 and H200 reports, `merge` with
# the committed two-H200 fleet; the .deb installed by this box's dpkg and run by root and by a user
# who is not root (issue 41: no warning for what a run does not need); issue 40's selections of
# nothing and $HOME unset on a real GPU box; the package's GPU tests.
set -u
root=$PWD
W=/tmp/w; rm -rf $W; mkdir -p $W/r/main $W/r/deb
R() { n=$1; shift; /usr/bin/time -f "%e s" -o $W/$n.time "$@" > $W/$n.log 2>&1; rc=$?
  echo "$n: exit $rc, $(cat $W/$n.time), $(wc -l < $W/$n.log) lines | $(tail -1 $W/$n.log | cut -c1-160)"; }
nvidia-smi -L > $W/nvidia-smi.txt 2>&1; cat $W/nvidia-smi.txt
D="$W/a path with spaces/ünïcödé"; mkdir -p "$D"
tar xzf .device/ptxcts-0.1.0-Linux-x86_64.tar.gz -C "$D" || exit 1
B="$D/ptxcts-0.1.0-Linux-x86_64/bin"
"$B/ptxcts" --version > $W/version.txt 2>&1; head -3 $W/version.txt
cd $W
R main "$B/ptxcts" run --reports $W/r/main
R jit "$B/ptxcts" run --toolchain jit --reports $W/r/main
ls r/main > $W/reports-written.txt
# JUnit as Jenkins (package = classname before its last dot) and GitLab (suite = classname) group it.
python3 - r/main > $W/junit-groups.txt 2>&1 <<'PY'
import sys, glob, xml.etree.ElementTree as ET
for f in sorted(glob.glob(sys.argv[1] + "/*.xml")):
    cases = list(ET.parse(f).getroot().iter("testcase"))
    cls = [c.get("classname") for c in cases]
    pk = sorted({c.rsplit(".", 1)[0] for c in cls})
    timed = sum(1 for c in cases if c.get("time") not in (None, ""))
    print(f"{f.split('/')[-1]}: {len(cases)} testcases, {timed} with a time; Jenkins packages {len(pk)}: {', '.join(pk)}; "
          f"Jenkins classes {len({c.rsplit('.', 1)[1] for c in cls})}; GitLab suites {len(set(cls))}")
    v = [c for c in cases if c.get("name") == "verdict"]
    for c in v: print("  verdict testcase:", c.get("classname"), "failure" if c.find("failure") is not None else "passed", (c.find("system-out").text or "")[:200] if c.find("system-out") is not None else "")
PY
cat $W/junit-groups.txt
new=$(ls r/main/*cuda13.0.json); newjit=$(ls r/main/*cuda13.0-jit.json)
{ for old in $root/reports/nvidia-h100-80gb-hbm3-sm_90-driver580.159.04-cuda13.0.json.gz $root/reports/nvidia-h200-x2/gpu0/*.json.gz; do
    echo "== ptxcts diff -q $(basename $old) $(basename $new)"; "$B/ptxcts" diff -q "$old" "$new"; echo "exit $?"; done
  echo "== ptxcts diff -q (cubin vs jit)"; "$B/ptxcts" diff -q "$new" "$newjit"; echo "exit $?"
  echo "== ptxcts merge (this run + the committed two-H200 fleet)"; "$B/ptxcts" merge "$new" $root/reports/nvidia-h200-x2/gpu0/*.json.gz $root/reports/nvidia-h200-x2/gpu1/*.json.gz --out $W/r/fleet/; echo "exit $?"
} > $W/gate.log 2>&1; cat $W/gate.log | cut -c1-220
# Issue 40 on a GPU box: a selection of nothing, and $HOME unset.
{ : > empty.txt; printf '# nothing\n\n' > comments.txt
  for l in empty.txt comments.txt /tmp; do echo "== run --cases @$l"; "$B/ptxcts" run --cases @$l --reports $W/r/sel; echo "exit $?"; done
  echo "reports folder after: $(ls $W/r/sel 2>&1)"
  echo "== env -i ptxcts toolkits"; env -i "$B/ptxcts" toolkits; echo "exit $?"; ls -d /tmp/.cache/ptxcts 2>&1
} > $W/hostile.log 2>&1; cat $W/hostile.log | cut -c1-200
{ echo "== dpkg -i"; dpkg -i "$root/.device/ptxcts_0.1.0_amd64.deb" 2>&1 | tail -3; echo "exit $?"; } > $W/deb-install.log 2>&1; cat $W/deb-install.log
R deb /usr/bin/ptxcts run -q --reports $W/r/deb
useradd -m ptxuser 2>/dev/null; mkdir -p $W/r/user && chown ptxuser $W/r/user
R user-deb runuser -u ptxuser -- /usr/bin/ptxcts run -q --reports $W/r/user
echo "non-root warnings (cannot be written): $(grep -c 'cannot be written' $W/user-deb.log)"
(cd /tmp && /usr/bin/time -f "%e s" ctest --test-dir "$D/ptxcts-0.1.0-Linux-x86_64/share/ptxcts/tests" -L gpu --output-on-failure) > $W/ctest.log 2>&1; tail -4 $W/ctest.log
cd /tmp && tar czf $OUT/h200.tgz w/*.log w/*.time w/*.txt w/r/main w/r/fleet && ls -la $OUT
