#!/usr/bin/env bash
# CI's toolkit matrix: fetches CUDA 11.8 and 12.4's ptxas (pip, into a cache under the build, once),
# audits them beside the build's toolkit and writes the matrix of the three. Skips (exit 77, with
# the reason) where pip cannot reach the package registry. Then again: nothing is written again.
# The specs audited are the small suite's (support/small_specs.py: ldmatrix and movmatrix, every
# target of each toolkit): what is checked here is the matrix (three columns, two steps, the page,
# nothing written again, --rewrite), which needs a whole specs folder and no family in particular;
# the whole specs' audit is CTest `audit`'s. Cold, the whole specs took 128 CPU-s per fetched
# toolkit (CUDA 11.8: 162 probe modules); the small suite's, 2 CPU-s (34).
# The audits' probe verdicts go to a catalog folder of the test's own, so that the build's catalog,
# which the release package may start from, holds no other toolkit's verdicts.
#   toolkits_matrix.sh PTXCTS BUILD_DIR INSTALLED_PTXAS SOURCE_DIR
set -uo pipefail
ptxcts=$1 build=$2 installed=$3 source=$4
cache="$build/toolkits" out="$build/toolkit-reports" catalog="$build/toolkit-catalog" specs="$build/toolkit-specs"
rm -rf "$specs"
python3 "$source/harness/tests/support/small_specs.py" "$source" "$specs" || exit 2
ptxcts=("$ptxcts" --specs "$specs")
mkdir -p "$catalog/probes"
"${ptxcts[@]}" toolkits fetch 11.8 12.4 --cache "$cache"
rc=$?
if [ "$rc" = 77 ]; then
  echo "SKIPPED: pip cannot reach the package registry, so no other toolkit can be fetched"
  exit 77
fi
[ "$rc" = 0 ] || exit "$rc"
"${ptxcts[@]}" audit --toolkit 11.8 --toolkit 12.4 --toolkit "$installed" --toolkit-cache "$cache" --catalog "$catalog" --reports "$out"
rc=$?
# 1 is a finding the specs do not expect in one of the toolkits (older ones have some: the reports
# show them); the matrix is what this test is about. 2 or 3 is trouble.
[ "$rc" = 0 ] || [ "$rc" = 1 ] || exit "$rc"
# The matrix has the three, oldest first, and says what changed twice.
columns=$(grep -c '^| 1[0-9]\.[0-9]* | [0-9.]* | [0-9]\.[0-9] |' "$out/toolkits.md")
steps=$(grep -c '^### CUDA .* -> ' "$out/toolkits.md")
if [ "$columns" != 3 ] || [ "$steps" != 2 ]; then
  echo "toolkits.md has $columns toolkits and $steps steps; expected 3 and 2" >&2
  exit 1
fi
# And its page beside it, a column per toolkit in the table of toolkits.
heads=$(grep -o '<th data-toolkit="[^"]*">' "$out/toolkits.html" | sort -u | wc -l)
if [ "$heads" != 3 ]; then
  echo "toolkits.html has $heads toolkit columns; expected 3" >&2
  exit 1
fi
# Again, nothing changed: every report is up to date and none is written again (not even the
# matrix); then --rewrite writes them all.
before=$(sha256sum "$out"/toolkits.json "$out"/audit-cuda*.json)
again=$("${ptxcts[@]}" audit --toolkit 11.8 --toolkit 12.4 --toolkit "$installed" --toolkit-cache "$cache" --catalog "$catalog" --reports "$out")
rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || exit "$rc"
fresh=$(printf '%s\n' "$again" | grep -c 'up to date')
if [ "$fresh" != 4 ] || [ "$before" != "$(sha256sum "$out"/toolkits.json "$out"/audit-cuda*.json)" ]; then
  printf '%s\n' "$again" >&2
  echo "the second run said 'up to date' $fresh times (expected 4: three audits and the matrix), or wrote a report" >&2
  exit 1
fi
rewritten=$("${ptxcts[@]}" audit --rewrite --toolkit 11.8 --toolkit 12.4 --toolkit "$installed" --toolkit-cache "$cache" --catalog "$catalog" --reports "$out")
rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || exit "$rc"
if printf '%s\n' "$rewritten" | grep -q 'up to date'; then
  echo "--rewrite still found reports up to date" >&2
  exit 1
fi
