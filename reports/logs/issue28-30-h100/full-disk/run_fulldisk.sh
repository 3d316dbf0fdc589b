#!/usr/bin/env bash
# The run's $TMPDIR on tmpfs of growing sizes (a user namespace), on the H100 with the real device runner:
# where the job files fit and the results do not, the runner's checked writes must say so (exit 6 of
# the runner, exit 2 of ptxcts naming the full disk), and --resume with space must give the
# uninterrupted report. A first run with room, watched, says how big the scratch folder grows.
set -u
root=$PWD
W=/tmp/w; rm -rf $W; mkdir -p $W/r/main $W/r/full $W/tmp
tar xzf .device/ptxcts-0.1.0-Linux-x86_64.tar.gz -C $W || exit 1
B=$W/ptxcts-0.1.0-Linux-x86_64/bin
cd $W
TMPDIR=$W/tmp $B/ptxcts run -q --reports $W/r/main > $W/main.log 2>&1 & pid=$!
peak=0; while kill -0 $pid 2>/dev/null; do s=$(du -sk $W/tmp 2>/dev/null | cut -f1); [ "$s" -gt "$peak" ] && peak=$s; ls -la $W/tmp/*/ 2>/dev/null > $W/scratch-listing.txt.new && [ -s $W/scratch-listing.txt.new ] && mv $W/scratch-listing.txt.new $W/scratch-listing.txt; sleep 0.2; done
echo "uninterrupted run: $(tail -1 $W/main.log); scratch folder peak $peak KiB" | tee $W/peak.txt
cat $W/scratch-listing.txt | head -20
for size in 40m 80m 120m 160m 200m 240m 280m 320m; do
  [ -e $W/r/full/*.journal.jsonl ] && resume=--resume || resume=
  unshare -rm sh -c "mount -t tmpfs -o size=$size none $W/tmp && TMPDIR=$W/tmp $B/ptxcts run -q $resume --reports $W/r/full; echo exit \$?; ls -A $W/tmp" > $W/full-$size.log 2>&1
  echo "== $size ($resume): $(grep -v '^  resuming' $W/full-$size.log | head -3 | cut -c1-400 | tr '\n' ' ')"
done
$B/ptxcts run -q --resume --reports $W/r/full > $W/fullresumed.log 2>&1; echo "resumed with room: exit $? | $(tail -2 $W/fullresumed.log | tr '\n' ' ')"
for f in r/full/*.json; do echo "== full-disk runs + resume against uninterrupted: $f"; $B/ptxcts diff r/main/$(basename $f) $f | head -8; done 2>&1 | tee $W/full-diff.log
cd /tmp && tar czf $OUT/fulldisk.tgz w/*.log w/*.txt && ls -la $OUT
