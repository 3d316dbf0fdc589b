#!/usr/bin/env bash
# A fleet run on a real one-node Slurm cluster brought up here (Debian's slurm-wlm and munge, as
# root): harness/slurm/submit-fleet.sh with 4 array tasks, each playing another GPU through the
# fake device runner, then the merge. Twice: once all well (4 machines, all aligned, none missing),
# once with task 2 failing (no GPU, --require-gpu: exit 77, no report) and task 3 cancelled while it
# runs (no exit line), which the merge must list as the two missing runs and exit 1 for.
# Skips (exit 77, with the reason) where the cluster cannot come up: packages missing, not root,
# daemons that do not start. Every daemon started here is stopped, and its temporary folder removed.
#   slurm_fleet.sh PTXCTS FAKE_RUNNER CATALOG SOURCE_DIR [SPECS]
# SPECS: the specs CATALOG was made from, where they are not SOURCE_DIR's (CTest gives the small
# suite's, chaos.catalog's: the fleet is what is checked here, not every family, and a task's run of
# the small suite takes a fraction of the whole suite's 10 CPU-s).
# Its waits are bounded so that all of them and the cleanup stay within CTest's 180 s; it takes
# about 25 s on 2 cores.
# The cluster, as found to work on a CI machine (Debian bookworm, slurm-wlm 22.05): a private slurm.conf
# named by SLURM_CONF, SlurmUser=root, proctrack/linuxproc, task/none, select/cons_tres, free ports,
# every state/spool/pid/log file in the temporary folder, and a private munged (own key, socket,
# pid and log) named by AuthInfo; only where that munged will not start, the system's.
set -uo pipefail
if [ $# -ne 4 ] && [ $# -ne 5 ]; then
  echo "usage: $0 PTXCTS FAKE_RUNNER CATALOG SOURCE_DIR [SPECS]" >&2
  exit 2
fi
ptxcts=$1 fake_runner=$2 catalog=$3 source_dir=$4 specs=${5:-}
slurm_scripts="$source_dir/harness/slurm"
test_start=$(date +%s.%N)

skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
# A process that is there and not a zombie.
alive() { [ -n "${1:-}" ] && [ -r "/proc/$1/stat" ] && ! awk '{ exit $3 != "Z" }' "/proc/$1/stat" 2>/dev/null; }

[ "$(id -u)" = 0 ] || skip "not root (slurmd and this cluster's SlurmUser=root need root)"
for tool in slurmctld slurmd sbatch squeue sinfo scontrol scancel munged munge unmunge python3; do
  command -v "$tool" >/dev/null 2>&1 ||
    skip "no $tool here (apt-get install slurm-wlm munge; harness/scripts/bootstrap.sh --tests installs them)"
done
for f in "$ptxcts" "$fake_runner" "$slurm_scripts/submit-fleet.sh"; do
  [ -x "$f" ] || fail "no program at $f"
done
[ -f "$catalog/manifest.json" ] || fail "no catalog at $catalog"

# Nothing of a Slurm job this test may run inside, or of the caller's fake runner settings.
while IFS= read -r name; do unset "$name"; done < <(env | sed -n 's/^\(SLURM_[A-Za-z0-9_]*\)=.*/\1/p; s/^\(PTXCTS_[A-Za-z0-9_]*\)=.*/\1/p')

# The cluster's own short folder under /tmp, not $TMPDIR (under the build tree, wherever the clone
# lives): munged's socket path must fit a socket address (108 bytes), and slurm.conf cannot hold a
# path with spaces. What the jobs get of the clone's paths (the catalog, the programs) goes through
# links in it or quoted variables, never through a list split on spaces (PTXCTS_RUN_ARGS).
tmp=$(mktemp -d /tmp/ptxcts-slurm.XXXXXX) || fail "cannot make a temporary folder"
chmod 755 "$tmp"  # munged wants its socket's folder searchable by all
ctld_pid="" slurmd_pid="" munged_pid="" munged_ours=0 made_run_munge=0

# shellcheck disable=SC2317  # called by the EXIT trap
stop_all() {
  local pid i
  if [ -n "${SLURM_CONF:-}" ] && { alive "$ctld_pid" || alive "$slurmd_pid"; }; then
    # Whatever is still queued or running, then the daemons themselves.
    timeout 10 scancel --quiet --user=root >/dev/null 2>&1
    for ((i = 0; i < 40; i++)); do
      [ -z "$(timeout 5 squeue -h -o %i 2>/dev/null)" ] && break
      sleep 0.25
    done
    timeout 10 scontrol shutdown >/dev/null 2>&1
    for ((i = 0; i < 60; i++)); do
      alive "$ctld_pid" || alive "$slurmd_pid" || break
      sleep 0.25
    done
  fi
  # The launches that hang on purpose, should a cancel not have reached them; then anything left.
  for pid in $(cat "$tmp"/hang-*.pid 2>/dev/null) "$ctld_pid" "$slurmd_pid"; do
    alive "$pid" && kill -TERM "$pid" 2>/dev/null
  done
  if [ "$munged_ours" = 1 ] && alive "$munged_pid"; then kill -TERM "$munged_pid" 2>/dev/null; fi
  for ((i = 0; i < 40; i++)); do
    alive "$ctld_pid" || alive "$slurmd_pid" || { [ "$munged_ours" = 1 ] && alive "$munged_pid"; } || break
    sleep 0.25
  done
  for pid in "$ctld_pid" "$slurmd_pid" $([ "$munged_ours" = 1 ] && echo "$munged_pid"); do
    if alive "$pid"; then
      echo "cleanup: pid $pid still there after 10 s, killing it" >&2
      kill -KILL "$pid" 2>/dev/null
    fi
  done
  [ "$made_run_munge" = 1 ] && rmdir /run/munge 2>/dev/null
  rm -rf "$tmp"
}
trap 'rc=$?; stop_all; exit $rc' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Free ports for slurmctld and slurmd: nothing answering on either.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for ((i = 0; i < 20; i++)); do
  ctld_port=$((20000 + RANDOM % 30000)) slurmd_port=$((ctld_port + 1))
  port_free "$ctld_port" && port_free "$slurmd_port" && break
done

# munge: a private munged with its own key, socket, pid and log file.
mkdir -p "$tmp/munge" && chmod 755 "$tmp/munge"
head -c 1024 /dev/urandom > "$tmp/munge/munge.key" && chmod 600 "$tmp/munge/munge.key"
munge_socket="$tmp/munge/munge.socket"
# A folder the daemons cannot use is this test's fault, not the machine's: red, never a skip (a skip
# would leave the fleet untested in silence wherever the folder lies).
[ "$(printf %s "$munge_socket" | wc -c)" -lt 108 ] ||
  fail "munged's socket path $munge_socket is over the 108 bytes of a socket address"
case "$tmp" in *[[:space:]]*) fail "slurm.conf cannot hold the path $tmp, which has a space" ;; esac
munge_check() { munge -n ${1:+-S "$1"} 2>/dev/null | unmunge ${1:+-S "$1"} >/dev/null 2>&1; }
auth_info=""
if munged --force --socket="$munge_socket" --key-file="$tmp/munge/munge.key" --pid-file="$tmp/munge/munged.pid" \
  --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/munged.seed" >"$tmp/munge/start.log" 2>&1; then
  munged_pid=$(cat "$tmp/munge/munged.pid" 2>/dev/null) munged_ours=1
  for ((i = 0; i < 20; i++)); do munge_check "$munge_socket" && break; sleep 0.25; done
  munge_check "$munge_socket" && auth_info="AuthInfo=socket=$munge_socket"
