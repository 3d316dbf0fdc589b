#!/usr/bin/env python3
"""Every relative link of the shipped documentation resolves: README.md, docs/*.md and
reports/README.md, each link to a file that exists and each #anchor to a heading (GitHub's rule for
its id: lowercased, punctuation but '-' and '_' dropped, spaces to '-', a repeat numbered -1, -2, ...)
or an explicit id of the target. Links inside code (fenced blocks, `spans`) are not links; http(s)
and mailto links are not followed. Prints each broken link as FILE:LINE: TARGET: why, then the
counts; exit 1 on any.

usage: check_doc_links.py ROOT                the repository
       check_doc_links.py --installed PREFIX  an installed package (PREFIX/share/doc/ptxcts)
       check_doc_links.py --self-test         the checker on links made broken on purpose"""
import argparse, os, re, sys, tempfile, urllib.parse

LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|^\s*\[[^\]]+\]:\s*<?(\S+?)>?\s*$"
                  r"|<a\s[^>]*href=\"([^\"]+)\"", re.M)
IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)>?\s*\)")


def doc_files(root):
    """The shipped documents under `root` (a repository, or an installed share/doc/ptxcts)."""
    out = [os.path.join(root, "README.md"), os.path.join(root, "reports", "README.md")]
    docs = os.path.join(root, "docs")
    out += sorted(os.path.join(docs, n) for n in os.listdir(docs) if n.endswith(".md"))
    return [p for p in out if os.path.exists(p)]


def strip_code(text, inline=True):
    """The text with fenced blocks (and inline code) blanked (lines kept, so line numbers hold)."""
    lines, fence = [], None
    for line in text.split("\n"):
        m = re.match(r"\s*(```+|~~~+)", line)
        if fence:
            lines.append("")
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            lines.append("")
            continue
        lines.append(re.sub(r"(`+)(.+?)\1", lambda c: " " * len(c.group(0)), line) if inline else line)
    return "\n".join(lines)


def slug(heading):
    """GitHub's id of a heading's text."""
    h = re.sub(r"`|\*\*|__", "", heading.strip()).lower()
    h = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", h)  # a link in a heading: its text
    h = re.sub(r"<[^>]+>", "", h)
    h = "".join(c for c in h if c.isalnum() or c in " -_")
    return h.replace(" ", "-")


anchors_of = {}


def anchors(path):
    if path not in anchors_of:
        text, seen, out = open(path, encoding="utf-8").read(), {}, set()
        for line in strip_code(text, inline=False).split("\n"):
            m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                s = slug(m.group(1))
                n = seen.get(s, 0)
                out.add(s if n == 0 else f"{s}-{n}")
                seen[s] = n + 1
        out |= set(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", text))
        anchors_of[path] = out
    return anchors_of[path]


def links(path):
    """(line, target) of every link of the Markdown file `path`."""
    text = strip_code(open(path, encoding="utf-8").read())
    for m in list(LINK.finditer(text)) + list(IMAGE.finditer(text)):
        target = next(g for g in m.groups() if g)
        yield text.count("\n", 0, m.start()) + 1, target


def check(root):
    """The broken links under `root`: [(file, line, target, why)], and how many links were checked."""
    broken, checked = [], 0
    for doc in doc_files(root):
        for line, target in links(doc):
            if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:
                continue
            checked += 1
            path, _, frag = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(doc), urllib.parse.unquote(path))) if path else doc
            where = os.path.relpath(doc, root)
            if not os.path.exists(dest):
                broken.append((where, line, target, f"no such file {os.path.relpath(dest, root)}"))
            elif frag and dest.endswith(".md") and urllib.parse.unquote(frag) not in anchors(dest):
                broken.append((where, line, target, f"{os.path.relpath(dest, root)} has no heading or id '{frag}'"))
    return broken, checked


def report(root, what):
    broken, checked = check(root)
    for f, line, target, why in broken:
        print(f"{f}:{line}: {target}: {why}")
    print(f"{what}: {checked} relative links in {len(doc_files(root))} documents, {len(broken)} broken")
    return broken


def self_test():
    """A file and an anchor that are not there are found; one that is, is not; code is no link."""
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "docs"))
        open(os.path.join(d, "docs", "a.md"), "w").write(
            "# A title: with `code`, too\n\n## Repeat\n\n## Repeat\n\n<a id=\"made\"></a>\n")
        open(os.path.join(d, "README.md"), "w").write(
            "[ok](docs/a.md#a-title-with-code-too) [ok](docs/a.md#repeat-1) [ok](docs/a.md#made) [ok](#top)\n"
            "# Top\n[bad](docs/b.md) [bad](docs/a.md#repeat-2)\n`[no](docs/c.md)`\n```\n[no](docs/d.md)\n```\n"
            "[ref]: docs/e.md\n")
        broken, checked = check(d)
        got = sorted(t for _, _, t, _ in broken)
        want = ["docs/a.md#repeat-2", "docs/b.md", "docs/e.md"]
        print(f"self-test: {checked} links, broken {got}")
        return 0 if got == want and checked == 7 else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", nargs="?")
    ap.add_argument("--installed", metavar="PREFIX")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if a.installed:
        return 1 if report(os.path.join(a.installed, "share", "doc", "ptxcts"), "installed package") else 0
    return 1 if report(a.root, "repository") else 0


if __name__ == "__main__":
    sys.exit(main())
