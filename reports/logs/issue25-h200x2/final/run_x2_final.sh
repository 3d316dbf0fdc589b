#!/usr/bin/env bash
# Device call 4, final (two-GPU machine): the packaged suite only (no build here): one GPU and both, the
# defaults against the old ways and the fault line's depth, one after the other; the packaged CTest
# folder; ptxcts diff against the committed H100 report. The reports of one1 and two1 come back.
set -u
root=$PWD
W=/tmp/w; mkdir -p $W/r
tar xzf .device/ptxcts-0.1.0-Linux-x86_64.tar.gz -C $W || exit 1
P=$W/ptxcts-0.1.0-Linux-x86_64; B=$P/bin
nvidia-smi > $W/nvidia-smi.txt 2>&1
$B/ptxcts --version > $W/version.txt 2>&1; cat $W/version.txt
$B/ptxcts-device --info > $W/device-info.txt 2>&1; cat $W/device-info.txt
cd $W
R() { n=$1; shift; /usr/bin/time -v -o $W/$n.time "$@" > $W/$n.log 2>&1; rc=$?
  echo "$n: exit $rc wall $(grep Elapsed $W/$n.time | awk '{print $NF}') | $(grep -h '  time:' $W/$n.log | cut -c9-60 | tr '\n' '|') $(grep -h 'fault line' $W/$n.log | sed 's/.*fault line \([0-9.]* s\).*/\1/' | tr '\n' ' ')| $(tail -1 $W/$n.log)"; }
R warm env CUDA_VISIBLE_DEVICES=0 $B/ptxcts run --reports $W/r/warm
for i in 1 2 3; do R one$i env CUDA_VISIBLE_DEVICES=0 $B/ptxcts run --reports $W/r/one$i; done
for i in 1 2 3; do R two$i $B/ptxcts run --reports $W/r/two$i; done
for i in 1 2; do R oldtwo$i $B/ptxcts run --runners-see-all-gpus --faults-on-every-gpu --reports $W/r/oldtwo$i; done
R twoevery $B/ptxcts run --faults-on-every-gpu --reports $W/r/twoevery
# The packaged CTest folder, as a user runs it.
(cd /tmp && /usr/bin/time -f "%e s" ctest --test-dir $P/share/ptxcts/tests -L gpu --output-on-failure) > $W/ctest.log 2>&1; tail -12 $W/ctest.log
for f in $(find r/one1 r/two1 -name '*.json'); do
  echo "== ptxcts diff committed-h100-cuda13.0 $f"; $B/ptxcts diff $root/reports/nvidia-h100-80gb-hbm3-sm_90-driver580.159.04-cuda13.0.json.gz $f | tail -3
done > $W/diffs.log 2>&1; cat $W/diffs.log
for d in r/*/; do for f in $(find $d -name '*.json' | sort); do echo "$f $(python3 -c "import json,sys; j=json.load(open('$f')); r=j['run']; print(j['totals'], 'faulted', sum(1 for x in j['results'] if x['fault_case'] and x['status']=='crash'), 'ran_on', sum(1 for x in j['results'] if x['ran_on']), r['gpu_index'], r['gpu_uuid'], r['gpus_at_once'], j['timing']['first_launch_s'], j['timing']['wall_s'], j['timing']['faults_s'])")"; done; done > $W/totals.txt 2>&1
cat $W/totals.txt
cd /tmp && tar czf $OUT/x2b.tgz w/*.log w/*.time w/*.txt w/*.txt w/r/one1 w/r/two1 && ls -la $OUT
