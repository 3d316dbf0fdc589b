#!/usr/bin/env bash
# The long fuzz runs: every fuzzer built in FUZZ_DIR at once, each for SECONDS, with exactly the
# flags, dictionary, corpus and seeds its CTest test uses (read from FUZZ_DIR/CTestTestfile.cmake,
# which harness/fuzz/CMakeLists.txt writes), but -max_total_time=SECONDS, -print_final_stats=1 and
# its crash inputs under OUT_DIR.
#
#   harness/fuzz/long_run.sh FUZZ_DIR OUT_DIR [SECONDS]      (SECONDS: 600 unless given)
#   e.g. harness/fuzz/long_run.sh build/harness/fuzz fuzz-logs 600
#
# Writes OUT_DIR/fuzz-NAME.log per fuzzer and OUT_DIR/summary.txt, a line per fuzzer (executions,
# speed, peak memory, new inputs, and whether it found anything); exits 1 if any fuzzer found a crash,
# a slow input (-timeout) or an input that used too much memory (-rss_limit_mb), 2 on bad usage.
set -uo pipefail

usage() {
  echo "usage: $0 FUZZ_DIR OUT_DIR [SECONDS]" >&2
  exit 2
}
[ $# -ge 2 ] && [ $# -le 3 ] || usage
fuzz_dir=$(cd "$1" 2>/dev/null && pwd) || { echo "long_run: $1: no such directory" >&2; exit 2; }
out=$2
seconds=${3:-600}
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "long_run: SECONDS must be a positive integer, not '$seconds'" >&2; exit 2; }
tests="$fuzz_dir/CTestTestfile.cmake"
[ -f "$tests" ] || { echo "long_run: $tests: not found (configure the build with clang++ installed)" >&2; exit 2; }
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)

# One add_test line per fuzzer: add_test([=[fuzz.NAME]=] "EXE" "ARG" ...). The arguments are quoted;
# none of the paths CMake writes there holds a quote.
names=()
pids=()
# Interrupted, the fuzzers it started end with it.
trap 'kill "${pids[@]}" 2>/dev/null; exit 130' INT TERM
while IFS= read -r line; do
  args=()
  while IFS= read -r quoted; do
    args+=("${quoted:1:${#quoted}-2}")
  done < <(grep -o '"[^"]*"' <<<"$line")
  ((${#args[@]})) || continue
  exe=${args[0]}
  name=$(basename "$exe")
  if [ ! -x "$exe" ]; then
    echo "long_run: $name: not built ($exe), skipped" >&2
    continue
  fi
  flags=()
  for a in "${args[@]:1}"; do
    case "$a" in
      -max_total_time=*) ;;                                    # replaced below
      -artifact_prefix=*) flags+=("-artifact_prefix=$out/$name-") ;;  # crash inputs beside the logs
      *) flags+=("$a") ;;
    esac
  done
  log="$out/fuzz-$name.log"
  echo "long_run: $name for $seconds s: $exe -max_total_time=$seconds -print_final_stats=1 ${flags[*]}" >&2
  "$exe" "-max_total_time=$seconds" -print_final_stats=1 "${flags[@]}" >"$log" 2>&1 &
  names+=("$name")
  pids+=($!)
done < <(grep '^add_test(\[=\[fuzz\.' "$tests")

((${#names[@]})) || { echo "long_run: no fuzzer built in $fuzz_dir" >&2; exit 2; }

# A stat from libFuzzer's final lines ("stat::number_of_executed_units: 123").
stat() { sed -n "s/^stat::$1: *//p" "$2" | tail -n 1; }

found=0
: >"$out/summary.txt"
for i in "${!names[@]}"; do
  name=${names[$i]}
  log="$out/fuzz-$name.log"
  wait "${pids[$i]}"
  rc=$?
  verdict="no crash"
  if [ "$rc" -ne 0 ]; then
    found=1
    kind=$(grep -m1 -o -E 'ERROR: libFuzzer: [A-Za-z-]+|ERROR: [A-Za-z]+Sanitizer: [A-Za-z-]+|runtime error: [^,]*' "$log")
    artifact=$(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)
    verdict="FOUND (exit $rc: ${kind:-see the log}${artifact:+; input $artifact})"
  fi
  # "Done N runs in S second(s)": only a run that went the whole time says it.
  took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1 s/p' "$log" | tail -n 1)
  printf '%s: %s runs in %s (%s/s), peak RSS %s MB, %s new inputs; %s\n' "$name" \
    "$(stat number_of_executed_units "$log")" "${took:-less than $seconds s}" "$(stat average_exec_per_sec "$log")" \
    "$(stat peak_rss_mb "$log")" "$(stat new_units_added "$log")" "$verdict" | tee -a "$out/summary.txt"
done
exit "$found"
