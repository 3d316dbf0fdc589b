#!/usr/bin/env bash
# Issue 38 on the H100: the release package of this commit, as a user installs it (nothing built
# here): the .deb installed by this box's own dpkg (a minimized Ubuntu: /usr/share/doc excluded) and
# run; the tarball unpacked under a path with spaces and non-ASCII letters, whose CUDA 13.0 run and
# JIT twin write the reports to commit; `ptxcts diff` against the committed reports; the package's
# GPU tests.
set -u
root=$PWD
W=/tmp/w; rm -rf $W; mkdir -p $W/r/main $W/r/deb
R() { n=$1; shift; /usr/bin/time -f "%e s" -o $W/$n.time "$@" > $W/$n.log 2>&1; rc=$?
  echo "$n: exit $rc, $(cat $W/$n.time), $(wc -l < $W/$n.log) lines | $(tail -2 $W/$n.log | tr '\n' ' ')"; }
nvidia-smi -L > $W/nvidia-smi.txt 2>&1
{ echo "== dpkg excludes on this box:"; grep -h path-exclude /etc/dpkg/dpkg.cfg.d/* 2>&1 | head -5
  echo "== dpkg -i"; dpkg -i .device/ptxcts_0.1.0_amd64.deb 2>&1; echo "exit $?"
  echo "== /usr/share/doc/ptxcts after the install:"; ls /usr/share/doc/ptxcts 2>&1 | head -3
  echo "== /usr/bin/ptxcts --version"; /usr/bin/ptxcts --version 2>&1; echo "exit $?"; } > $W/deb-install.log 2>&1
tail -8 $W/deb-install.log
D="$W/a path with spaces/ünïcödé"; mkdir -p "$D"
tar xzf .device/ptxcts-0.1.0-Linux-x86_64.tar.gz -C "$D" || exit 1
B="$D/ptxcts-0.1.0-Linux-x86_64/bin"
"$B/ptxcts" --version > $W/version.txt 2>&1; cat $W/version.txt
cd $W
R main "$B/ptxcts" run --reports $W/r/main
R jit "$B/ptxcts" run --toolchain jit --reports $W/r/main
R deb /usr/bin/ptxcts run -q --reports $W/r/deb
for f in $(ls r/main/*.json | sort); do
  echo "== ptxcts diff committed $(basename $f)"; "$B/ptxcts" diff $root/reports/$(basename $f).gz $f; echo "exit $?"
done > $W/diffs.log 2>&1; grep -v "^  " $W/diffs.log | head -60
(cd /tmp && /usr/bin/time -f "%e s" ctest --test-dir "$D/ptxcts-0.1.0-Linux-x86_64/share/ptxcts/tests" -L gpu --output-on-failure) > $W/ctest.log 2>&1; tail -6 $W/ctest.log
cd /tmp && tar czf $OUT/h100.tgz w/*.log w/*.time w/*.txt w/r/main && ls -la $OUT
