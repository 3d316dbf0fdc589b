#!/usr/bin/env python3
"""Writes harness/tests/data/quoted-text/excerpts.txt: the paragraphs of the reference text
(../shared/reference/ptx-isa and ../shared/seeds) that the specs quote, copied verbatim with the file
each comes from and the manual sections that file holds, so that the test of the quotes
(harness/tests/spec/test_quoted_words.cpp) runs where ../shared is not (a fresh clone, CI).
Only the quoted paragraphs are copied, never a whole section. Run it after changing a quote:

    python3 harness/scripts/quoted_excerpts.py

The test's normalization (markdown marks and runs of blanks) is the same as `norm` below.
"""
import glob
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("PTXCTS_SHARED", os.path.join(os.path.dirname(ROOT), "shared"))  # or where PTXCTS_SHARED says
OUT = os.path.join(ROOT, "harness/tests/data/quoted-text/excerpts.txt")

# The manual's sections each file holds: mma-fragments/ files by their names; the others by what
# their README says they are. seeds/001_... and seeds/002_... are the manual's own sections
# (seeds/README.md); the other seeds are documents of specs/documents.yaml, by their `copy`.
SECTIONS = {
    "reference/ptx-isa/ldmatrix.md": "9.7.14.5.15",
    "reference/ptx-isa/stmatrix.md": "9.7.14.5.16",
    "reference/ptx-isa/movmatrix.md": "9.7.14.5.17",
    "reference/ptx-isa/mma.md": "9.7.14.5.14",
    "reference/ptx-isa/wmma.md": "9.7.14.4.3",
    "reference/ptx-isa/sub-byte-formats.md": "5.5.1.1",
    "seeds/001_4bb83a8ae49b2431.txt": "9.7.14.4.4",
    "seeds/002_64e6928b813bc8ca.txt": "9.7.14.5.16",
}


def norm(t):
    t = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", t)
    t = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", t)
    t = t.replace("`", "").replace("\\_", "_").replace("\\*", "*").replace("|", " ")
    return " ".join(w for w in t.split() if not re.fullmatch(r"-{3,}", w))


def document_files():
    files = {}
    for f in sorted(glob.glob(SHARED + "/reference/ptx-isa/**/*.md", recursive=True)):
        rel = os.path.relpath(f, SHARED)
        name = os.path.basename(f)
        m = re.match(r"(\d+(?:-\d+)+)-", name)
        sec = SECTIONS.get(rel, m.group(1).replace("-", ".") if m else "")
        if name != "README.md":
            files[rel] = ("manual", sec)
    copies = {d["copy"]: d["id"] for d in registry() if d.get("copy", "").startswith("seeds/")}
    for f in sorted(glob.glob(SHARED + "/seeds/0*.txt")):
        rel = os.path.relpath(f, SHARED)
        if rel in SECTIONS:  # a section of the manual
            files[rel + "#manual"] = ("manual", SECTIONS[rel])
        elif rel in copies:  # another document, by its id in specs/documents.yaml
            files[rel] = (copies[rel], "")
    return files


def registry():
    """The documents the specs cite (specs/documents.yaml): each with the copy of its text we hold."""
    with open(os.path.join(ROOT, "specs", "documents.yaml"), encoding="utf-8") as f:
        return yaml.safe_load(f)["documents"]


def quotes():
    """(where, document, source, words) for every quote of the specs that is not a paraphrase."""
    out = []
    for f in sorted(glob.glob(ROOT + "/specs/*.yaml")):
        d = yaml.safe_load(open(f, encoding="utf-8"))
        if not isinstance(d, dict):
            continue
        name = os.path.basename(f)
        for key, id_key, field in (("rules", "rule", "text"), ("register_claims", "claim", "text"),
                                   ("register_minimums", "minimum", "text"),
                                   ("version_spellings", "spelling", "text")):
            for r in d.get(key) or []:
                if "paraphrase" not in r:
                    out.append((f"{name} {r[id_key]}", r["document"], r["source"], [r[field]]))
        for b in d.get("grammar") or []:
            if "paraphrase" not in b:
                out.append((f"{name} {b['block']}", b["document"], b["source"], statements(b["manual"])))
        for e in d.get("examples") or []:
            if "paraphrase" not in e:
                lines = [x for x in e["text"].splitlines() if x.strip()]
                out.append((f"{name} {e['example']}", e["document"], e["source"], lines))
        for s in d.get("sparse_fragments") or []:
            for op in ("a", "b", "cd", "metadata"):
                o = s.get(op) or {}
                if "words" in o and "paraphrase" not in o:
                    out.append((f"{name} {s['name']} {op}", "manual", s["section"], [o["words"]]))
        for a in d.get("address_words") or []:  # an instruction's section on its address and state spaces
            for part in ("address", "state_spaces"):
                q = a[part]
                if "paraphrase" not in q:
                    out.append((f"{name} {a['mnemonic']} {part}", q["document"], q["source"], [q["words"]]))
        for c in d.get("claims") or []:  # quoted from its document, the manual unless it names another
            if "paraphrase" not in c:
                out.append((f"{name} {c['id']}", c.get("document", "manual"), c["source"], [c["text"]]))
        out += [(f"{name} (a title it cites)", "manual", number, [title]) for number, title in fragment_titles(d)]
    for f in sorted(glob.glob(ROOT + "/harness/src/judge/*.cpp")):
        out += judge_quotes(f)
    return out


