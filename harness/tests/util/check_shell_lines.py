#!/usr/bin/env python3
"""No path is spliced into a shell line (issue 38): a `sh -c` line built by joining strings breaks
as soon as a path in it holds a space (a clone under "/home/a b/..."; "exec: /home/a: not found"),
a quote or a `$`. The C++ of harness/ hands a shell a constant line and its paths as arguments
($1, $2, ...: harness/tests/support/shell_line.hpp); this check fails naming file:line where a
shell's `-c` line, or the line given to shell_line()/unshared_shell_line(), is anything but string
literals or one constant (a name kSomething).

What it does not see: a shell script a test writes into a file with a path inside (those are
quoted, e.g. support/fake_ptxas.hpp), and shell lines of the Python and shell test scripts.

Usage: check_shell_lines.py SOURCE_DIR
"""
import pathlib
import re
import sys

SHELL_C = re.compile(r'"(?:/bin/|/usr/bin/)?(?:ba|da)?sh"\s*,\s*"-c"\s*,')
HELPER = re.compile(r'\b(?:unshared_)?shell_line\(')
LITERAL = re.compile(r'\s*(?:R"(?P<d>[^(]*)\(.*?\)(?P=d)"|"(?:[^"\\]|\\.)*")', re.S)
CONSTANT = re.compile(r'\s*(?:[A-Za-z_][A-Za-z0-9_]*::)*k[A-Z][A-Za-z0-9_]*')
END = re.compile(r'\s*[,)}]')


def constant_line(text, at):
    """Whether the argument starting at `at` is string literals only, or one kConstant."""
    pos, literals = at, 0
    while (m := LITERAL.match(text, pos)):
        pos, literals = m.end(), literals + 1
    if literals == 0 and (m := CONSTANT.match(text, pos)):
        pos = m.end()
    elif literals == 0:
        return False
    return bool(END.match(text, pos))


def check(path, root):
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.name == "shell_line.hpp":  # the helper's own definition
        return []
    bad = []
    for pattern in (SHELL_C, HELPER):
        for m in pattern.finditer(text):
            if pattern is HELPER and re.match(r"\s*(?:const\s+)?(?:char|std::)", text[m.end():]):
                continue  # a declaration, not a call
            if not constant_line(text, m.end()):
                line = text.count("\n", 0, m.start()) + 1
                shown = " ".join(text[m.start():m.end() + 80].split())
                bad.append(f"{path.relative_to(root)}:{line}: a shell line built from more than constants: {shown}...")
    return bad


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    files = sorted(p for sub in ("harness/src", "harness/tests", "harness/bench") for p in (root / sub).rglob("*")
                   if p.suffix in (".cpp", ".hpp"))
    bad = [b for f in files for b in check(f, root)]
    for b in bad:
        print(b)
    print(f"check_shell_lines: {len(files)} files, {len(bad)} shell lines with a path spliced in "
          "(give paths as arguments: harness/tests/support/shell_line.hpp)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
