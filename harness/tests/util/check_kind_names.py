#!/usr/bin/env python3
"""A kind is one room: no file outside harness/src/kinds/<kind>/ names that kind, but for the places
of ALLOWED below, each with why. Scanned: the C++ of harness/src, of the fake device runner
(harness/tests/support's EMULATOR) and of the fuzzers (harness/fuzz), comments left out, string literals kept (a switch on "wmma" is a switch on
the kind). A kind's own tests (harness/tests/kinds/<kind>/) are its room too and are not scanned.

A file names a kind when one of its identifiers or strings has, split at '_', '.', digits and
camelCase, a part among the kind's WORDS (`WmmaMatrix`, `mma_sparse_spec`, "ldmatrix"). Its own folder's
words never count against a file (kinds/wmma's `wmma_mma_info` is wmma's own), nor does mma beside
wmma in one name (`WmmaMma`, "wmma.mma": wmma's instruction).

The count printed is the places (files) outside their rooms that name a kind, allowed or not: the
issue's measure (issue 39: 39 on 2131e01 by these rules; target: under 10).

usage: check_kind_names.py SOURCE_DIR            check; exit 1 naming each file:line not allowed
       check_kind_names.py SOURCE_DIR --list     every place and what it names, allowed or not
       check_kind_names.py SOURCE_DIR --plant    self-test: a planted name must turn the check red"""
import os, re, shutil, sys, tempfile

# Each kind's folder under harness/src/kinds/ and the words that name it in code.
WORDS = {
    "matrix_move": {"ldmatrix", "stmatrix", "movmatrix", "matrix_move"},
    "wmma": {"wmma"},
    "mma": {"mma", "sparse"},
}

# The places outside a kind's room that may name it: path (relative to the source dir) -> why.
# A path ending in '/' allows its whole folder.
ALLOWED = {
    # The one list of kinds: naming each is its job.
    "harness/src/kinds/kinds.cpp": "the kind list: one line per kind",
    # The spec fuzzer builds spec/ alone: it lists the kinds' case blocks as kinds.cpp does.
    "harness/fuzz/fuzz_specs.cpp": "the spec fuzzer's lists of the kinds' operations and blocks (spec/ built alone)",
    # wmma.mma is the wmma kind's own instruction, spelled with mma: not the mma kind.
    "harness/src/kinds/wmma/": "wmma.mma, wmma's own instruction",
    # Debt of issue 39, each a place the describing face has not yet taken in (see kinds/README.md).
    "harness/src/judge/fragment_sections.cpp": "debt: the mma.sp sections' audit questions",
    "harness/src/judge/type_shape_product.cpp": "debt: mma's type x shape questions",
    "harness/src/judge/questions/fragments.cpp": "debt: mma.sp's sparse sections judged (with judge/fragment_sections)",
    "harness/src/judge/questions/questions.cpp": "debt: the list of judges names mma.sp's sparse-section judge",
    "harness/src/judge/questions/questions.hpp": "debt: the list of judges names mma.sp's sparse-section judge",
    "harness/src/judge/operand_forms.cpp": "debt: wmma's variable addresses, undocumented (a kind's audit question)",
    "harness/src/judge/expectations.cpp": "an example kernel glob in an expectation file's message (wmma.load.*/fault-*)",
    "harness/src/report/mma_layout_svg.cpp": "debt: mma's fragment figure",
    "harness/src/report/mma_layout_svg.hpp": "debt: mma's fragment figure",
    "harness/src/report/layout_svg.cpp": "debt: the layout figure's mma branch",
    "harness/src/report/layout_svg.hpp": "debt: the layout figure's mma branch",
    "harness/src/report/run/report_html.cpp": "debt: the run page's mma figures and wmma observations",
    "harness/src/report/run/report_markdown.cpp": "debt: the heading of the observed layouts, which only wmma has",
    "harness/src/report/run/report_diff_html.cpp": "debt: the heading of the observed layouts, which only wmma has",
    "harness/src/report/run/report_merge.cpp": "debt: the heading of the observed layouts, which only wmma has",
    "harness/src/commands/case_arguments.cpp": "an example kernel glob in --cases' usage message ('ldmatrix.*x4*/unique-*')",
}