fi
if [ -z "$auth_info" ]; then
  echo "the private munged did not start ($(tail -n 3 "$tmp/munge/start.log" "$tmp/munge/munged.log" 2>/dev/null | tr '\n' ' ')); trying the system's"
  if alive "$munged_pid"; then kill -TERM "$munged_pid"; fi
  munged_pid="" munged_ours=0
  if ! munge_check; then
    # As the reference setup did: the package's key and /run/munge; stopped again by its pid.
    [ -d /run/munge ] || made_run_munge=1
    mkdir -p /run/munge && chown munge:munge /run/munge /etc/munge/munge.key 2>/dev/null
    munged --force >"$tmp/munge/start.log" 2>&1 ||
      skip "munged does not start: $(tail -n 3 "$tmp/munge/start.log" | tr '\n' ' ')"
    munged_pid=$(cat /run/munge/munged.pid 2>/dev/null) munged_ours=1
    for ((i = 0; i < 20; i++)); do munge_check && break; sleep 0.25; done
  fi
  munge_check || skip "munge cannot encode and decode a credential"
fi

# Slurm: one node, this machine, every file in the temporary folder.
host=$(hostname -s)
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/log"
cat > "$tmp/slurm.conf" <<EOF
ClusterName=ptxcts-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
$auth_info
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
KillWait=5
MinJobAge=300
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$tmp/slurm.conf"
daemon_logs() { tail -n 5 "$tmp/log/slurmctld.log" "$tmp/log/slurmd.log" 2>/dev/null | grep -v '^$' | sed 's/^/  /'; }
slurmctld -c >"$tmp/log/slurmctld.start" 2>&1 || { daemon_logs; skip "slurmctld does not start: $(tr '\n' ' ' < "$tmp/log/slurmctld.start")"; }
for ((i = 0; i < 20; i++)); do [ -s "$tmp/slurmctld.pid" ] && break; sleep 0.25; done
ctld_pid=$(cat "$tmp/slurmctld.pid" 2>/dev/null)
for ((i = 0; i < 40; i++)); do  # 10 s: it answers, or it has given up
  alive "$ctld_pid" || { daemon_logs; skip "slurmctld ended right after its start: $(tail -n 1 "$tmp/log/slurmctld.log" 2>/dev/null)"; }
  timeout 5 scontrol ping 2>/dev/null | grep -q 'is UP' && break
  sleep 0.25
