#!/usr/bin/env python3
"""The sentence inventory: every sentence of the reference text's ldmatrix, stmatrix, movmatrix, wmma.load,
wmma.store, mma and mma.sp sections and of the mma fragment sections' prose, each mapped to what judges it or
marked with why nothing does (specs/sentences.yaml), and the prose it is cut from
(harness/tests/data/sentences/prose.txt), so that harness/tests/spec/test_sentences.cpp checks, on a fresh
clone, that every sentence is the text's own and that no sentence of a section is left out.

    python3 harness/scripts/sentence_inventory.py           # writes both; keeps what specs/sentences.yaml says
    python3 harness/scripts/sentence_inventory.py --check   # exit 1 where the files are not what it would write

A sentence already in specs/sentences.yaml keeps its entry (its mapping or reason, edited by hand); a new one is
mapped to the specs' quotes that hold it (rules, register claims, claims), or marked `not_yet` (the honest gap).
Prose is what is not a heading, a code block, a table row, a figure or its caption (those are judged as syntax
blocks, examples, formula blocks and rules of their own); the test's reading of it is the same as `prose` below.
"""
import os
import re
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from quoted_excerpts import norm  # noqa: E402  (the same normalization as the quotes' test)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("PTXCTS_SHARED", os.path.join(os.path.dirname(ROOT), "shared"))
INVENTORY = os.path.join(ROOT, "specs", "sentences.yaml")
PROSE = os.path.join(ROOT, "harness/tests/data/sentences/prose.txt")
FRAG = "reference/ptx-isa/mma-fragments/"

# (section number, how the specs cite it, file under ../shared, part): part "all", or "intro" (a parent
# file's own lines before its first subsection), or "seed" (a plain-text copy: its Description on).
SECTIONS = [
    ("9.7.14.4.3", "9.7.14.4.3 wmma.load", "reference/ptx-isa/wmma.md", "all"),
    ("9.7.14.4.4", "9.7.14.4.4 wmma.store", "seeds/001_4bb83a8ae49b2431.txt", "seed"),
    ("9.7.14.5", "9.7.14.5 Matrix multiply-accumulate operation using mma instruction",
     FRAG + "9-7-14-5-matrix-multiply-accumulate-operation-using-mma-instruction.md", "intro"),
]
_FRAGMENT_FILES = [
    ("9.7.14.5.1", "Matrix Fragments for mma.m8n8k4 with .f16 floating point type",
     "9-7-14-5-1-matrix-fragments-for-mma-m8n8k4-with-f16-floating-point-type.md"),
    ("9.7.14.5.2", "Matrix Fragments for mma.m8n8k4 with .f64 floating point type",
     "9-7-14-5-2-matrix-fragments-for-mma-m8n8k4-with-f64-floating-point-type.md"),
    ("9.7.14.5.3", "Matrix Fragments for mma.m8n8k16", "9-7-14-5-3-matrix-fragments-for-mma-m8n8k16.md"),
    ("9.7.14.5.4", "Matrix Fragments for mma.m8n8k32", "9-7-14-5-4-matrix-fragments-for-mma-m8n8k32.md"),
    ("9.7.14.5.5", "Matrix Fragments for mma.m8n8k128", "9-7-14-5-5-matrix-fragments-for-mma-m8n8k128.md"),
    ("9.7.14.5.6", "Matrix Fragments for mma.m16n8k4", "9-7-14-5-6-matrix-fragments-for-mma-m16n8k4.md"),
    ("9.7.14.5.7", "Matrix Fragments for mma.m16n8k8", "9-7-14-5-7-matrix-fragments-for-mma-m16n8k8.md"),
    ("9.7.14.5.8", "Matrix Fragments for mma.m16n8k16 with floating point type",
     "9-7-14-5-8-matrix-fragments-for-mma-m16n8k16-with-floating-point-type.md"),
    ("9.7.14.5.9", "Matrix Fragments for mma.m16n8k16 with integer type",
     "9-7-14-5-9-matrix-fragments-for-mma-m16n8k16-with-integer-type.md"),
    ("9.7.14.5.10", "Matrix Fragments for mma.m16n8k32", "9-7-14-5-10-matrix-fragments-for-mma-m16n8k32.md"),
    ("9.7.14.5.11", "Matrix Fragments for mma.m16n8k64", "9-7-14-5-11-matrix-fragments-for-mma-m16n8k64.md"),
    ("9.7.14.5.12", "Matrix Fragments for mma.m16n8k128", "9-7-14-5-12-matrix-fragments-for-mma-m16n8k128.md"),
    ("9.7.14.5.13", "Matrix Fragments for mma.m16n8k256", "9-7-14-5-13-matrix-fragments-for-mma-m16n8k256.md"),
    ("9.7.14.5.14", "mma", "9-7-14-5-14-multiply-and-accumulate-instruction-mma.md"),
    ("9.7.14.5.15", "ldmatrix", "9-7-14-5-15-warp-level-matrix-load-instruction-ldmatrix.md"),
    ("9.7.14.5.16", "stmatrix", "9-7-14-5-16-warp-level-matrix-store-instruction-stmatrix.md"),
    ("9.7.14.5.17", "movmatrix", "9-7-14-5-17-warp-level-matrix-transpose-instruction-movmatrix.md"),
]
SECTIONS += [(n, f"{n} {t}", FRAG + f, "all") for n, t, f in _FRAGMENT_FILES]
SECTIONS.append(("9.7.14.6.2", "9.7.14.6.2 Matrix fragments for multiply-accumulate operation with sparse matrix A",
                 FRAG + "9-7-14-6-2-matrix-fragments-for-multiply-accumulate-operation-with-sparse-matrix-a.md",
                 "intro"))
