#!/usr/bin/env python3
"""The house: functions that do one job. No function of harness/src/ is over 100 lines, and none
of harness/src/commands/ or harness/src/main.cpp (the command line, which only wires the stages
together) over 80, as lizard measures a function: from its first line to its last.

Usage: check_function_length.py REPO_ROOT. Exit 0 when every function is within its limit; 1
naming each one over it (file:line, its name, its length, the limit), or when lizard is missing.
CTest house.function-length runs it; harness/scripts/bootstrap.sh --tests installs lizard.
"""
import sys
from pathlib import Path

LIZARD_VERSION = "1.24.3"  # bootstrap.sh --tests installs this one
LIMIT = 100
COMMAND_LIMIT = 80  # harness/src/commands/ and harness/src/main.cpp
SOURCE_SUFFIXES = {".cpp", ".hpp", ".h", ".cc"}

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
    over, functions = [], 0
    for path in files:
        rel = path.relative_to(root)
        limit = limit_of(rel)
        for f in lizard.analyze_file(str(path)).function_list:
            functions += 1
            if f.length > limit:
                over.append((rel, f.start_line, f.name, f.length, limit))
    if not over:
        print(f"check_function_length: {functions} functions in {len(files)} files, none over {LIMIT} lines "
              f"({COMMAND_LIMIT} in harness/src/commands/ and main.cpp)")
        return 0
    print(f"check_function_length: {len(over)} function(s) too long (split each by the questions it answers "
          f"into named helpers):", file=sys.stderr)
    for rel, line, name, length, limit in sorted(over, key=lambda o: (str(o[0]), o[1])):
        print(f"  {rel}:{line}: {name} is {length} lines; at most {limit}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
