#!/usr/bin/env bash
# Issue 42, third session, on a lent H200 (no H100 is lent): the release package of this commit, as a
# user installs it (nothing built here). New in this package: a short launch limit for undefined cases
# (--undefined-timeout), the undefined-behaviour cases of ldmatrix, stmatrix, movmatrix, wmma.load and
# wmma.store, mma.sp's arithmetic (numbers cases in the compressed A), the register types per fragment
# row in the audit. The tarball unpacked under a path with spaces and non-ASCII letters: the cubin run
# and its JIT twin, each compared with the committed H200 reports (`ptxcts diff`); the .deb by this
# box's dpkg, run by a user who is not root; the package's GPU tests.
set -u
root=$PWD
W=/tmp/w; rm -rf $W; mkdir -p $W/r/main $W/r/user
R() { n=$1; shift; /usr/bin/time -f "%e s" -o $W/$n.time "$@" > $W/$n.log 2>&1; rc=$?
  echo "$n: exit $rc, $(cat $W/$n.time), $(wc -l < $W/$n.log) lines | $(tail -1 $W/$n.log | cut -c1-160)"; }
nvidia-smi -L > $W/nvidia-smi.txt 2>&1; cat $W/nvidia-smi.txt
D="$W/a path with spaces/ünïcödé"; mkdir -p "$D"
tar xzf .device/ptxcts-0.1.0-Linux-x86_64.tar.gz -C "$D" || exit 1
B="$D/ptxcts-0.1.0-Linux-x86_64/bin"
"$B/ptxcts" --version > $W/version.txt 2>&1; head -3 $W/version.txt
cd $W
R main "$B/ptxcts" run -v --reports $W/r/main
R jit "$B/ptxcts" run --toolchain jit --reports $W/r/main
ls r/main > $W/reports-written.txt
new=$(ls r/main/*cuda13.0.json); newjit=$(ls r/main/*cuda13.0-jit.json)
{ for old in $root/reports/nvidia-h200-sm_90-driver580.159.04-cuda13.0.json.gz $root/reports/nvidia-h100-80gb-hbm3-sm_90-driver580.159.04-cuda13.0.json.gz; do
    echo "== ptxcts diff $(basename $old) $(basename $new)"; "$B/ptxcts" diff "$old" "$new" | head -60; echo "exit ${PIPESTATUS[0]}"; done
  echo "== ptxcts diff (committed H200 jit vs this jit)"; "$B/ptxcts" diff $root/reports/nvidia-h200-sm_90-driver580.159.04-cuda13.0-jit.json.gz "$newjit" | head -40; echo "exit ${PIPESTATUS[0]}"
  echo "== ptxcts diff -q (cubin vs jit)"; "$B/ptxcts" diff -q "$new" "$newjit"; echo "exit $?"
} > $W/gate.log 2>&1; cat $W/gate.log | cut -c1-220
{ echo "== dpkg -i"; dpkg -i "$root/.device/ptxcts_0.1.0_amd64.deb" 2>&1 | tail -3; echo "exit $?"; } > $W/deb-install.log 2>&1; cat $W/deb-install.log
useradd -m ptxuser 2>/dev/null; chown ptxuser $W/r/user
R user-deb runuser -u ptxuser -- /usr/bin/ptxcts run -q --reports $W/r/user
(cd /tmp && /usr/bin/time -f "%e s" ctest --test-dir "$D/ptxcts-0.1.0-Linux-x86_64/share/ptxcts/tests" -L gpu --output-on-failure) > $W/ctest.log 2>&1; tail -4 $W/ctest.log
cd /tmp && tar czf $OUT/h200.tgz w/*.log w/*.time w/*.txt w/r/main && ls -la $OUT
