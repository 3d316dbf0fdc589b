#!/usr/bin/env python3
"""The tests clean up after themselves (issue 30): every test of harness/tests runs with $TMPDIR set to
the build's test-tmp/ folder, and this check, CTest's cleanup fixture run after them, fails naming
whatever they left there (and its size), then removes it, so that the next run starts clean.

What a test still running may own is left alone: an entry whose name carries the pid of a live ptxcts
or test process (TempDir's "ptxcts-NAME-PID-N"), or a ptxcts scratch folder whose `owner` file names
a live process (two ctest runs in one build tree at once share the folder).

Usage: check_tmpdir_left_clean.py TMPDIR
"""
import os
import re
import shutil
import sys


def live_ptxcts(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"ptxcts" in f.read()
    except OSError:
        return False


def in_use(path):
    name = os.path.basename(path)
    if any(live_ptxcts(int(n)) for n in re.findall(r"\d+", name) if int(n) != os.getpid()):
        return True
    try:
        with open(os.path.join(path, "owner")) as f:
            m = re.search(r"^pid (\d+)$", f.read(), re.M)
        return bool(m) and live_ptxcts(int(m.group(1)))
    except OSError:
        return False


def size_of(path):
    if not os.path.isdir(path) or os.path.islink(path):
        return os.lstat(path).st_size
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.lstat(os.path.join(root, f)).st_size
            except OSError:
                pass
    return total


def in_words(n):
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n} bytes" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024


def main():
    tmp = sys.argv[1]
    os.makedirs(tmp, exist_ok=True)
    left = []
    for name in sorted(os.listdir(tmp)):
        path = os.path.join(tmp, name)
        if in_use(path):
            continue
        left.append(f"{name} ({in_words(size_of(path))})")
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            os.remove(path)
    if left:
        print(f"check_tmpdir_left_clean: the tests left {len(left)} entries in {tmp} (removed now): " + ", ".join(left))
        return 1
    print(f"check_tmpdir_left_clean: {tmp} is empty")
    return 0


if __name__ == "__main__":
    sys.exit(main())