# The title of a fragment section of one shape, as judge/fragment_sections.cpp reads it.
TITLE = re.compile(r"(\d+(?:\.\d+)+)\.? (Matrix Fragments for (?:sparse )?[A-Za-z.]+?\.m\d+n\d+k\d+"
                   r"(?: with [^,;()]*[^,;() ])?)")


def fragment_titles(node):
    """(number, title) of every fragment section a "source" or "section" of the specs cites, at any depth."""
    out = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("source", "section") and isinstance(value, str):
                out += TITLE.findall(value)
            else:
                out += fragment_titles(value)
    elif isinstance(node, list):
        for value in node:
            out += fragment_titles(value)
    return out


def literal_at(src, at):
    """The string literals (adjacent ones joined) at `at`, and where they end."""
    out, any_ = "", False
    while True:
        while at < len(src) and src[at].isspace():
            at += 1
        if at >= len(src) or src[at] != '"':
            return (out if any_ else ""), at
        any_ = True
        at += 1
        while src[at] != '"':
            if src[at] == "\\":
                at += 1
            out += src[at]
            at += 1
        at += 1


def judge_quotes(path):
    """judge/'s `.words = "..."` (or a `const char* NAME = "..."`) with its `.source`, unless paraphrased."""
    src, out = open(path, encoding="utf-8").read(), []
    for m in re.finditer(r"\.words = ", src):
        at = m.end()
        words, end = literal_at(src, at)
        if not words:
            n = re.match(r"(\w+)\s*[,}]", src[at:at + 64])
            d = n and src.find("const char* " + n.group(1) + " = ")
            if not n or d < 0:
                continue
            words, _ = literal_at(src, d + len("const char* " + n.group(1) + " = "))
            end = at + len(n.group(1))
        while end < len(src) and src[end].isspace():
            end += 1
        if not words or end >= len(src) or src[end] not in ",}":
            continue
        close, source = src.find("}", end), src.find(".source = ", at)
        if source < 0 or source > close:
            continue
        cited, _ = literal_at(src, source + len(".source = "))
        para = src.find(".paraphrase = ", at)
        if not cited.startswith("PTX ISA") or (0 <= para < close and not src.startswith('""', para + 14)):
            continue
        out.append((os.path.basename(path), "manual", cited, [words]))
    return out


def statements(manual):
    """A syntax line as the specs give it: each statement (up to ';'), a heading ('... loads:') apart."""
    out = []
    for part in re.split(r"(?<=;)\s+", manual):
        m = re.match(r"^([A-Z][^{};]*:)\s+(.*)$", part)
        out += [m.group(1), m.group(2)] if m else [part]
    return out


def cited_sections(source):
    return re.findall(r"\b\d+(?:\.\d+){2,}\b", source)


def covers(file_section, cited):
    return bool(file_section) and (file_section == cited or cited.startswith(file_section + ".")
                                   or file_section.startswith(cited + "."))


def find(words, candidates, texts):
    """The shortest run of lines of a candidate file whose text holds the quote: (file, first, last)."""
    w = norm(words)
    variants = [w, w[:-1]] if w.endswith(";") else [w]  # ';' may be the specs' statement separator
    for rel in candidates:
        lines = texts[rel]
        for i in range(len(lines)):
            text = ""
            for j in range(i, len(lines)):
                text = norm(text + "\n" + lines[j])
                if any(v in text for v in variants):
                    while i < j and any(v in norm("\n".join(lines[i + 1:j + 1])) for v in variants):
                        i += 1
                    return rel, i, j
                if len(text) > len(w) + 400:
                    break
    return None


def main():
    files = document_files()
    texts = {}
    for rel in files:
        path = os.path.join(SHARED, rel.split("#")[0])
        texts[rel] = open(path, encoding="utf-8").read().split("\n")
    keep = {rel: [] for rel in files}  # (first, last) line of each excerpt
    missing = 0
    for where, doc, source, words_list in quotes():
        cited = cited_sections(source) if doc == "manual" else []
        candidates = [rel for rel, (d, sec) in files.items()
                      if d == doc and (not cited or any(covers(sec, c) for c in cited))]
        for words in words_list:
            span = find(words, candidates, texts)
            if span:
                keep[span[0]].append(span[1:])
            else:
                missing += 1
                print(f"not found: {where}: {words!r}", file=sys.stderr)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as out:
        out.write("# The paragraphs of the reference text that the specs quote, verbatim; written by\n"
                  "# harness/scripts/quoted_excerpts.py from ../shared (see harness/tests/data/quoted-text/README.md).\n")
        for rel, (doc, sec) in files.items():
            if not keep[rel]:
                continue
            out.write(f"=== {rel.split('#')[0]} | {doc} | {sec}\n")
            for first, last in sorted(set(keep[rel])):
                out.write("\n".join(texts[rel][first:last + 1]) + "\n@@\n")
    print(f"{OUT}: {sum(len(set(k)) for k in keep.values())} excerpts; {missing} quotes not found")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
