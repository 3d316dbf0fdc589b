#!/usr/bin/env python3
"""No two source files of a folder of harness/src that CI compiles as one unit (PTXCTS_UNITY_FOLDERS,
harness/CMakeLists.txt) define the same name at namespace scope where either one's is file-local (in
an anonymous namespace, or static): in one unit two such helpers would be one redefinition or, worse,
a call in the later file could pick the earlier file's overload and behave otherwise than in a build
of single files. Files compiled alone (PTXCTS_COMPILED_ALONE) are left out; two `using` aliases of the
same type are one.

The sources are clang-formatted: a namespace's members start at column 0. A definition is a line at
namespace scope that starts with a name: the name of a struct, class, enum or union, of a `using`
alias, or the last unqualified name before its first '(', '=', '{', '[' or ';'.

The same holds for the test folders CI compiles as one unit (PTXCTS_TEST_UNITY_FOLDERS,
harness/tests/CMakeLists.txt): with --under harness/tests, their test_*.cpp files.

usage: check_unity_names.py SOURCE_DIR [--under harness/tests] --folders FOLDER... [--alone FILE...]
       (folders and files relative to harness/src, or to the --under folder)"""
import collections, os, re, sys

TYPE = re.compile(r"^(?:template\s*<.*>\s*)?(?:struct|class|union|enum(?:\s+class)?)\s+([A-Za-z_]\w*)")
ALIAS = re.compile(r"^using\s+([A-Za-z_]\w*)\s*=(.*)")
SKIP = re.compile(r"^(?:namespace\b|using\s+namespace\b|template\b|#|extern\s+\"C\"|\}|static_assert\b|friend\b)")


def code_lines(text):
    """The text without comments, string and character literals (each replaced by a space), by line."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            out.append("\n" * text.count("\n", i, n if j < 0 else j))
            i = n if j < 0 else j + 2
        elif c == 'R' and text.startswith('R"', i):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            if end < 0:
                out.append(c)
                i += 1
            else:
                out.append(" " + "\n" * text.count("\n", i, end))
                i = end + len(m.group(1)) + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" ")
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out).split("\n")


def definitions(path):
    """(name, file_local, line, alias) for each definition at namespace scope; alias: what a `using`
    alias names, else None."""
    found, scopes, pending = [], [], None  # scopes: one entry per open brace: "anon", "named" or "block"
    for number, line in enumerate(code_lines(open(path, encoding="utf-8").read()), 1):
        at_namespace_scope = all(s != "block" for s in scopes)
        stripped = line.strip()
        if at_namespace_scope and line[:1].strip() and not SKIP.match(line):
            local = "anon" in scopes or line.startswith("static ")
            alias = ALIAS.match(line)
            m = TYPE.match(line) or alias
            name = m.group(1) if m else None
            if not m:
                head = re.split(r"[(={\[;]", line, 1)[0]
                words = re.findall(r"(::)?\s*(~?[A-Za-z_]\w*)\s*(?:<[^<>]*>)?\s*$", head)
                if words and not words[0][0] and "operator" not in head:
                    name = words[0][1]
            if name and not re.fullmatch(r"[A-Z][A-Z0-9_]*", name):  # not a macro's use (TEST, ...)
                found.append((name, local, number, alias.group(2).strip() if alias else None))
        for c in line:  # the braces this line opens and closes
            if c == "{":
                if pending is None and re.match(r"^\s*namespace\s*\{", stripped):
                    scopes.append("anon")
                elif re.match(r"^\s*(?:inline\s+)?namespace\s+[\w:]+\s*\{", stripped) or pending:
                    scopes.append("named")
                else:
                    scopes.append("block")
                pending = None
            elif c == "}" and scopes:
                scopes.pop()
        if re.match(r"^\s*(?:inline\s+)?namespace\s+[\w:]+\s*$", stripped):
            pending = "named"  # its brace on the next line
    return found


def main():
    args = sys.argv[1:]
    under = os.path.join("harness", "src")
    if len(args) > 2 and args[1] == "--under":
        under = args[2]
        args = args[:1] + args[3:]
    if len(args) < 3 or args[1] != "--folders":
        print(__doc__.rsplit("usage: ", 1)[1], file=sys.stderr)
        return 2
    tests = os.path.normpath(under) == os.path.join("harness", "tests")
    src = os.path.join(args[0], under)
    rest = args[2:]
    cut = rest.index("--alone") if "--alone" in rest else len(rest)
    folders, alone = set(rest[:cut]), {os.path.normpath(p) for p in rest[cut + 1:]}
    by_folder = collections.defaultdict(list)
    for folder, _, files in os.walk(src):
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(folder, f), src)
            wanted = f.startswith("test_") if tests else True  # a test folder's unit: its test_*.cpp
            if f.endswith(".cpp") and wanted and os.path.dirname(rel) in folders and rel not in alone:
                by_folder[os.path.dirname(rel)].append(rel)
    problems = []
    for folder, files in sorted(by_folder.items()):
        where = collections.defaultdict(list)  # name -> [(file, line, file_local, alias)]
        for rel in files:
            for name, local, line, alias in definitions(os.path.join(src, rel)):
                where[name].append((rel, line, local, alias))
        for name, places in sorted(where.items()):
            one_alias = all(p[3] is not None for p in places) and len({p[3] for p in places}) == 1
            if len({p[0] for p in places}) > 1 and any(p[2] for p in places) and not one_alias:
                problems.append(f"{under}/{folder}: '{name}' is defined in " +
                                ", ".join(f"{f}:{n}{' (file-local)' if local else ''}" for f, n, local, _ in places))
    for p in problems:
        print(p)
    files = sum(map(len, by_folder.values()))
    if problems:
        print(f"{len(problems)} names defined in two files of a folder compiled as one unit, one of them file-local: "
              "rename one, or compile its file alone (PTXCTS_COMPILED_ALONE, harness/CMakeLists.txt)")
    else:
        print(f"no file-local name defined twice in a folder compiled as one unit ({files} files in {len(by_folder)} folders)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
