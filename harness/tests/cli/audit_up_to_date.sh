#!/usr/bin/env bash
# `ptxcts audit` of one toolkit, warm with nothing changed, audits nothing: its reports are up to
# date (the stamp keyed by this program, the specs and ptxas) and it says again what it said. Any
# change to what decides a verdict audits anew: a spec file changed, another ptxas (a copy: another
# path), a report removed, --rewrite. The small suite's specs (support/small_specs.py: 2 CPU-s cold).
#   audit_up_to_date.sh PTXCTS BUILD_DIR PTXAS SOURCE_DIR
set -uo pipefail
ptxcts=$1 build=$2 ptxas=$3 source=$4
work="$build/audit-up-to-date"
rm -rf "$work" && mkdir -p "$work"
python3 "$source/harness/tests/support/small_specs.py" "$source" "$work/specs" || exit 2
audit() { "$ptxcts" --specs "$work/specs" audit --ptxas "${1:-$ptxas}" --catalog "$work/catalog" --reports "$work/reports" --no-history; }
expect() {  # what: audited anew (fresh) or said again (up-to-date)
  local said=$2 up
  up=$(grep -c '^audit: up to date' <<<"$said")
  if { [ "$1" = up-to-date ] && [ "$up" != 1 ]; } || { [ "$1" = fresh ] && [ "$up" != 0 ]; }; then
    echo "expected $1 ($3), the audit said:" >&2
    echo "$said" >&2
    exit 1
  fi
}
first=$(audit)
expect fresh "$first" "first"
again=$(audit)
expect up-to-date "$again" "nothing changed"
grep -q '^audit: [0-9]* statements and requirements' <<<"$again" || { echo "not said again: $again" >&2; exit 1; }
echo "# a comment" >> "$(ls "$work"/specs/*.yaml | head -1)"
expect fresh "$(audit)" "a spec file changed"
expect up-to-date "$(audit)" "nothing changed since"
cp "$ptxas" "$work/ptxas"
expect fresh "$(audit "$work/ptxas")" "another ptxas"
rm "$work"/reports/*.md
expect fresh "$(audit "$work/ptxas")" "a report removed"
expect fresh "$("$ptxcts" --specs "$work/specs" audit --rewrite --ptxas "$work/ptxas" --catalog "$work/catalog" --reports "$work/reports" --no-history)" "--rewrite"
echo "audit up to date: said again with nothing changed; audited anew after a spec, ptxas, a report or --rewrite"
