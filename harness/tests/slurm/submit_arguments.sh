#!/usr/bin/env bash
# harness/slurm/submit-fleet.sh given careless or hostile arguments, with stand-ins for sbatch and
# scancel on PATH (no cluster: runs anywhere, in well under a second): each refused in one line that
# says what was expected, nothing queued; the results folder claimed before anything is queued, a
# second submit into it refused naming the first's jobs, and released where sbatch refuses a job.
# The real cluster (a second submit while the first fleet is pending) is slurm_fleet.sh's.
#   submit_arguments.sh SOURCE_DIR
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: $0 SOURCE_DIR" >&2; exit 2; }
submit="$1/harness/slurm/submit-fleet.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
mkdir "$tmp/bin"
# sbatch: the next job id, or (SBATCH_FAILS=N) a refusal at its Nth call; each call logged.
cat > "$tmp/bin/sbatch" <<'EOS'
#!/bin/sh
n=$(($(cat "$FAKE_SLURM/calls" 2>/dev/null || echo 0) + 1))
echo "$n" > "$FAKE_SLURM/calls"
echo "sbatch $*" >> "$FAKE_SLURM/log"
if [ "${SBATCH_FAILS:-0}" = "$n" ]; then echo "sbatch: error: Batch job submission failed: Invalid partition name specified" >&2; exit 1; fi
echo $((1000 + n))
EOS
cat > "$tmp/bin/scancel" <<'EOS'
#!/bin/sh
echo "scancel $*" >> "$FAKE_SLURM/log"
EOS
printf '#!/bin/sh\nexit 0\n' > "$tmp/ptxcts"
chmod 755 "$tmp/bin/sbatch" "$tmp/bin/scancel" "$tmp/ptxcts"
export PATH="$tmp/bin:$PATH" PTXCTS="$tmp/ptxcts" FAKE_SLURM="$tmp"
out="" rc=0
run() {  # EXPECTED-EXIT EXPECTED-TEXT ARGS...: submit-fleet.sh ARGS, its exit and its output checked
  local want=$1 text=$2
  shift 2
  rm -f "$tmp/calls"
  out=$(cd "$tmp" && "$submit" "$@" 2>&1)
  rc=$?
  [ "$rc" = "$want" ] || fail "submit-fleet.sh $* exited $rc, expected $want: $out"
  grep -qF -- "$text" <<< "$out" || fail "submit-fleet.sh $* did not say '$text': $out"
}
queued() { cat "$tmp/calls" 2>/dev/null || echo 0; }

# N: a number of tasks from 1 to 1000000 (ptxcts merge --expect-tasks takes no more), in base 10.
for n in 0 -3 abc 1e3 1000001 99999999999999999999 ''; do
  run 2 "N must be a number of tasks from 1 to 1000000, got '$n'" r-n "$n"
  [ "$(queued)" = 0 ] || fail "N '$n': sbatch was called"
done
[ -e "$tmp/r-n" ] && fail "a refused N left the folder r-n"
run 0 "array job 1001 (8 tasks) submitted" r-08 08  # before: '08: value too great for base (error token is "08")'
grep -q -- "--array=0-7 " "$tmp/log" || fail "N 08 did not submit --array=0-7: $(cat "$tmp/log")"
# RESULTS: given, a folder, empty.
run 2 "usage: " "" 4
touch "$tmp/a-file"
run 2 "$tmp/a-file is not a folder; give a new folder" a-file 4
mkdir -p "$tmp/full" && touch "$tmp/full/old.json"
run 2 "$tmp/full is not empty: the merge would mix in what is there; give a new folder" full 4
# The claim: a second submit into a fleet's folder refused, naming the first's jobs, though the
# folder holds nothing else (the first array still pending).
run 0 "merge job 1002: $tmp/r1/fleet.html when both have ended" r1 4
[ "$(ls -A "$tmp/r1")" = .ptxcts-fleet ] || fail "r1 holds more than its claim: $(ls -A "$tmp/r1")"
run 2 "$tmp/r1 is claimed by another fleet (claimed " r1 4
grep -qF "for 4 tasks; array job 1001; merge job 1002): its reports would be overwritten; give a new folder" <<< "$out" ||
  fail "the refusal does not name the first fleet's jobs: $out"
[ "$(queued)" = 0 ] || fail "the refused second submit called sbatch"
# sbatch refuses the array: nothing queued, the folder released (made by this submit: removed; one
# that was there and empty: kept, without the claim).
SBATCH_FAILS=1 run 2 "sbatch refused the array job (above); nothing is queued, and $tmp/r2 is released" r2 4
[ -e "$tmp/r2" ] && fail "a submit sbatch refused left r2: $(ls -A "$tmp/r2")"
mkdir "$tmp/r3"
SBATCH_FAILS=1 run 2 "sbatch refused the array job" r3 4
if [ ! -d "$tmp/r3" ] || [ -n "$(ls -A "$tmp/r3")" ]; then fail "the empty folder r3 given was not left as it was"; fi
run 0 "array job 1001 (4 tasks) submitted" r3 4  # released: it can be submitted into again
# sbatch refuses the merge: the array cancelled, the folder released.
: > "$tmp/log"
SBATCH_FAILS=2 run 2 "sbatch refused the merge job (above); nothing is queued, and $tmp/r4 is released" r4 4
grep -qx "scancel 1001" "$tmp/log" || fail "the array of a fleet without its merge was not cancelled: $(cat "$tmp/log")"
[ -e "$tmp/r4" ] && fail "a submit whose merge sbatch refused left r4"
[ "$failures" = 0 ] && echo "PASS: every careless argument refused in one line, the folder claimed and released"
exit $((failures > 0))
