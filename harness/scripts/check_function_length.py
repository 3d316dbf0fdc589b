#!/usr/bin/env python3
"""The house: functions that do one job. No function of harness/src/ is over 60 lines, and none of
harness/src/commands/ or harness/src/main.cpp (the command line, which only wires the stages
together) over 50, as lizard measures a function: from its first line to its last. The functions
still over are named below (EXCEPTIONS), each with its length today and why it is still long; the
list only shrinks: a listed function that grew, that is now within the limit or that is gone, fails
the check until its line is changed or removed, and so does a new function over the limit. A listed
function whose file moved to another folder is still found by the file's name.

Usage: check_function_length.py REPO_ROOT. Exit 0 when every function is within its limit or listed
at its length; 1 naming each one that is not (file:line, its name, its length, the limit), each stale
line of the list, or when lizard is missing.
CTest house.function-length runs it; harness/scripts/bootstrap.sh --tests installs lizard.
"""
import sys
from pathlib import Path

LIZARD_VERSION = "1.24.3"  # bootstrap.sh --tests installs this one
LIMIT = 60
COMMAND_LIMIT = 50  # harness/src/commands/ and harness/src/main.cpp: the longest there is 50 (run_suite)
SOURCE_SUFFIXES = {".cpp", ".hpp", ".h", ".cc"}

# The functions still over the limit: (file, function as lizard names it) -> (its length today, why it
# is still long). Longest first; each line goes when its function is split. Issue 39 set the limit at
# 60 with 37 over it; none is left (the last four: the figures' draw_spec_layout and layouts_section,
# split when the figures moved behind the seam; read_fragment_layout when the kinds' blocks left
# spec/; compute_layout, split into the layout's shape, its row addresses and its positions).
EXCEPTIONS = {
}

try:
    import lizard
except ImportError:
    # Missing is a failure, not a skip: a house rule that is not checked is not kept.
    print(f"check_function_length: the Python module lizard is not installed for {sys.executable}; "
          f"run harness/scripts/bootstrap.sh --tests (it installs lizard=={LIZARD_VERSION})", file=sys.stderr)
    sys.exit(1)


def limit_of(rel: Path) -> int:
    """The longest a function of this file (relative to the repository root) may be."""
    if rel.parts[:3] == ("harness", "src", "commands") or rel == Path("harness/src/main.cpp"):
        return COMMAND_LIMIT
    return LIMIT


def measure(root: Path, files: list) -> dict:
    """(file, function) -> (first line, length) of every function, the longest where a name repeats."""
    found = {}
    for path in files:
        rel = path.relative_to(root).as_posix()
        for f in lizard.analyze_file(str(path)).function_list:
            key = (rel, f.name)
            if key not in found or f.length > found[key][1]:
                found[key] = (f.start_line, f.length)
    return found


def exception_of(rel: str, name: str):
    """The listed exception for this function: by its file's path, or by its file's name where the file
    moved to another folder since it was listed (report/ into its wings); None where it has none."""
    if (rel, name) in EXCEPTIONS:
        return (rel, name)
    moved = [k for k in EXCEPTIONS if k[1] == name and Path(k[0]).name == Path(rel).name]
    return moved[0] if len(moved) == 1 else None


def problems_of(found: dict) -> list:
    """Each function over its limit and not listed at its length, and each stale line of the list."""
    out, matched = [], {}
    for (rel, name), (line, length) in sorted(found.items()):
        key = exception_of(rel, name)
        if key is not None:
            matched[key] = (rel, line, length)
        limit = limit_of(Path(rel))
        if length <= limit:
            continue
        if key is None:
            out.append(f"{rel}:{line}: {name} is {length} lines; at most {limit} (split it by the questions it "
                       f"answers into named helpers)")
        elif length > EXCEPTIONS[key][0]:
            out.append(f"{rel}:{line}: {name} is {length} lines, longer than the {EXCEPTIONS[key][0]} its exception "
                       f"allows; at most {limit} (split it, don't raise the exception)")
        elif length < EXCEPTIONS[key][0]:
            out.append(f"{rel}:{line}: {name} is {length} lines now; lower its exception in "
                       f"check_function_length.py from {EXCEPTIONS[key][0]} to {length}")
    for (rel, name), (length, _) in EXCEPTIONS.items():
        if (rel, name) not in matched:
            out.append(f"{rel}: {name} (listed at {length} lines) is gone; remove its exception from "
                       f"check_function_length.py")
        elif matched[(rel, name)][2] <= limit_of(Path(matched[(rel, name)][0])):
            now, line, length_now = matched[(rel, name)]
            out.append(f"{now}:{line}: {name} is {length_now} lines, within the limit; remove its exception from "
                       f"check_function_length.py")
    return out


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = Path(sys.argv[1]).resolve()
    src = root / "harness" / "src"
    files = sorted(p for p in src.rglob("*") if p.suffix in SOURCE_SUFFIXES and p.is_file())
    if not files:
        print(f"check_function_length: no source files under {src}", file=sys.stderr)
        return 1
    found = measure(root, files)
    problems = problems_of(found)
    if not problems:
        print(f"check_function_length: {len(found)} functions in {len(files)} files, none over {LIMIT} lines "
              f"({COMMAND_LIMIT} in harness/src/commands/ and main.cpp) but the {len(EXCEPTIONS)} listed, each at "
              f"its length")
        return 0
    print(f"check_function_length: {len(problems)} problem(s):", file=sys.stderr)
    for p in problems:
        print(f"  {p}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