_SPARSE = [
    ("1", "Matrix Fragments for sparse mma.m16n8k16 with .f16 and .bf16 types",
     "matrix-fragments-for-sparse-mma-m16n8k16-with-f16-and-bf16-types"),
    ("2", "Matrix Fragments for sparse mma.m16n8k32 with .f16 and .bf16 types",
     "matrix-fragments-for-sparse-mma-m16n8k32-with-f16-and-bf16-types"),
    ("3", "Matrix Fragments for sparse mma.m16n8k16 with .tf32 floating point type",
     "matrix-fragments-for-sparse-mma-m16n8k16-with-tf32-floating-point-type"),
    ("4", "Matrix Fragments for sparse mma.m16n8k8 with .tf32 floating point type",
     "matrix-fragments-for-sparse-mma-m16n8k8-with-tf32-floating-point-type"),
    ("5", "Matrix Fragments for sparse mma.m16n8k32 with .u8 / .s8 integer type",
     "matrix-fragments-for-sparse-mma-m16n8k32-with-u8-s8-integer-type"),
    ("6", "Matrix Fragments for sparse mma.m16n8k64 with .u8 / .s8 / .e4m3 / .e5m2 type",
     "matrix-fragments-for-sparse-mma-m16n8k64-with-u8-s8-e4m3-e5m2-type"),
    ("7", "Matrix Fragments for sparse mma.m16n8k64 with .u4 / .s4 integer type",
     "matrix-fragments-for-sparse-mma-m16n8k64-with-u4-s4-integer-type"),
    ("8", "Matrix Fragments for sparse mma.m16n8k128 with .u4 / .s4 integer type",
     "matrix-fragments-for-sparse-mma-m16n8k128-with-u4-s4-integer-type"),
]
SECTIONS += [(f"9.7.14.6.2.{n}", f"9.7.14.6.2.{n} {t}", FRAG + f"9-7-14-6-2-{n}-{f}.md", "all") for n, t, f in _SPARSE]
SECTIONS.append(("9.7.14.6.3", "9.7.14.6.3 mma.sp / mma.sp::ordered_metadata",
                 FRAG + "9-7-14-6-3-multiply-and-accumulate-instruction-mma-sp-mma-sp-ordered-metadata.md", "all"))


def prose(text, part):
    """The section's prose paragraphs, each normalized (the test's `prose_paragraphs` reads the same)."""
    lines = text.splitlines()
    if part == "seed":
        start = next(i for i, l in enumerate(lines) if l.endswith("Description"))
        end = next(i for i, l in enumerate(lines) if l == "Examples")
        return [norm(l) for l in lines[start + 1:end] if norm(l)]
    if part == "intro":
        first = next(i for i, l in enumerate(lines) if i > 0 and l.startswith("#"))
        lines = lines[:first]
    out, para, fenced = [], [], False
    for line in lines + [""]:
        s = re.sub(r"^(>\s*)+", "", line.strip())
        if s.startswith("```"):
            fenced = not fenced
            s = ""
        bullet = re.match(r"^[*+-] ", s)
        skip = fenced or s.startswith("#") or s.startswith("|") or s.startswith("![") or s.startswith("Figure ")
        if not s or skip or bullet:
            if para:
                out.append(norm(" ".join(para)))
            para = []
            if bullet and not fenced:
                para = [s[2:]]
            continue
        para.append(s)
    return [p for p in out if p]


