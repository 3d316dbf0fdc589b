#!/usr/bin/env python3
"""Every source file of harness/src is named in its folder's README.md (a folder without one, such as
kinds/matrix_move, is described by its parent's), so that the READMEs stay a true map of the house.
A file is named when its stem (catalog_manifest for catalog_manifest.cpp) appears in the README.
harness/src/README.md links every stage's folder to its README, in the order of the stages
(harness/scripts/check_layers.cmake), and names main.cpp.

usage: check_folder_readmes.py SOURCE_DIR"""
import os, re, sys


def stage_map(root, src):
    """What is wrong with harness/src/README.md: a stage not linked, or out of the stages' order."""
    layers = open(os.path.join(root, "harness", "scripts", "check_layers.cmake"), encoding="utf-8").read()
    stages = re.search(r"^set\(STAGES ([a-z_ ]+)\)", layers, re.M).group(1).split()
    folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    if sorted(stages) != folders:
        return [f"harness/src: folders {folders} are not the stages of check_layers.cmake {stages}"]
    text = open(os.path.join(src, "README.md"), encoding="utf-8").read()
    problems, last = [], -1
    for stage in stages:
        at = text.find(f"]({stage}/README.md)")
        if at < 0:
            problems.append(f"harness/src/README.md: no link to {stage}/README.md")
        elif at < last:
            problems.append(f"harness/src/README.md: {stage}/ is linked out of the stages' order {stages}")
        last = max(last, at)
    if "main.cpp" not in text:
        problems.append("harness/src/README.md: main.cpp not named")
    return problems


def main():
    src = os.path.join(sys.argv[1], "harness", "src")
    missing = stage_map(sys.argv[1], src)
    for folder, _, files in sorted(os.walk(src)):
        if folder == src:
            continue  # main.cpp alone: the command line, above the stages (stage_map: the README)
        readme = os.path.join(folder, "README.md")
        if not os.path.exists(readme):
            readme = os.path.join(os.path.dirname(folder), "README.md")
        text = open(readme, encoding="utf-8").read()
        for stem in sorted({os.path.splitext(f)[0] for f in files if f.endswith((".cpp", ".hpp"))}):
            if not re.search(r"(?<![A-Za-z0-9_])" + re.escape(stem) + r"(?![A-Za-z0-9_])", text):
                missing.append(f"{os.path.relpath(os.path.join(folder, stem), sys.argv[1])}.{{cpp,hpp}}: "
                               f"not named in {os.path.relpath(readme, sys.argv[1])}")
        for f in files:
            if not f.endswith((".cpp", ".hpp", ".md")):
                missing.append(f"{os.path.relpath(os.path.join(folder, f), sys.argv[1])}: not a source file "
                               f"(a leftover?)")
    for m in missing:
        print(m)
    print(f"folder READMEs: {len(missing)} problems")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
