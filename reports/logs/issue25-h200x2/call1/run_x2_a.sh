#!/usr/bin/env bash
# Device call 1 (nvidia-h100-x2, which came as two H200): the fault probe, then the packaged suite on
# one GPU and on both, the new scheduling against the old (hidden flags), each run's /usr/bin/time
# beside its log. (Package of commit 50cd567+changes; the early hand-over was still in.)
set -u
root=$PWD
W=/tmp/w; mkdir -p $W/r
tar xzf .device/ptxcts-0.1.0-Linux-x86_64.tar.gz -C $W || exit 1
P=$W/ptxcts-0.1.0-Linux-x86_64; B=$P/bin
nvidia-smi > $W/nvidia-smi.txt 2>&1; nvidia-smi topo -m >> $W/nvidia-smi.txt 2>&1
$B/ptxcts --version > $W/version.txt 2>&1
$B/ptxcts-device --info > $W/device-info.json 2>&1
PR=$root/.device/ptxcts-fault-probe
for cfg in "--gpus 0" "--gpus 0,1" "--gpus 0,1 --visible own" "--gpus 0 --handoff result" "--gpus 0,1 --visible own --handoff result" "--gpus 0 --exit now --handoff result" "--gpus 0,1 --visible own --exit now --handoff result" "--gpus 0 --kind illegal"; do
  echo "== $cfg"; timeout 120 $PR $cfg --faults 20
done > $W/probe.log 2>&1
cat $W/probe.log
cd $W
R() { n=$1; shift; /usr/bin/time -v -o $W/$n.time "$@" > $W/$n.log 2>&1; rc=$?
  echo "$n: exit $rc wall $(grep Elapsed $W/$n.time | awk '{print $NF}') | $(grep -h '  time:' $W/$n.log | cut -c9-140 | tr '\n' '|') $(tail -1 $W/$n.log)"; }
R warm $B/ptxcts run --reports $W/r/warm
for i in 1 2 3; do R one$i env CUDA_VISIBLE_DEVICES=0 $B/ptxcts run --reports $W/r/one$i; done
for i in 1 2 3; do R two$i $B/ptxcts run --reports $W/r/two$i; done
for i in 1 2; do R oldone$i env CUDA_VISIBLE_DEVICES=0 $B/ptxcts run --runners-see-all-gpus --no-early-handoff --reports $W/r/oldone$i; done
for i in 1 2; do R oldtwo$i $B/ptxcts run --runners-see-all-gpus --faults-on-every-gpu --no-early-handoff --reports $W/r/oldtwo$i; done
R twoevery $B/ptxcts run --faults-on-every-gpu --reports $W/r/twoevery
R twoseeall $B/ptxcts run --runners-see-all-gpus --reports $W/r/twoseeall
R twonohandoff $B/ptxcts run --no-early-handoff --reports $W/r/twonohandoff
for d in r/*/; do for f in $(find $d -name '*.json' | sort); do echo "$f $(python3 -c "import json,sys; j=json.load(open('$f')); print(j['totals'], sum(1 for r in j['results'] if r['fault_case'] and r['status']=='crash'), sum(1 for r in j['results'] if r['ran_on']))")"; done; done > $W/totals.txt 2>&1
cat $W/totals.txt
cd /tmp && tar czf $OUT/x2a.tgz w/*.log w/*.time w/*.txt w/*.json w/r/one1 w/r/two1 && ls -la $OUT