done
slurmd >"$tmp/log/slurmd.start" 2>&1 || { daemon_logs; skip "slurmd does not start: $(tr '\n' ' ' < "$tmp/log/slurmd.start")"; }
for ((i = 0; i < 20; i++)); do [ -s "$tmp/slurmd.pid" ] && break; sleep 0.25; done
slurmd_pid=$(cat "$tmp/slurmd.pid" 2>/dev/null)
state=""
for ((i = 0; i < 40; i++)); do  # 20 s
  state=$(timeout 5 sinfo -h -n "$host" -o %t 2>/dev/null)
  [ "$state" = idle ] && break
  sleep 0.5
done
if [ "$state" != idle ]; then
  daemon_logs
  skip "the node $host did not become idle within 20 s (sinfo says '${state:-nothing}')"
fi
up_time=$(since "$test_start")
echo "cluster up in ${up_time} s: node $host idle (slurmctld $ctld_pid on port $ctld_port, slurmd $slurmd_pid, munged ${munged_pid:-of the system})"

# The runner each task uses: the fake device runner, playing the GPU of its array task.
gpu() {  # name major minor uuid-last-digit pci-bus
  printf '[{"ordinal": 0, "name": "%s", "major": %s, "minor": %s, "driver_cuda": "13.0", "driver_version": "580.1", "uuid": "GPU-00000000-0000-0000-0000-00000000000%s", "pci_bus_id": "0000:%s:00.0"}]' "$@"
}
write_runner() {  # FILE DEVICES-0 DEVICES-1 DEVICES-2 DEVICES-3 [HANGING-TASK]
  cat > "$1" <<EOF
#!/usr/bin/env bash
# The fake device runner as the GPU of array task \$SLURM_ARRAY_TASK_ID (written by slurm_fleet.sh).
task=\${SLURM_ARRAY_TASK_ID:?not in an array task}
case \$task in
  0) export PTXCTS_FAKE_DEVICES='$2' ;;
  1) export PTXCTS_FAKE_DEVICES='$3' ;;
  2) export PTXCTS_FAKE_DEVICES='$4' ;;
  3) export PTXCTS_FAKE_DEVICES='$5' ;;
esac
if [ "\$task" = "${6:-none}" ] && [ "\${1:-}" != --info ]; then
  # A launch that never ends (until the task is cancelled); the pid, for the test's cleanup.
  echo \$\$ > "$tmp/hang-\$task.pid"
  exec sleep 300
fi
exec $(printf %q "$fake_runner") "\$@"  # quoted for the shell, whatever the path holds
EOF
  chmod 755 "$1"
}
h100=$(gpu "Fake H100 SXM" 9 0 0 18) h200=$(gpu "Fake H200" 9 0 1 2a) gh200=$(gpu "Fake GH200" 9 0 2 3b)
l40s=$(gpu "Fake L40S" 8 9 3 5e)
write_runner "$tmp/runner-all-well.sh" "$h100" "$h200" "$gh200" "$l40s"
write_runner "$tmp/runner-two-missing.sh" "$h100" "$h200" "[]" "$(gpu "Fake H100 PCIe" 9 0 3 5e)" 3
if [ -n "$specs" ]; then
  # Every ptxcts of the test (the tasks', the merge's, this script's) and the fake GPUs read SPECS.
  printf '#!/usr/bin/env bash\nexec %q --specs %q "$@"\n' "$ptxcts" "$specs" > "$tmp/ptxcts"
  chmod 755 "$tmp/ptxcts"
  ptxcts="$tmp/ptxcts"
  export PTXCTS_FAKE_SPECS="$specs"
