#!/usr/bin/env python3
"""Words true (issue 39): every file a comment of harness/'s C++ names exists. A comment that points a
reader at a file that is gone (moved, renamed, never written) sends them looking for nothing; this
check fails naming file:line and the path where one does.

What it reads as a path, in the `//` and `/* */` comments of the C++ of harness/src, harness/tests,
harness/device, harness/bench and harness/fuzz (string literals are not comments):
- a path under the repository's own folders: `harness/...`, `kernels/...`, `specs/...`, `docs/...`;
- a path under a stage of harness/src, with or without its suffix: `run/case_stream`,
  `kinds/fragment/`, `spec/layout.cpp` (a file of that name with any suffix, or a folder);
- a bare file name of the kinds the house is made of: `name.cpp`, `.hpp`, `.h`, `.cc`, `.py`,
  `.cmake`, `.yaml`, `.ptx.in` (a file of that name somewhere in harness/, kernels/, specs/ or docs/).
A relative path is looked up from the repository root, from harness/src, harness/tests and harness/,
and from the commenting file's folder. `<...>` stands for any text, and so does a word in capitals
where the path is not there as spelled (`specs/NAME.yaml`); `{a,b}` for each of a and b. Names of
what the program writes (`OUT.json`, `manifest.json`, `reports/...`) and the reference text outside
the repository (`../shared`) are not read as paths.

Usage: check_comment_paths.py SOURCE_DIR
"""
import fnmatch
import pathlib
import re
import sys

STAGES = "util|spec|plan|emit|model|kinds|assemble|results|run|judge|report|commands|history"
EXT = r"(?:ptx\.in|cpp|hpp|h|cc|py|cmake|yaml)"
PATH = re.compile(
    r"(?<![\w./<>-])("
    r"(?:harness|kernels|specs|docs)/[\w./<>{},+-]*[\w/>}]"  # a path under the repository's folders
    r"|(?:" + STAGES + r")/[\w/]+(?:\." + EXT + r")?"         # a path under a stage of harness/src
    r"|[\w+-]+\." + EXT +                                      # a bare file name
    r")(?![\w])")
SEARCHED = ("harness", "kernels", "specs", "docs")  # where a bare name may live
SOURCE_SUFFIXES = {".cpp", ".hpp", ".h", ".cc", ".cu"}
CHECKED = ("harness/src", "harness/tests", "harness/device", "harness/bench", "harness/fuzz")


def comments(text):
    """(line, text) of each comment of C++ source `text`, string and character literals skipped."""
    out, i, line, n = [], 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append((line, text[i:end]))
            i = end
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            for k, part in enumerate(text[i:end].split("\n")):
                out.append((line + k, part))
            line += text.count("\n", i, end)
            i = end
            continue
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if m:
                close = text.find(")" + m.group(1) + '"', i + m.end())
                close = n if close < 0 else close + len(m.group(1)) + 2
                line += text.count("\n", i, close)
                i = close
                continue
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator: 1'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        i += 1
    return out


class Tree:
    """The repository's files, as the check looks them up."""

    def __init__(self, root):
        self.root = root
        self.files, self.dirs, self.names = set(), set(), set()
        for top in SEARCHED:
            for p in (root / top).rglob("*"):
                rel = p.relative_to(root).as_posix()
                if p.is_dir():
                    self.dirs.add(rel)
                else:
                    self.files.add(rel)
                    self.names.add(p.name)

    def has(self, rel):
        """Whether `rel` (a path from the root, `*` for any text) is a file, a file of that name with a
        suffix, or a folder."""
        if "*" not in rel:
            if rel in self.files or rel in self.dirs:
                return True
            return any(f.startswith(rel + ".") and "/" not in f[len(rel):] for f in self.files)
        return any(fnmatch.fnmatchcase(f, rel) or fnmatch.fnmatchcase(f, rel + ".*") for f in self.files)


def spellings(path):
    """Each path `{a,b}` stands for, `<...>` made `*`."""
    m = re.search(r"\{([^}]*)\}", path)
    if m:
        return [s for alt in m.group(1).split(",") for s in spellings(path[:m.start()] + alt + path[m.end():])]
    return [re.sub(r"<[^>]*>", "*", path).rstrip("/")]


def found(tree, p, source_dir):
    """Whether `p` is there, from one of the places a relative path is looked up from."""
    if "/" not in p and p in tree.names:
        return True
    bases = ["", "harness/src/", "harness/tests/", "harness/", source_dir + "/"]
    return any(tree.has(pathlib.PurePosixPath(b + p).as_posix()) for b in bases)


def exists(tree, path, source_dir):
    """Whether each path `path` stands for is there; a word in capitals (NAME) is any text where the
    path is not there as it is spelled (README.md is a file's name, NAME.yaml a placeholder)."""
    return all(found(tree, p, source_dir) or found(tree, re.sub(r"\b[A-Z][A-Z0-9_]*\b", "*", p), source_dir)
               for p in spellings(path))


def check(root, tree, path):
    rel_dir = path.parent.relative_to(root).as_posix()
    out = []
    for line, comment in comments(path.read_text(encoding="utf-8", errors="replace")):
        for m in PATH.finditer(comment):
            if not exists(tree, m.group(1), rel_dir):
                out.append(f"{path.relative_to(root).as_posix()}:{line}: the comment names {m.group(1)}, "
                           f"which is not in the repository")
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1]).resolve()
    sources = sorted(p for d in CHECKED for p in (root / d).rglob("*") if p.suffix in SOURCE_SUFFIXES and p.is_file())
    if not sources:
        print(f"check_comment_paths: no source files under {root / 'harness'}", file=sys.stderr)
        return 1
    tree = Tree(root)
    problems = [p for path in sources for p in check(root, tree, path)]
    if problems:
        print(f"check_comment_paths: {len(problems)} comment(s) name a file that is not there (fix the path, or "
              f"the words):", file=sys.stderr)
        for p in problems:
            print(f"  {p}", file=sys.stderr)
        return 1
    print(f"check_comment_paths: every path named in the comments of {len(sources)} C++ files of harness/ exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
