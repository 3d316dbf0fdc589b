#!/usr/bin/env bash
# Issues 28 and 30, on the H100: the packaged suite of this commit (no build here) writes the CUDA 13.0
# reports again (cubin and JIT); `ptxcts diff` against the committed reports; the package's GPU tests;
# and the process model on a real device with the real runner: SIGKILL mid-run (no runner may live on,
# the next start sweeps, --resume gives the uninterrupted report), and the run's $TMPDIR on a full
# tmpfs (the runner's results writes checked: exit 2 naming the full disk, then --resume with space
# gives the uninterrupted report).
set -u
root=$PWD
W=/tmp/w; rm -rf $W; mkdir -p $W/r/main $W/r/killed $W/r/full $W/tmp
tar xzf .device/ptxcts-0.1.0-Linux-x86_64.tar.gz -C $W || exit 1
P=$W/ptxcts-0.1.0-Linux-x86_64; B=$P/bin
nvidia-smi -L > $W/nvidia-smi.txt 2>&1
$B/ptxcts --version > $W/version.txt 2>&1; cat $W/version.txt
cd $W
R() { n=$1; shift; /usr/bin/time -f "%e s" -o $W/$n.time "$@" > $W/$n.log 2>&1; rc=$?
  echo "$n: exit $rc, $(cat $W/$n.time), $(wc -l < $W/$n.log) lines | $(tail -2 $W/$n.log | tr '\n' ' ')"; }
R main $B/ptxcts run --reports $W/r/main
R quiet $B/ptxcts run -q --reports $W/r/quiet
R jit $B/ptxcts run --toolchain jit --reports $W/r/main
for f in $(ls r/main/*.json | sort); do
  echo "== ptxcts diff committed $(basename $f)"; $B/ptxcts diff $root/reports/$(basename $f).gz $f; echo "exit $?"
done > $W/diffs.log 2>&1; grep -v "^  " $W/diffs.log | head -40
export TMPDIR=$W/tmp
$B/ptxcts run -q --reports $W/r/killed > $W/killed.log 2>&1 & pid=$!
sleep 6; pgrep -f ptxcts-device > $W/runners-before-kill.txt; kill -9 $pid; wait $pid 2>/dev/null; sleep 2
{ echo "runners alive before the kill: $(wc -l < $W/runners-before-kill.txt)"
  echo "runners alive 2 s after SIGKILL of ptxcts: $(pgrep -fc ptxcts-device)"
  echo "left in TMPDIR after the kill: $(ls $TMPDIR | tr '\n' ' ') ($(du -sk $TMPDIR | cut -f1) KiB)"; } > $W/kill.txt
R resumed $B/ptxcts run -q --resume --reports $W/r/killed
echo "left in TMPDIR after the resumed run: $(ls $TMPDIR | tr '\n' ' ') ($(du -sk $TMPDIR | cut -f1) KiB)" >> $W/kill.txt
cat $W/kill.txt
for f in r/killed/*.json; do echo "== killed+resumed against uninterrupted: $f"; $B/ptxcts diff r/main/$(basename $f) $f | head -8; done > $W/resume-diff.log 2>&1; head -20 $W/resume-diff.log
unset TMPDIR
# $TMPDIR on a 4 MiB tmpfs (a user namespace): the run must stop with one line naming the full disk
for size in 4m 24m; do
  [ $size = 4m ] && resume= || resume=--resume
  unshare -rm sh -c "mount -t tmpfs -o size=$size none $W/tmp && TMPDIR=$W/tmp $B/ptxcts run -q $resume --reports $W/r/full; echo exit \$?; ls -la $W/tmp" > $W/full-$size.log 2>&1
  echo "full-$size: $(tail -4 $W/full-$size.log | tr '\n' ' ')"
done
R fullresumed $B/ptxcts run -q --resume --reports $W/r/full
for f in r/full/*.json; do echo "== full-disk+resumed against uninterrupted: $f"; $B/ptxcts diff r/main/$(basename $f) $f | head -8; done > $W/full-diff.log 2>&1; head -20 $W/full-diff.log
(cd /tmp && /usr/bin/time -f "%e s" ctest --test-dir $P/share/ptxcts/tests -L gpu --output-on-failure) > $W/ctest.log 2>&1; tail -6 $W/ctest.log
cd /tmp && tar czf $OUT/h100.tgz w/*.log w/*.time w/*.txt w/r/main w/r/killed w/r/full && ls -la $OUT
