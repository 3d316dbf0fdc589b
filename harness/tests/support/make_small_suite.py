#!/usr/bin/env python3
"""The small suite (small_specs.py: ldmatrix and movmatrix) with its own sm_90 catalog, made by the
build (harness/tests/CMakeLists.txt) for the tests whose claim is about how a run goes (streaming,
resuming, several GPUs, the console), not about every family: a run of it on the fake device takes
about 1.5 CPU-s, the whole suite's about 10. Nothing else writes OUT (chaos.soak writes its own small
suite again, under chaos-suite/).

    make_small_suite.py PTXCTS SOURCE_DIR OUT   OUT/specs (written again) and OUT/catalog (brought up to date)"""
import pathlib
import shutil
import subprocess
import sys

from small_specs import small_specs


def main(ptxcts, source, out):
    out = pathlib.Path(out)
    shutil.rmtree(out / "specs", ignore_errors=True)
    small_specs(source, out / "specs")
    made = subprocess.run([ptxcts, "--specs", str(out / "specs"), "catalog", "--out", str(out / "catalog"),
                           "--targets", "sm_90", "--no-sass"], capture_output=True, text=True)
    if made.returncode != 0:
        print(f"make_small_suite: cannot build the small suite's catalog: {made.stdout[-1000:]}{made.stderr[-1000:]}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: make_small_suite.py PTXCTS SOURCE_DIR OUT")
    sys.exit(main(*sys.argv[1:]))
