#!/usr/bin/env bash
# Runs the suite on many machines with Slurm: an array of N tasks (one per node or GPU: choose with
# the sbatch options, e.g. --gres=gpu:1 or --nodes=1 --exclusive), each running this release's
# `ptxcts run` into RESULTS/<host>-task<ID>/, then the merge into RESULTS/fleet.{json,html} once
# all have ended, whatever their outcome.
#   share/ptxcts/slurm/submit-fleet.sh RESULTS N [sbatch options for both jobs...] [-- options for the array only]
# e.g. submit-fleet.sh /shared/r 16 -p gpu --account lab -- --gres=gpu:1
# RESULTS must be a new or empty directory every node can write (a shared file system): the merge
# reads every report under it. It is claimed before anything is queued (RESULTS/.ptxcts-fleet, made
# only if absent: of two submits into one folder, the second while the first's array is still
# pending and has written nothing there, exactly one goes on), and released if sbatch refuses the
# jobs. Prints the two job ids.
# PTXCTS_HISTORY=postgresql://...: the tasks record into that history at once, and the merge draws
# RESULTS/history.html from it (ptxcts-array.sbatch); unset, the merge imports the reports into the
# user's history and draws it from there.
set -euo pipefail
if [ $# -lt 2 ] || [ -z "$1" ]; then
  echo "usage: $0 RESULTS N [sbatch options for both jobs...] [-- options for the array only]" >&2
  exit 2
fi
results=$(realpath -m "$1")
tasks=$2 n_given=$2
shift 2
both=() array_only=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do both+=("$1"); shift; done
[ $# -gt 0 ] && shift && array_only=("$@")
# 1 to 1000000 (ptxcts merge --expect-tasks takes no more), in base 10 whatever zeros lead it ("08").
tasks=${tasks#"${tasks%%[!0]*}"}  # no leading zeros
case "$tasks" in '' | *[!0-9]* | ????????*) tasks=x ;; esac
if [ "$tasks" = x ] || [ "$tasks" -lt 1 ] || [ "$tasks" -gt 1000000 ]; then
  echo "$0: N must be a number of tasks from 1 to 1000000, got '$n_given'" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
# This release's own program: share/ptxcts/slurm/ -> bin/ (else $PTXCTS, e.g. a build tree's).
ptxcts=${PTXCTS:-$(cd "$here/../../.." && pwd)/bin/ptxcts}
[ -x "$ptxcts" ] || { echo "$0: no ptxcts at $ptxcts (set PTXCTS)" >&2; exit 2; }
ptxcts=$(realpath "$ptxcts")  # the jobs run in RESULTS: a relative PTXCTS would name nothing there
claim="$results/.ptxcts-fleet"
refuse_claimed() {
  echo "$0: $results is claimed by another fleet ($(head -c 400 "$claim" 2> /dev/null | tr '\n' ';' | sed 's/;$//; s/;/; /g')): its reports would be overwritten; give a new folder" >&2
  exit 2
}
[ -e "$claim" ] && refuse_claimed
if [ -e "$results" ] && [ ! -d "$results" ]; then
  echo "$0: $results is not a folder; give a new folder" >&2
  exit 2
fi
if [ -n "$(ls -A "$results" 2> /dev/null)" ]; then
  echo "$0: $results is not empty: the merge would mix in what is there; give a new folder" >&2
  exit 2
fi
made=0
[ -d "$results" ] || made=1
mkdir -p "$results"
# The claim: made only where it is absent (noclobber: O_EXCL), the one step two submits cannot both pass.
if ! (set -C && printf 'claimed %s by %s on %s (submit-fleet.sh, pid %s) for %s tasks\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
  "$(id -un)" "$(hostname -s)" "$$" "$tasks" > "$claim") 2> /dev/null; then
  [ -e "$claim" ] && refuse_claimed
  echo "$0: cannot write $claim in $results (it must be a folder every node can write)" >&2
  exit 2
fi
release() {  # sbatch refused: the folder is free again, as it was found
  rm -f "$claim"
  [ "$made" = 1 ] && rmdir "$results" 2> /dev/null
  echo "$0: sbatch refused the $1 job (above); nothing is queued, and $results is released" >&2
  exit 2
}
export PTXCTS="$ptxcts" PTXCTS_RESULTS="$results" PTXCTS_TASKS="$tasks"
array=$(sbatch --parsable --array="0-$((tasks - 1))" --chdir="$results" --export=ALL ${both[@]+"${both[@]}"} \
  ${array_only[@]+"${array_only[@]}"} "$here/ptxcts-array.sbatch") || release array
array=${array%%;*}
export PTXCTS_ARRAY_JOB="$array"  # the merge's history page: the runs of this array
echo "array job $array ($tasks tasks) submitted"
echo "array job $array" >> "$claim"
if ! merge=$(sbatch --parsable --dependency="afterany:$array" --chdir="$results" --export=ALL ${both[@]+"${both[@]}"} \
  "$here/ptxcts-merge.sbatch"); then
  scancel "$array" 2> /dev/null
  echo "array job $array cancelled: a fleet without its merge" >&2
  release merge
fi
echo "merge job ${merge%%;*}" >> "$claim"
echo "merge job ${merge%%;*}: $results/fleet.html when both have ended"