# A sentence ends at '.', '!' or '?' (or ':' before a new sentence) followed by a blank and a capital, a
# quote, a '.' word, or the lower-case words wmma's sentences start with ("wmma.load is ...", "stride is
# ..."); "e.g." and "i.e." end none.
SPLIT = re.compile(r"(?<!e\.g\.)(?<!i\.e\.)(?<=[.!?:])\s+(?=[A-Z`\"(]|\.[a-z]|wmma\.(?:load|store) |stride is )")


def sentences(paragraph):
    return [s for s in SPLIT.split(paragraph) if s.strip()]


def spec_quotes():
    """(normalized words, how judged, id) of every quote of the specs that a judge rests on."""
    out = []
    for name in sorted(os.listdir(os.path.join(ROOT, "specs"))):
        if not name.endswith(".yaml") or name == "sentences.yaml":
            continue
        d = yaml.safe_load(open(os.path.join(ROOT, "specs", name), encoding="utf-8"))
        if not isinstance(d, dict):
            continue
        for r in d.get("rules") or []:
            out.append((norm(r["text"]), "ptxas", r["rule"]))
        for r in d.get("register_claims") or []:
            out.append((norm(r["text"]), "ptxas", r["claim"]))
        for c in d.get("claims") or []:
            judge = "ptxas" if c["check"]["kind"] == "requirements" else "gpu"
            out.append((norm(c["text"]), judge, c["id"], c["source"]))
        for m in d.get("register_minimums") or []:
            out.append((norm(m["text"]), "ptxas", m["minimum"], m["source"]))
    return [q if len(q) == 4 else q + ("",) for q in out]


def variant_facts():
    """Per variant of the family files: (name, family, the yaml text of the variant, its requirements' source, ptx, targets)."""
    out = []
    for name in sorted(os.listdir(os.path.join(ROOT, "specs"))):
        if not name.endswith(".yaml") or name == "sentences.yaml":
            continue
        d = yaml.safe_load(open(os.path.join(ROOT, "specs", name), encoding="utf-8"))
        if not isinstance(d, dict) or "variants" not in d:
            continue
        for v in d["variants"]:
            req = v.get("requires") or {}
            out.append({"name": v["name"], "family": d["family"], "text": yaml.safe_dump(v, width=10000),
                        "source": req.get("source", ""), "ptx": str(req.get("ptx", "")),
                        "targets": req.get("targets", "")})
    return out


UB = "undefined-behaviour: not judged yet; the undefined-behaviour cases (helper h42-ub) are to observe it"
ARITH = "arithmetic: not judged yet; the precision and rounding cases (helper h42-num) are to judge it"


def first_reading(number, sentence, quotes, variants, state):
    """A new sentence's entry: the specs' quotes that hold it, else what its words say it is."""
    e = {"text": sentence}
    for words, judge, ident, source in quotes:
        # A quote holds the sentence, or (a claim quoting several) the sentence is part of one citing its section.
        part_of = len(sentence) > 40 and sentence in words and re.search(rf"{re.escape(number)}\b(?!\.\d)", source)
        if len(words) > 12 and (words in sentence or part_of):
            e.setdefault(judge, [])
            if ident not in e[judge]:
                e[judge].append(ident)
    if "ptxas" in e or "gpu" in e:
        return e
    figures = re.findall(r"Figure (\d+)", sentence)
    if figures:
        cited = [v["name"] for v in variants
                 if any(re.search(rf"{re.escape(number)}[ ,(].*Figure {f}\b|{re.escape(number)}[ ,(].*Figures? [0-9, and]*\b{f}\b", v["text"]) for f in figures)]
        state["figure_variants"] = cited
        if cited:
            e["gpu"] = cited
            return e
    if sentence.startswith("The row and column of a matrix fragment can be computed as") and state.get("figure_variants"):
        e["gpu"] = list(state["figure_variants"])
        return e
    notes = [v["name"] for v in variants if number + " " in v["source"] or number + "," in v["source"]]
    m = re.match(r"^(?:Introduced in PTX ISA version|Requires) (\S+?)\.? or higher\.?$|^Introduced in PTX ISA version (\d+\.\d+)\.$", sentence)
    if m:
        want = m.group(1) or m.group(2)
        hit = [n for n in notes if any(v["name"] == n and (v["ptx"] == want or str(v["targets"]) == ">= " + want) for v in variants)]
        if hit:
            e["ptxas"] = hit
            return e
    core = sentence.rstrip(".")
    hit = [v["name"] for v in variants if len(core) > 25 and core in norm(v["source"])]
    if hit:
        e["ptxas"] = hit
        return e
    return classify(sentence, e)


