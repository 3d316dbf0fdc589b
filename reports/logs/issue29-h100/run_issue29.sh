#!/usr/bin/env bash
# Issue 29, on the H100 (nvidia-h100-x1): the packaged suite of this commit (no build here) writes the
# CUDA 13.0 reports again (cubin and the driver's JIT, the package's own catalog); `ptxcts diff` of each
# against the committed report must show no change; wall time of the previous release (issue 27,
# 0314542) against this one, alternated; the package's own GPU tests.
set -u
root=$PWD
W=/tmp/w; rm -rf $W; mkdir -p $W/r/main $W/r/quiet $W/old $W/r/old
tar xzf .device/ptxcts-0.1.0-Linux-x86_64.tar.gz -C $W || exit 1
tar xJf .device/issue27-release.tar.xz -C $W/old || exit 1
P=$W/ptxcts-0.1.0-Linux-x86_64; B=$P/bin; OB=$W/old/ptxcts-0.1.0-Linux-x86_64/bin
nvidia-smi -L > $W/nvidia-smi.txt 2>&1
$B/ptxcts --version > $W/version.txt 2>&1; cat $W/version.txt
cd $W
R() { n=$1; shift; /usr/bin/time -f "%e s" -o $W/$n.time "$@" > $W/$n.log 2>&1; rc=$?
  echo "$n: exit $rc, $(cat $W/$n.time), $(wc -l < $W/$n.log) lines | $(tail -2 $W/$n.log | tr '\n' ' ')"; }
R main $B/ptxcts run --reports $W/r/main
for i in 1 2 3; do R old-$i $OB/ptxcts run -q --reports $W/r/old; R new-$i $B/ptxcts run -q --reports $W/r/quiet; done
R jit $B/ptxcts run --toolchain jit --reports $W/r/main
R audit $B/ptxcts audit --reports $W/r/audit
for f in $(ls r/main/*.json | sort); do
  echo "== ptxcts diff committed $(basename $f)"; $B/ptxcts diff $root/reports/$(basename $f).gz $f; echo "exit $?"
done > $W/diffs.log 2>&1; cat $W/diffs.log | grep -v "^  " | head -40
for f in r/main/*.json; do python3 -c "import json; j=json.load(open('$f')); print('$f', j['kind'], j['summary']['verdict'])"; done
(cd /tmp && /usr/bin/time -f "%e s" ctest --test-dir $P/share/ptxcts/tests -L gpu --output-on-failure) > $W/ctest.log 2>&1; tail -6 $W/ctest.log
cd /tmp && tar czf $OUT/h100.tgz w/*.log w/*.time w/*.txt w/r/main w/r/audit && ls -la $OUT
