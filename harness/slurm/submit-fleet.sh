#!/usr/bin/env bash
# Runs the suite on many machines with Slurm: an array of N tasks (one per node or GPU: choose with
# the sbatch options, e.g. --gres=gpu:1 or --nodes=1 --exclusive), each running this release's
# `ptxcts run` into RESULTS/<host>-task<ID>/, then the merge into RESULTS/fleet.{json,html} once
# all have ended, whatever their outcome.
#   share/ptxcts/slurm/submit-fleet.sh RESULTS N [sbatch options for both jobs...] [-- options for the array only]
# e.g. submit-fleet.sh /shared/r 16 -p gpu --account lab -- --gres=gpu:1
# RESULTS must be a new or empty directory every node can write (a shared file system): the merge
# reads every report under it. Prints the two job ids.
# PTXCTS_HISTORY=postgresql://...: the tasks record into that history at once, and the merge draws
# RESULTS/history.html from it (ptxcts-array.sbatch); unset, the merge imports the reports into the
# user's history and draws it from there.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 RESULTS N [sbatch options for both jobs...] [-- options for the array only]" >&2
  exit 2
fi
results=$(realpath -m "$1")
tasks=$2
shift 2
both=() array_only=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do both+=("$1"); shift; done
[ $# -gt 0 ] && shift && array_only=("$@")
case "$tasks" in '' | *[!0-9]* | 0) echo "$0: N must be a positive number of tasks, got '$tasks'" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
# This release's own program: share/ptxcts/slurm/ -> bin/ (else $PTXCTS, e.g. a build tree's).
ptxcts=${PTXCTS:-$(cd "$here/../../.." && pwd)/bin/ptxcts}
[ -x "$ptxcts" ] || { echo "$0: no ptxcts at $ptxcts (set PTXCTS)" >&2; exit 2; }
ptxcts=$(realpath "$ptxcts")  # the jobs run in RESULTS: a relative PTXCTS would name nothing there
if [ -n "$(ls -A "$results" 2> /dev/null)" ]; then
  echo "$0: $results is not empty: the merge would mix in what is there; give a new folder" >&2
  exit 2
fi
mkdir -p "$results"
export PTXCTS="$ptxcts" PTXCTS_RESULTS="$results" PTXCTS_TASKS="$tasks"
array=$(sbatch --parsable --array="0-$((tasks - 1))" --chdir="$results" --export=ALL ${both[@]+"${both[@]}"} \
  ${array_only[@]+"${array_only[@]}"} "$here/ptxcts-array.sbatch")
array=${array%%;*}
export PTXCTS_ARRAY_JOB="$array"  # the merge's history page: the runs of this array
echo "array job $array ($tasks tasks) submitted"
merge=$(sbatch --parsable --dependency="afterany:$array" --chdir="$results" --export=ALL ${both[@]+"${both[@]}"} \
  "$here/ptxcts-merge.sbatch")
echo "merge job ${merge%%;*}: $results/fleet.html when both have ended"
