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

A test kind (a folder harness/tests/kinds/<kind>/ that holds a *_kind.cpp: a kind the tests' programs
add to the kind list, CTest kinds.test-kind.<kind>) has that folder for its room and its folder's name
for its word. --test-kinds checks that it touches nothing else: no file of the tree (git's tracked and
new files, every kind of text, comments and documents included) outside its room names it. Beside it,
for comparison, it counts the files outside each product kind's two rooms (harness/src/kinds/<kind>/,
harness/tests/kinds/<kind>/) that name that kind, the same way (information, not checked).

usage: check_kind_names.py SOURCE_DIR                       check; exit 1 naming each file:line not allowed
       check_kind_names.py SOURCE_DIR --list                every place and what it names, allowed or not
       check_kind_names.py SOURCE_DIR --plant               self-test: a planted name must turn the check red
       check_kind_names.py SOURCE_DIR --test-kinds          no file outside a test kind's room names it
       check_kind_names.py SOURCE_DIR --test-kinds --plant  self-test: a name planted in docs/ turns it red"""
import os, re, shutil, subprocess, sys, tempfile

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
    # Usage messages that show a kernel glob by example.
    "harness/src/judge/expectations.cpp": "an example kernel glob in an expectation file's message (wmma.load.*/fault-*)",
    "harness/src/commands/case_arguments.cpp": "an example kernel glob in --cases' usage message ('ldmatrix.*x4*/unique-*')",
}

# The test kinds' rooms (test_kinds(), set by main): kind -> harness/tests/kinds/<kind>/.
TEST_ROOMS = {}

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
            print(f"{rel}:{no}: names the {kind} kind ({token}) outside "
                  f"{TEST_ROOMS.get(kind, f'harness/src/kinds/{kind}/')}")
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


def test_kinds(root):
    """{kind: room} of the test kinds: harness/tests/kinds/<kind>/ holding a *_kind.cpp."""
    top = os.path.join(root, "harness", "tests", "kinds")
    return {k: f"harness/tests/kinds/{k}/" for k in sorted(os.listdir(top) if os.path.isdir(top) else [])
            if os.path.isdir(os.path.join(top, k)) and any(f.endswith("_kind.cpp") for f in os.listdir(os.path.join(top, k)))}


def tree_files(root):
    """The tree's files, relative: git's tracked and new ones (not ignored), or every file outside
    .git and build folders where the tree is no git checkout."""
    try:
        top = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"], capture_output=True, check=True)
        if os.path.realpath(top.stdout.decode().strip()) != os.path.realpath(root):
            raise OSError("a folder inside a checkout, not its top: walked")
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             capture_output=True, check=True).stdout.decode()
        return sorted(f for f in set(out.split("\0")) if f and os.path.isfile(os.path.join(root, f)))
    except (OSError, subprocess.CalledProcessError):
        found = []
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d != ".git" and not d.startswith("build")]
            found += [os.path.relpath(os.path.join(folder, f), root) for f in files]
        return sorted(found)


def names_any(path, words):
    """Whether a text file has a token whose parts include one of `words` (stops at the first)."""
    return next(iter(naming_lines(path, words)), None) is not None


def naming_lines(path, words):
    """The lines (number, token), lazily, of a text file with a token whose parts include one of `words`."""
    try:
        text = open(path, encoding="utf-8").read()
    except (UnicodeDecodeError, OSError):
        return iter(())  # not text: a picture, a compressed report
    if not any(w in text.lower() for w in words):  # the quick answer for most files
        return iter(())
    return ((no, t) for no, line in enumerate(text.split("\n"), 1) if any(w in line.lower() for w in words)
            for t in TOKEN.findall(line) if set(parts(t)) & words)


def check_test_kinds(root):
    """No file outside a test kind's room names it; each product kind's count beside, for comparison."""
    kinds, files, bad = test_kinds(root), tree_files(root), 0
    if not kinds:
        print("test-kind-alone: no test kind (a harness/tests/kinds/<kind>/ with a *_kind.cpp)")
        return 1
    for kind, own in kinds.items():
        inside = [f for f in files if f.startswith(own)]
        outside = [(f, n) for f in files if not f.startswith(own) for n in naming_lines(os.path.join(root, f), {kind})]
        for f, (no, token) in outside[:20]:
            print(f"{f}:{no}: names the test kind {kind} ({token}) outside its room {own}")
        bad += len(outside)
        print(f"test-kind-alone: the test kind {kind}: {len(inside)} files in its room {own}, "
              f"{len({f for f, _ in outside})} files outside it name it")
    for kind, words in WORDS.items():
        if kind in kinds:
            continue
        rooms = (f"harness/src/kinds/{kind}/", f"harness/tests/kinds/{kind}/")
        naming = [f for f in files if not f.startswith(rooms) and names_any(os.path.join(root, f), words)]
        evidence = [f for f in naming if f.startswith("reports/")]
        print(f"test-kind-alone: for comparison, the product kind {kind}: {len(naming)} files outside its rooms name "
              f"it ({len(evidence)} of them reports/, the runs' evidence)")
    return 1 if bad else 0


def plant_test_kind(root):
    """A copy of the test kinds' rooms and docs/architecture.md, green; with a test kind's name
    planted in the document, red."""
    kinds = test_kinds(root)
    if not kinds:
        print("plant: no test kind to plant")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(os.path.join(root, "harness", "tests", "kinds"), os.path.join(tmp, "harness", "tests", "kinds"))
        os.makedirs(os.path.join(tmp, "docs"))
        shutil.copy(os.path.join(root, "docs", "architecture.md"), os.path.join(tmp, "docs", "architecture.md"))
        if check_test_kinds(tmp) != 0:
            print("plant: the unplanted copy is already red")
            return 1
        with open(os.path.join(tmp, "docs", "architecture.md"), "a", encoding="utf-8") as f:
            f.write(f"\nThe {next(iter(kinds))} kind shows what adding a kind costs.\n")
        if check_test_kinds(tmp) == 0:
            print("plant: a test kind's name planted in docs/architecture.md went unseen")
            return 1
        print("plant: the planted name turned the check red, as it must")
        return 0


def main():
    root = sys.argv[1]
    TEST_ROOMS.update(test_kinds(root))
    WORDS.update({k: {k} for k in TEST_ROOMS})  # a test kind's word: its room's name
    if "--test-kinds" in sys.argv:
        return plant_test_kind(root) if "--plant" in sys.argv else check_test_kinds(root)
    if "--plant" in sys.argv:
        return plant(root)
    return check(root, "--list" in sys.argv)


if __name__ == "__main__":
    sys.exit(main())
