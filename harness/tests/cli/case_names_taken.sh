#!/usr/bin/env bash
# One spelling of a case everywhere (issue 41): every case name that `ptxcts list --cases`, `ptxcts
# list` (its KERNEL/* column), `ptxcts diff` (of a conforming and a failing run on the fake device)
# and the JUnit files of those runs print is accepted by `ptxcts run --cases`: all of them, as a case
# list (@FILE), make a run that refuses none (exit 2 for any name it does not take) and then, with no
# GPU (PTXCTS_FAKE_DEVICES=[]) and --require-gpu, skips (77). A plain name must be no glob.
# usage: case_names_taken.sh PTXCTS FAKE_RUNNER PYTHON3 CATALOG GOOD_RUN_DIR BAD_RUN_DIR WORK
set -uo pipefail
ptxcts=$1 runner=$2 python=$3 catalog=$4 good=$5 bad=$6 work=$7
fail() { echo "case_names_taken: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 2
good_json=$(ls "$good"/*.json) bad_json=$(ls "$bad"/*.json) || fail "no fake runs in $good and $bad"

"$ptxcts" list --cases >"$work/list-cases.txt" || fail "ptxcts list --cases failed"
grep -v '^#' "$work/list-cases.txt" >"$work/names-list-cases.txt"
"$ptxcts" list >"$work/list.txt" || fail "ptxcts list failed"
awk '$2 ~ /\/\*$/ { print $2 }' "$work/list.txt" >"$work/names-list.txt"
"$ptxcts" diff "$good_json" "$bad_json" >"$work/diff.txt"
[ $? = 1 ] || fail "ptxcts diff of a conforming and a failing run did not exit 1"
# The diff's names: the indented lines under each transition and family, KERNEL/CASE.
sed -n 's/^    \([^ ]*\/[^ ]*\)\( (withdrawn: .*)\)\{0,1\}$/\1/p' "$work/diff.txt" >"$work/names-diff.txt"
"$python" - "$good"/*.xml "$bad"/*.xml >"$work/names-junit.txt" <<'PY' || fail "cannot read the JUnit files"
import sys
import xml.etree.ElementTree as ET
for path in sys.argv[1:]:
    for tc in ET.parse(path).getroot().iter("testcase"):
        c = tc.get("classname", "")
        if not c.endswith(".claims") and c != "ptxcts.run":  # a claim's id, the run's verdict: no cases
            print(tc.get("name"))
PY
for source in list-cases list diff junit; do
  n=$(wc -l <"$work/names-$source.txt")
  echo "$source: $n names"
  [ "$n" -gt 0 ] || fail "ptxcts $source printed no case names (the expected lines are not there)"
done
[ "$(wc -l <"$work/names-diff.txt")" -ge 1000 ] || fail "the diff named fewer than 1,000 cases: $(head -3 "$work/diff.txt")"
sort -u "$work"/names-{list-cases,diff,junit}.txt >"$work/plain.txt"
if grep -n '[][*? ]' "$work/plain.txt" | head -3 | grep .; then fail "case names above are globs or hold a space"; fi
cat "$work/plain.txt" "$work/names-list.txt" >"$work/all.txt"
PTXCTS_FAKE_DEVICES='[]' "$ptxcts" run --no-assemble --catalog "$catalog" --runner "$runner" --require-gpu \
  --reports "$work/reports" --cases "@$work/all.txt" >"$work/run.txt" 2>&1
got=$?
[ "$got" = 77 ] || { tail -5 "$work/run.txt"; fail "ptxcts run --cases @FILE of every name exited $got, expected 77 (every name taken, then no GPU)"; }
echo "every name taken by --cases: $(wc -l <"$work/plain.txt") case names, $(wc -l <"$work/names-list.txt") KERNEL/* of list"