# The fake device runner's files in harness/tests/support: its software GPU, which runs every kind.
EMULATOR = {"device_emulator.cpp", "device_emulator.hpp", "fake_device_runner.cpp"}

TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")


def code(text):
    """The text without comments (string literals kept), newlines kept so that lines still count."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def parts(token):
    return [p.lower() for p in re.split(r"[_.\W\d]+", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", token)) if p]


def room(rel):
    m = re.match(r"harness/src/kinds/([^/]+)/", rel)
    return m.group(1) if m else None


def names(path, rel):
    """(line, kind, token) of each name of a kind other than the file's own room's."""
    own = room(rel)
    found = []
    for no, line in enumerate(code(open(path, encoding="utf-8").read()).split("\n"), 1):
        for token in TOKEN.findall(line):
            ps = set(parts(token))
            if "wmma" in ps:
                ps.discard("mma")  # WmmaMma, wmma.mma: wmma's own instruction, not the mma kind
            for kind, words in WORDS.items():
                if kind != own and ps & words and not (own and ps & WORDS.get(own, set())):
                    found.append((no, kind, token))
    return found


def allowed(rel):
    return next((why for p, why in ALLOWED.items() if rel == p or (p.endswith("/") and rel.startswith(p))), None)


def scan(root):
    """{rel: [(line, kind, token)]} of every file outside its room that names a kind."""
    out = {}
    for top in ("harness/src", "harness/tests/support", "harness/fuzz"):
        for folder, _, files in sorted(os.walk(os.path.join(root, top))):
            for f in sorted(files):
                if f.endswith((".cpp", ".hpp")) and (top != "harness/tests/support" or f in EMULATOR):
                    rel = os.path.relpath(os.path.join(folder, f), root)
                    found = names(os.path.join(folder, f), rel)
                    if found:
                        out[rel] = found
    return out


def check(root, listing=False):
    places = scan(root)
    bad = {rel: f for rel, f in places.items() if not allowed(rel)}
    for rel, found in sorted(places.items()):
        if listing:
            print(f"{rel}: {', '.join(sorted({k for _, k, _ in found}))}" + (f"  [{allowed(rel)}]" if allowed(rel) else ""))
    stale = [p for p in ALLOWED if not p.endswith("/") and p not in places]
    for p in stale:
        print(f"{p}: allowed to name a kind but names none (or is gone): remove it from ALLOWED")
    for rel, found in sorted(bad.items()):
        for no, kind, token in found[:3]:
            print(f"{rel}:{no}: names the {kind} kind ({token}) outside harness/src/kinds/{kind}/")
    own = [rel for rel in places if any(p.endswith("/") and rel.startswith(p) for p in ALLOWED)]
    debt = [rel for rel in places if (allowed(rel) or "").startswith("debt")]
    kept = [rel for rel in places if allowed(rel) and rel not in debt and rel not in own]
    print(f"kind-names: {len(places) - len(own)} places outside a kind's room name it: {len(kept)} allowed for good "
          f"({', '.join(sorted(kept))}), {len(debt)} debt, {len(bad)} not allowed "
          f"(besides, {len(own)} files of a room whose own words look like another kind's)")
    return 1 if bad or stale else 0


def plant(root):
    """A copy of the sources with a name planted outside its room must go red, naming the file."""
    with tempfile.TemporaryDirectory() as tmp:
        for top in ("harness/src", "harness/tests/support", "harness/fuzz"):
            shutil.copytree(os.path.join(root, top), os.path.join(tmp, top))
        if check(tmp) != 0:
            print("plant: the unplanted copy is already red")
            return 1
        target = os.path.join(tmp, "harness", "src", "plan", "suite.hpp")
        with open(target, "a", encoding="utf-8") as f:
            f.write("\ninline constexpr int planted_ldmatrix_rows = 8;\n")
        if check(tmp) == 0:
            print("plant: a name of the matrix-move kind planted in plan/suite.hpp went unseen")
            return 1
        print("plant: the planted name turned the check red, as it must")
        return 0


def main():
    root = sys.argv[1]
    if "--plant" in sys.argv:
        return plant(root)
    return check(root, "--list" in sys.argv)


if __name__ == "__main__":
    sys.exit(main())