fi
export PTXCTS="$ptxcts" PTXCTS_FAKE_MODE=model
# The history (issue 44): the first fleet's tasks record into one history at once, PostgreSQL with
# FLEET_TEST_HISTORY=postgres (the fixture's server, $POSTGRES_TEST_URL: CTest slurm.fleet-into-postgres),
# else an SQLite file here; the second fleet's, none (PTXCTS_HISTORY unset), its merge importing the
# reports into the default history, here too (XDG_DATA_HOME): nothing is written into root's home.
export XDG_DATA_HOME="$tmp/xdg"
if [ "${FLEET_TEST_HISTORY:-}" = postgres ]; then
  [ -n "${POSTGRES_TEST_URL:-}" ] || fail "FLEET_TEST_HISTORY=postgres without POSTGRES_TEST_URL"
  fleet1_history=$POSTGRES_TEST_URL
else
  fleet1_history="$tmp/fleet-history.sqlite"
fi
ln -s "$catalog" "$tmp/catalog" || fail "cannot link the catalog into $tmp"

# submit-fleet.sh with this fleet's runner; sets array and merge, the two job ids.
submit() {  # RESULTS RUNNER [more run options]; $SBATCH_BOTH: sbatch options for both jobs
  local results=$1 runner=$2 out
  shift 2
  # shellcheck disable=SC2086  # SBATCH_BOTH is a list of options
  out=$(PTXCTS_RUN_ARGS="--no-assemble --catalog $tmp/catalog --runner $runner $*" "$slurm_scripts/submit-fleet.sh" "$results" 4 ${SBATCH_BOTH:-} 2>&1) ||
    fail "submit-fleet.sh failed: $out"
  echo "$out"
  array=$(sed -n 's/^array job \([0-9]*\) (4 tasks) submitted$/\1/p' <<< "$out")
  merge=$(sed -n 's/^merge job \([0-9]*\): .*/\1/p' <<< "$out")
  [ -n "${merge:-}" ] || fail "submit-fleet.sh printed no job ids"
}
wait_gone() {  # SECONDS JOB... : until squeue shows none of them
  local limit=$1 i
  shift
  for ((i = 0; i < limit * 2; i++)); do
    [ -z "$(squeue -h -o %i -j "$(IFS=,; echo "$*")" 2>/dev/null)" ] && return 0
    sleep 0.5
  done
  squeue >&2
  return 1
}
exit_code() { scontrol show job "$1" 2>/dev/null | sed -n 's/.* ExitCode=\([0-9:]*\).*/\1/p' | head -n 1; }

# 1. All well: 4 GPUs, 4 reports, one fleet; submitted held, so that it is pending (its folder empty)
# when a second fleet is submitted into the same folder.
fleet_start=$(date +%s.%N)
results1="$tmp/fleet-all-well"
PTXCTS_HISTORY=$fleet1_history SBATCH_BOTH=--hold submit "$results1" "$tmp/runner-all-well.sh"
[ -z "$(ls "$results1")" ] || fail "the held fleet's folder is not empty: $(ls "$results1")"
second=$(PTXCTS_RUN_ARGS="--no-assemble --catalog $tmp/catalog --runner $tmp/runner-all-well.sh" \
  "$slurm_scripts/submit-fleet.sh" "$results1" 4 2>&1)
rc=$?
echo "a second submit into $results1: exit $rc: $second"
[ "$rc" = 2 ] || fail "a second submit into the pending fleet's folder exited $rc, expected 2 (refused): $second"
grep -q "$results1 is claimed by another fleet (claimed .* for 4 tasks; array job $array; merge job $merge): its reports would be overwritten; give a new folder" <<< "$second" ||
  fail "the second submit's refusal does not name the first fleet's jobs: $second"
# A submit sbatch refuses (no such partition): nothing queued, the folder released.
refused=$(PTXCTS_RUN_ARGS="--runner $tmp/runner-all-well.sh" "$slurm_scripts/submit-fleet.sh" "$tmp/fleet-refused" 4 \
  --partition=no-such-partition 2>&1)
