#!/usr/bin/env python3
"""Every spec and every committed report against its JSON Schema (specs/schema/, reports/schema/),
with Debian's python3-fastjsonschema, python3-jsonschema and python3-yaml. `--broken-copies` shows
the schemas can fail: for each file it validates copies broken in ways a hand edit breaks them (a
required key removed, an unknown key added, a value of the wrong type, a status or verdict
misspelt), and each copy must be rejected by both validators. Exit 0 all valid (or every broken copy
rejected), 1 otherwise, 77 without the packages.

Two validators, for two reasons. fastjsonschema compiles a schema into Python and validates the
committed reports (thousands of results each) in a fraction of jsonschema's time (CI, issue 39); and
it reads a pattern as JSON Schema says (ECMA-262: '$' is the end of the text), where jsonschema 4.10
hands it to Python's re, whose '$' also matches before a final newline, so it let the reports'
observed layouts (each ending in a newline) pass a pattern that did not allow it. fastjsonschema
2.16 knows drafts 4 to 7, not 2020-12: where a schema uses a keyword the two drafts read otherwise
(not in SAME_IN_DRAFT_7: the family schema's 'dependentRequired'), or a '$ref' beside other keywords
(2020-12 applies both, draft 7 the '$ref' alone), jsonschema judges each document as well.

usage: check_schemas.py SOURCE_DIR [--broken-copies]"""
import copy, glob, gzip, json, os, sys

try:
    import fastjsonschema, jsonschema, yaml
except ImportError as e:
    print(f"skipped: {e} (harness/scripts/bootstrap.sh --tests installs python3-fastjsonschema, python3-jsonschema "
          "and python3-yaml)")
    sys.exit(77)

# The keywords of draft 2020-12 that draft 7 (fastjsonschema) reads the same way.
SAME_IN_DRAFT_7 = {"$schema", "$id", "$defs", "$ref", "title", "description", "examples", "type", "enum", "const",
                   "properties", "required", "additionalProperties", "patternProperties", "propertyNames",
                   "minProperties", "items", "minItems", "maxItems", "uniqueItems", "minLength", "maxLength",
                   "pattern", "minimum", "maximum", "oneOf", "anyOf", "allOf", "not", "if", "then", "else",
                   "default"}


def documents(src):
    """(path, document, schema path) for every spec and committed report."""
    for path in sorted(glob.glob(os.path.join(src, "specs", "*.yaml"))):
        name = os.path.basename(path)[:-5]
        schema = name if name in ("targets", "cases", "diagnostics", "documents", "sentences") else "family"
        with open(path) as f:
            yield path, yaml.safe_load(f), os.path.join(src, "specs", "schema", schema + ".schema.json")
    reports = glob.glob(os.path.join(src, "reports", "**", "*.json"), recursive=True)
    reports += glob.glob(os.path.join(src, "reports", "**", "*.json.gz"), recursive=True)  # the committed ones
    for path in sorted(reports):
        if os.sep + "schema" + os.sep in path:
            continue
        with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
            doc = json.load(f)
        yield path, doc, os.path.join(src, "reports", "schema", SCHEMA_OF_KIND[report_kind(doc)] + ".schema.json")


SCHEMA_OF_KIND = {"run": "run-report", "audit": "audit-report", "toolkit-matrix": "toolkit-matrix",
                  "sass": "sass-report", "fleet": "fleet"}


def report_kind(doc):
    """What a report is: its "kind", else the legacy rule of harness/src/results/report_kind.hpp for
    the reports written before it (by the schema key and version, never by other keys)."""
    if "kind" in doc:
        return doc["kind"]
    if "fleet_schema_version" in doc:
        return "fleet"
    v = doc.get("schema_version")
    return "toolkit-matrix" if v == 1 else "audit" if v in (2, 3) else "run"