def classify(sentence, e):
    low = sentence.lower()
    words = sentence.split()
    if (not re.search(r"[.]$", sentence) and (len(words) <= 8 or sentence.endswith(":")) and not re.match(r"^sm_", sentence)) \
            or sentence.startswith("Examples of"):
        e["descriptive"] = "a heading or a label: no statement of its own"
    elif re.search(r"(is|are) shown (below|in)|following table shows|as shown in the following|refer .* for more details|is described in|are described in|shown below", low):
        e["descriptive"] = "points to a figure, a table or another section: what it points to is judged where it is encoded"
    elif "performance" in low:
        e["not_judgeable"] = "a remark on performance: no behaviour the documents fix, nothing to judge on any machine"
    elif "undefined" in low:
        e["not_yet"] = UB
    elif re.search(r"precision|round|satfinite|nan\b|infinity|overflow|wrapped|fused multiply|subnormal|denorm", low) and "introduced" not in low and "requires" not in low:
        e["not_yet"] = ARITH
    elif "memory consistency model" in low:
        e["not_yet"] = "the memory model: a weak memory operation needs litmus tests between threads, which the suite does not run yet"
    else:
        e["not_yet"] = "no statement of the specs judges it yet"
    return e


def main():
    check = "--check" in sys.argv
    old = {}
    if os.path.exists(INVENTORY):
        for sec in (yaml.safe_load(open(INVENTORY, encoding="utf-8")) or {}).get("sections") or []:
            for e in sec.get("sentences") or []:
                old[(sec["section"], e["text"])] = e
    quotes, variants, secs, prose_out = spec_quotes(), variant_facts(), [], []
    for number, source, rel, part in SECTIONS:
        paras = prose(open(os.path.join(SHARED, rel), encoding="utf-8").read(), part)
        prose_out.append(f"=== {rel} | {number} | {part}")
        entries, state = [], {}
        for p in paras:
            prose_out += [p, "@@"]
            for s in sentences(p):  # a sentence the section repeats is one entry
                if all(e["text"] != s for e in entries):
                    entries.append(old.get((number, s)) or first_reading(number, s, quotes, variants, state))
        secs.append({"section": number, "source": "PTX ISA 9.0, " + source, "file": rel, "sentences": entries})
    return write(secs, prose_out, check)


def dump_entry(e):
    lines = [f"      - text: {yaml_str(e['text'])}"]
    for key in ("ptxas", "gpu"):
        if key in e:
            lines.append(f"        {key}: [{', '.join(e[key])}]")
    for key in ("descriptive", "not_judgeable", "not_yet", "note"):
        if key in e:
            lines.append(f"        {key}: {yaml_str(e[key])}")
    return lines


def yaml_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write(secs, prose_out, check):
    head = open(INVENTORY, encoding="utf-8").read().split("\nsections:\n")[0] if os.path.exists(INVENTORY) else ""
    out = [head, "sections:"] if head else ["sections:"]
    for s in secs:
        out += [f"  - section: \"{s['section']}\"", f"    source: {yaml_str(s['source'])}",
                f"    file: {s['file']}", "    sentences:"]
        for e in s["sentences"]:
            out += dump_entry(e)
    text = "\n".join(out) + "\n"
    ptext = ("# The prose of the sections specs/sentences.yaml inventories, normalized, a paragraph a block;\n"
             "# written by harness/scripts/sentence_inventory.py from ../shared (see README.md here).\n"
             + "\n".join(prose_out) + "\n")
    stale = [p for p, t in ((INVENTORY, text), (PROSE, ptext))
             if not os.path.exists(p) or open(p, encoding="utf-8").read() != t]
    if check:
        for p in stale:
            print(f"{p}: not what harness/scripts/sentence_inventory.py writes; run it", file=sys.stderr)
        return 1 if stale else 0
    os.makedirs(os.path.dirname(PROSE), exist_ok=True)
    for p, t in ((INVENTORY, text), (PROSE, ptext)):
        open(p, "w", encoding="utf-8").write(t)
    return 0


if __name__ == "__main__":
    sys.exit(main())