rc=$?
if [ "$rc" != 2 ] || ! grep -q "sbatch refused the array job (above); nothing is queued, and $tmp/fleet-refused is released" <<< "$refused"; then
  fail "a submit sbatch refused exited $rc: $refused"
fi
[ -e "$tmp/fleet-refused" ] && fail "a submit sbatch refused left $tmp/fleet-refused behind: $(ls -A "$tmp/fleet-refused")"
[ "$(squeue -h -o %i | sort -u | wc -l)" = 2 ] || fail "the queue holds other jobs than the held fleet's: $(squeue)"
scontrol release "$array" "$merge" || fail "cannot release the held fleet (array $array, merge $merge)"
wait_gone 50 "$array" "$merge" || fail "the first fleet (array $array, merge $merge) did not end within 50 s"
fleet1_time=$(since "$fleet_start")
merge_out="$results1/ptxcts-merge-$merge.out"
[ -f "$merge_out" ] || fail "the merge job wrote no $merge_out ($(ls "$results1"))"
echo "merge job $merge said:"
sed 's/^/  /' "$merge_out"
for k in 0 1 2 3; do
  status=$(echo "$results1"/*-task$k/task.status)
  [ -f "$status" ] || fail "task $k left no task.status"
  grep -qx 'exit 0' "$status" || fail "task $k did not end with exit 0: $(tr '\n' ' ' < "$status"); its log: $(tail -n 5 "$(dirname "$status")/run.log")"
done
tail -n 1 "$merge_out" | grep -q ': 4 machines (4 aligned), [0-9]* rows differ among the aligned$' ||
  fail "the merge job did not say '4 machines (4 aligned)' and nothing missing"
[ "$(exit_code "$merge")" = 0:0 ] || fail "the merge job ended with ExitCode $(exit_code "$merge"), expected 0:0"
python3 - "$results1/fleet.json" "$array" <<'EOF' || fail "fleet.json of the first fleet is not as expected"
import json, sys
f = json.load(open(sys.argv[1]))
problems = []
m = f["machines"]
if len(m) != 4: problems.append(f"{len(m)} machines, expected 4")
if not all(x["aligned"] for x in m): problems.append("not all machines aligned: " + str([x["note"] for x in m]))
if f["missing"]: problems.append(f"missing is {f['missing']}, expected none")
for key in ("gpu_name", "gpu_uuid"):
    values = [x["run"][key] for x in m]
    if len(set(values)) != 4: problems.append(f"{key}s are not 4 distinct ones: {values}")
if len({x["name"] for x in m}) != 4: problems.append(f"machine names not distinct: {[x['name'] for x in m]}")
tasks = sorted(x["run"]["slurm_task"] for x in m)
if tasks != ["0", "1", "2", "3"]: problems.append(f"slurm_task values {tasks}, expected 0..3")
jobs = {x["run"]["slurm_job"] for x in m}
if jobs != {sys.argv[2]}: problems.append(f"slurm_job values {jobs}, expected {sys.argv[2]}")
for p in problems: print("fleet.json:", p)
print("fleet.json: " + ", ".join(f"task {x['run']['slurm_task']} {x['run']['gpu_name']} sm {x['run']['compute_capability']}" for x in sorted(m, key=lambda x: x["run"]["slurm_task"])))
sys.exit(1 if problems else 0)
EOF
# Its runs in the history, each once, and the history page the merge drew from it: the 4 GPUs.
check_history_page() {  # RESULTS RUNS
  local page="$1/history.html"
  [ -f "$page" ] || fail "the merge job drew no $page: $(cat "$1/history.log" 2>/dev/null)"
  grep -q ">$2 runs of $2 GPU models in $2 columns" "$page" ||
    fail "$page does not say '$2 runs of $2 GPU models in $2 columns': $(grep -o '<p class="verdict[^<]*' "$page")"
}
check_history_page "$results1" 4
again=$("$ptxcts" history page --history "$fleet1_history" --slurm-job "$array" "$tmp/history-again.html" 2>&1) ||
  fail "ptxcts history page --slurm-job $array failed: $again"
grep -q ">4 runs of 4 GPU models in 4 columns" "$tmp/history-again.html" || fail "the history does not hold the 4 runs of job $array once each"

# 2. Two missing: task 2 has no GPU (exit 77 with --require-gpu, no report), task 3 is cancelled
# during its run.
fleet_start=$(date +%s.%N)
results2="$tmp/fleet-two-missing"
submit "$results2" "$tmp/runner-two-missing.sh" --require-gpu
for ((i = 0; i < 60; i++)); do  # 30 s
  [ -s "$tmp/hang-3.pid" ] && [ -f "$(echo "$results2"/*-task3/task.status)" ] && break
  sleep 0.5
done
[ -s "$tmp/hang-3.pid" ] || fail "task 3 of the second fleet did not start its run within 30 s"
scancel "${array}_3" || fail "scancel ${array}_3 failed"
wait_gone 30 "$array" "$merge" || fail "the second fleet (array $array, merge $merge) did not end within 30 s of the cancel"
fleet2_time=$(since "$fleet_start")
alive "$(cat "$tmp/hang-3.pid")" && fail "the cancelled task's runner (pid $(cat "$tmp/hang-3.pid")) is still running"
merge_out="$results2/ptxcts-merge-$merge.out"
[ -f "$merge_out" ] || fail "the merge job wrote no $merge_out ($(ls "$results2"))"
echo "merge job $merge said:"
sed 's/^/  /' "$merge_out"
status2=$(echo "$results2"/*-task2/task.status) status3=$(echo "$results2"/*-task3/task.status)
grep -qx 'exit 77' "$status2" || fail "task 2 did not end with exit 77: $(tr '\n' ' ' < "$status2")"
grep -q '^exit' "$status3" && fail "the cancelled task 3 has an exit line: $(tr '\n' ' ' < "$status3")"
for k in 0 1; do
  grep -qx 'exit 0' "$results2"/*-task$k/task.status || fail "task $k of the second fleet did not end with exit 0"
done
[ "$(exit_code "$merge")" = 1:0 ] || fail "the merge job ended with ExitCode $(exit_code "$merge"), expected 1:0"
check_missing() {  # WHAT OUTPUT
  local missing
  missing=$(grep '^missing: ' <<< "$2")
  [ "$(wc -l <<< "$missing")" = 2 ] || fail "$1 lists $(grep -c . <<< "$missing") missing runs, expected 2: $missing"
  grep -q "^missing: task 2 on $host: ended with exit 77 and wrote no report" <<< "$missing" ||
    fail "$1 does not list task 2 as ended with exit 77: $missing"
  grep -q "^missing: task 3 on $host: started at .* and never finished" <<< "$missing" ||
    fail "$1 does not list task 3 as never finished: $missing"
  tail -n 1 <<< "$2" | grep -q ': 2 machines (2 aligned), [0-9]* rows differ among the aligned; 2 of 4 expected runs missing$' ||
    fail "$1 does not end with '2 machines (2 aligned) ... 2 of 4 expected runs missing'"
}
check_missing "the merge job" "$(cat "$merge_out")"
# Again by hand: the same lines, and exit 1.
again=$("$ptxcts" merge --expect-tasks 4 --out "$tmp/merge-again" "$results2" 2>&1)
rc=$?
[ "$rc" = 1 ] || fail "ptxcts merge --expect-tasks 4 exited $rc, expected 1: $again"
check_missing "ptxcts merge --expect-tasks 4" "$again"
python3 - "$results2/fleet.json" <<'EOF' || fail "fleet.json of the second fleet is not as expected"
import json, sys
f = json.load(open(sys.argv[1]))
missing = sorted((m["task"], m["reason"]) for m in f["missing"])
tasks = sorted(x["run"]["slurm_task"] for x in f["machines"])
ok = ([t for t, _ in missing] == ["2", "3"] and "exit 77" in missing[0][1] and "never finished" in missing[1][1]
      and tasks == ["0", "1"] and all(x["aligned"] for x in f["machines"]))
if not ok: print(f"fleet.json: machines of tasks {tasks}, missing {missing}")
sys.exit(0 if ok else 1)
EOF
# No history given: the tasks recorded nothing, the merge imported the 2 reports and drew their page.
check_history_page "$results2" 2
[ -f "$XDG_DATA_HOME/ptxcts/history.sqlite" ] || fail "the merge job imported nothing into the default history"

echo "PASS: cluster up in ${up_time} s; all-well fleet (4 GPUs, merged, 4 aligned) in ${fleet1_time} s;" \
  "two-missing fleet (task 2 exit 77, task 3 cancelled) in ${fleet2_time} s; $(since "$test_start") s in all;" \
  "the first fleet's history: $([ "${FLEET_TEST_HISTORY:-}" = postgres ] && echo PostgreSQL || echo SQLite)"
exit 0
