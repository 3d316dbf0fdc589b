#!/usr/bin/env python3
"""The small suite: the ldmatrix and movmatrix families of the specs alone (671 cases, 4 of them the
matrix_move block's undefined lanes cases; about 200 launched on the fake sm_90), for the tests whose claim needs a whole suite but not every family: the
chaos soak (chaos/chaos_soak.py) runs it, and the toolkit matrix (cli/toolkits_matrix.sh) audits it
with each toolkit (1,871 probes with CUDA 11.8's ptxas, 2 CPU-s cold, where the whole specs' are
128 CPU-s).

    small_specs.py SOURCE_DIR OUT   writes the small suite's specs into OUT (a new folder)
"""
import pathlib
import shutil
import sys


def small_specs(source, out):
    """The ldmatrix and movmatrix families alone, from `source`'s specs/ into `out` (made here)."""
    source, out = pathlib.Path(source), pathlib.Path(out)
    out.mkdir(parents=True)
    for name in ("diagnostics.yaml", "documents.yaml", "targets.yaml", "ldmatrix.yaml", "movmatrix.yaml"):
        shutil.copy(source / "specs" / name, out / name)
    shutil.copytree(source / "specs" / "expectations", out / "expectations")
    text = (source / "specs" / "cases.yaml").read_text()
    # Without wmma and mma: their cases and the mutant exemption that names their variants.
    cut = [text.find("  may_pass:"), text.find("\ncases:"), text.find("\nwmma:")]
    if min(cut) < 0:
        raise SystemExit("small_specs: specs/cases.yaml has changed shape (may_pass:, cases:, wmma:); update small_specs")
    # The matrix_move block (at the end) with the cases of those two families alone: their claims
    # name them.
    block = text.find("\nmatrix_move:\n")
    if block < 0:
        raise SystemExit("small_specs: specs/cases.yaml has changed shape (matrix_move:); update small_specs")
    head, *cases = text[block:].split("\n    - name: ")
    kept = [c for c in cases if "      variant: stmatrix." not in c]
    (out / "cases.yaml").write_text(text[:cut[0]] + text[cut[1]:cut[2]] + "\n" + "\n    - name: ".join([head, *kept]))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: small_specs.py SOURCE_DIR OUT")
    small_specs(sys.argv[1], sys.argv[2])
