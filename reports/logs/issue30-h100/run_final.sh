#!/usr/bin/env bash
# Issues 28-30, on the H100: the packaged suite of this commit (no build here) writes the CUDA 13.0
# reports again (cubin and JIT); `ptxcts diff` against the committed reports; wall time of the previous
# release (issue 29, 6567f7e) against this one, alternated; the package's GPU tests; and the process
# model on a real device: ptxcts killed (SIGKILL) mid-run must leave no device runner alive, the next
# start sweeps its scratch folder, and --resume gives the uninterrupted report.
set -u
root=$PWD
W=/tmp/w; rm -rf $W; mkdir -p $W/r/main $W/r/quiet $W/old $W/r/old $W/r/killed
tar xzf .device/ptxcts-0.1.0-Linux-x86_64.tar.gz -C $W || exit 1
tar xJf .device/issue29-release.tar.xz -C $W/old || exit 1
P=$W/ptxcts-0.1.0-Linux-x86_64; B=$P/bin; OB=$W/old/ptxcts-0.1.0-Linux-x86_64/bin
nvidia-smi -L > $W/nvidia-smi.txt 2>&1
$B/ptxcts --version > $W/version.txt 2>&1; cat $W/version.txt
cd $W
R() { n=$1; shift; /usr/bin/time -f "%e s" -o $W/$n.time "$@" > $W/$n.log 2>&1; rc=$?
  echo "$n: exit $rc, $(cat $W/$n.time), $(wc -l < $W/$n.log) lines | $(tail -2 $W/$n.log | tr '\n' ' ')"; }
R main $B/ptxcts run --reports $W/r/main
for i in 1 2 3; do R old-$i $OB/ptxcts run -q --reports $W/r/old; R new-$i $B/ptxcts run -q --reports $W/r/quiet; done
R jit $B/ptxcts run --toolchain jit --reports $W/r/main
for f in $(ls r/main/*.json | sort); do
  echo "== ptxcts diff committed $(basename $f)"; $B/ptxcts diff $root/reports/$(basename $f).gz $f; echo "exit $?"
done > $W/diffs.log 2>&1; grep -v "^  " $W/diffs.log | head -40
# SIGKILL mid-run: nothing of it may live on; the next start sweeps; --resume completes it.
export TMPDIR=$W/tmp; mkdir -p $TMPDIR
$B/ptxcts run -q --reports $W/r/killed > $W/killed.log 2>&1 & pid=$!
sleep 6; pgrep -f ptxcts-device > $W/runners-before-kill.txt; kill -9 $pid; wait $pid 2>/dev/null; sleep 2
{ echo "runners alive before the kill: $(wc -l < $W/runners-before-kill.txt)"
  echo "runners alive 2 s after SIGKILL of ptxcts: $(pgrep -fc ptxcts-device)"
  echo "left in TMPDIR after the kill: $(ls $TMPDIR | tr '\n' ' ') ($(du -sk $TMPDIR | cut -f1) KiB)"; } > $W/kill.txt
R resumed $B/ptxcts run -q --resume --reports $W/r/killed
echo "left in TMPDIR after the resumed run: $(ls $TMPDIR | tr '\n' ' ') ($(du -sk $TMPDIR | cut -f1) KiB)" >> $W/kill.txt
unset TMPDIR; cat $W/kill.txt
for f in r/killed/*.json; do echo "== diff of the killed+resumed run with the uninterrupted one: $f"; $B/ptxcts diff r/main/$(basename $f) $f | head -8; done > $W/resume-diff.log 2>&1; cat $W/resume-diff.log | head -20
(cd /tmp && /usr/bin/time -f "%e s" ctest --test-dir $P/share/ptxcts/tests -L gpu --output-on-failure) > $W/ctest.log 2>&1; tail -6 $W/ctest.log
cd /tmp && tar czf $OUT/h100.tgz w/*.log w/*.time w/*.txt w/r/main w/r/killed && ls -la $OUT