def keywords_draft_7_reads_alike(node, where):
    """The places in a schema where draft 7 would read it otherwise than 2020-12."""
    bad = []
    if isinstance(node, dict):
        if "$ref" in node and set(node) - {"$ref", "description", "title"}:
            bad.append(f"{where}: '$ref' beside {sorted(set(node) - {'$ref', 'description', 'title'})}")
        for key, value in node.items():
            if key in ("properties", "patternProperties", "$defs"):  # names, not keywords
                for name, sub in value.items():
                    bad += keywords_draft_7_reads_alike(sub, f"{where}/{key}/{name}")
            elif key == "dependentRequired":  # names to lists of names
                bad.append(f"{where}: keyword '{key}'")
            else:
                if key not in SAME_IN_DRAFT_7:
                    bad.append(f"{where}: keyword '{key}'")
                bad += keywords_draft_7_reads_alike(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            bad += keywords_draft_7_reads_alike(item, f"{where}/{i}")
    return bad


class Validators:
    """A schema's two validators: fastjsonschema's compiled function and jsonschema's."""

    def __init__(self, schema_path):
        with open(schema_path) as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        # Where draft 7 reads the schema otherwise, jsonschema judges each document too (the specs:
        # small files).
        self.unlike = keywords_draft_7_reads_alike(schema, os.path.basename(schema_path))
        self.slow = jsonschema.Draft202012Validator(schema)
        self.fast = fastjsonschema.compile(schema)

    def first_error(self, doc):
        """The first error (fastjsonschema's, then, where it reads the schema otherwise, jsonschema's), or None."""
        try:
            self.fast(doc)
        except fastjsonschema.JsonSchemaException as e:
            return str(e)
        if self.unlike:
            for e in sorted(self.slow.iter_errors(doc), key=lambda e: list(e.absolute_path))[:1]:
                return f"{e.json_path}: {e.message}"
        return None

    def both_reject(self, doc):
        return self.first_error(doc) is not None and not self.slow.is_valid(doc)


def validator(schema_path, cache={}):
    if schema_path not in cache:
        cache[schema_path] = Validators(schema_path)
    return cache[schema_path]


def breakages(doc):
    """Named broken copies of `doc`: each breaks one thing a schema must catch."""
    def first(d, key):  # the first object in the list under `key`
        return d[key][0] if isinstance(d.get(key), list) and d[key] and isinstance(d[key][0], dict) else None
    top = next(iter(doc))
    b = copy.deepcopy(doc); del b[top]; yield f"top-level key '{top}' removed", b
    b = copy.deepcopy(doc); b["unknown_key"] = 1; yield "an unknown top-level key", b
    b = copy.deepcopy(doc); b[top] = {"wrong": ["type"]} if not isinstance(doc[top], dict) else 42
    yield f"'{top}' of the wrong type", b
    for key in ("variants", "results", "claims", "findings", "targets", "classes", "cases"):
        if first(doc, key) is not None:
            b = copy.deepcopy(doc); e = b[key][0]; k = next(iter(e)); del e[k]
            yield f"{key}[0].{k} removed", b
            b = copy.deepcopy(doc); b[key][0]["misspelt_key"] = "x"; yield f"an unknown key in {key}[0]", b
    if first(doc, "results") is not None:
        b = copy.deepcopy(doc); b["results"][0]["status"] = "passed"; yield "status 'passed'", b
        b = copy.deepcopy(doc); b["results"][0]["mismatches"] = -1; yield "mismatches -1", b
    if isinstance(doc.get("run"), dict) and "toolchain" in doc["run"]:
        b = copy.deepcopy(doc); b["run"]["toolchain"] = "jit"; yield "toolchain 'jit'", b
    if first(doc, "claims") is not None and "verdict" in doc["claims"][0]:
        b = copy.deepcopy(doc); b["claims"][0]["verdict"] = "true"; yield "verdict 'true'", b
    if first(doc, "variants") is not None:
        b = copy.deepcopy(doc); b["variants"][0]["operation"] = "lod"; yield "operation 'lod'", b


def main():
    src = sys.argv[1]
    broken = "--broken-copies" in sys.argv[2:]
    bad = 0
    for path, doc, schema in documents(src):
        v = validator(schema)
        rel = os.path.relpath(path, src)
        if not broken:
            error = v.first_error(doc)
            if error:
                print(f"{rel}: {error[:300]}")
            print(f"{'ok  ' if not error else 'FAIL'} {rel} ({os.path.relpath(schema, src)})")
            bad += bool(error)
            continue
        # Each list cut to its first entries: a schema judges every entry alike, and copies stay cheap.
        small = {k: v[:3] if isinstance(v, list) else v for k, v in doc.items()}
        if v.first_error(small) or not v.slow.is_valid(small):
            print(f"FAIL {rel}: not valid to begin with")
            bad += 1
        for what, b in breakages(small):
            if not v.both_reject(b):
                print(f"FAIL {rel}: a copy with {what} passes {os.path.relpath(schema, src)}")
                bad += 1
        print(f"ok   {rel}: every broken copy rejected by both validators")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
