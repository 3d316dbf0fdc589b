#!/usr/bin/env bash
# Device call 5, final (nvidia-h100-x1): the packaged suite on the H100 (no build here), the default
# against the old way, three each, one after the other; the JIT column; the packaged CTest folder;
# ptxcts diff against the committed H100 report. The default run's reports come back.
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
  echo "$n: exit $rc wall $(grep Elapsed $W/$n.time | awk '{print $NF}') | $(grep -h '  time:' $W/$n.log | cut -c9-60 | tr '\n' '|') fault line $(grep -h 'fault line' $W/$n.log | sed 's/.*fault line \([0-9.]* s\).*/\1/' | tr '\n' ' ')| $(tail -1 $W/$n.log)"; }
R warm $B/ptxcts run --reports $W/r/warm
for i in 1 2 3; do R one$i $B/ptxcts run --reports $W/r/one$i; done
R seeall $B/ptxcts run --runners-see-all-gpus --reports $W/r/seeall
R ldm $B/ptxcts run --family ldmatrix
R jit $B/ptxcts run --toolchain jit --reports $W/r/one1
(cd /tmp && /usr/bin/time -f "%e s" ctest --test-dir $P/share/ptxcts/tests -L gpu --output-on-failure) > $W/ctest.log 2>&1; tail -12 $W/ctest.log
for f in $(find r/one1 -name '*.json' | sort); do
  echo "== ptxcts diff committed $(basename $f)"; $B/ptxcts diff $root/reports/$(basename $f).gz $f | tail -4
done > $W/diffs.log 2>&1; cat $W/diffs.log
for d in r/*/; do for f in $(find $d -name '*.json' | sort); do echo "$f $(python3 -c "import json,sys; j=json.load(open('$f')); r=j['run']; print(j['totals'], 'faulted', sum(1 for x in j['results'] if x['fault_case'] and x['status']=='crash'), r['gpu_uuid'], j['timing']['first_launch_s'], j['timing']['wall_s'], j['timing']['faults_s'])")"; done; done > $W/totals.txt 2>&1
cat $W/totals.txt
cd /tmp && tar czf $OUT/h100.tgz w/*.log w/*.time w/*.txt w/*.txt w/r/one1 && ls -la $OUT
