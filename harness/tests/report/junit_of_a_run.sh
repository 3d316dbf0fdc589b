#!/usr/bin/env bash
# The JUnit file and the JSON report of a whole run, as their real readers take them: `ptxcts run` on
# the fake device runner (MODE model: a conforming run, exit 0; off-by-one: every case fails, exit 1),
# then the report against reports/schema/run-report.schema.json (jsonschema) and the JUnit file
# against Jenkins' JUnit schema and junitparser's counts (check_junit.py), which must agree with the
# report: red exactly where the run exits 1.
# usage: junit_of_a_run.sh PTXCTS FAKE_RUNNER PYTHON3 SOURCE_DIR OUT MODE EXPECTED_EXIT
set -uo pipefail
ptxcts=$1 runner=$2 python=$3 src=$4 out=$5 mode=$6 want=$7
rm -rf "$out" && mkdir -p "$out"
PTXCTS_FAKE_MODE=$mode "$ptxcts" run -q --runner "$runner" --reports "$out" >"$out/run.txt" 2>&1
got=$?
if [ "$got" != "$want" ]; then
  echo "ptxcts run (fake device $mode) exited $got, expected $want:"; tail -20 "$out/run.txt"; exit 1
fi
json=$(ls "$out"/*.json) xml=$(ls "$out"/*.xml)
"$python" - "$json" "$src/reports/schema/run-report.schema.json" <<'PY' || exit $?
import json, sys
try:
    import jsonschema
except ImportError:
    print("skipped: python3-jsonschema is missing"); sys.exit(77)
report, schema = (json.load(open(p)) for p in sys.argv[1:3])
jsonschema.validate(report, schema)
print(f"report: schema {report['schema_version']} valid; {report['summary']['verdict']}")
PY
"$python" "$src/harness/tests/report/check_junit.py" "$json" "$xml" || exit $?
