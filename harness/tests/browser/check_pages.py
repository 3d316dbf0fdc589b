#!/usr/bin/env python3
"""The pages in a real browser: writes the pages of the test reports with ptxcts, opens each in
headless Chromium, takes a screenshot and reads the DOM back after the page's script ran. Every
expected count comes from the test reports themselves (their results, claims and observed layouts)
or from the manual, never from the writer. Exit 77 (CTest: skipped) where there is no Chromium.

usage: check_pages.py PTXCTS DATA_DIR OUT_DIR"""
import html.parser, json, os, re, shutil, subprocess, sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import devtools  # noqa: E402 (after the line above)

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children, self.text = tag, dict(attrs), parent, [], []

    def all(self, tag=None, cls=None, **attrs):
        for c in self.children:
            if (tag is None or c.tag == tag) and (cls is None or cls in c.attrs.get("class", "").split()) and all(
                    c.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items()):
                yield c
            yield from c.all(tag, cls, **attrs)

    def by_id(self, i):
        return next(self.all(id=i), None)

    def content(self):
        return "".join(self.text) + "".join(c.content() for c in self.children)


class Dom(html.parser.HTMLParser):
    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.root = self.at = Node("#root", {}, None)
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.at)
        self.at.children.append(n)
        if tag not in VOID:
            self.at = n

    def handle_startendtag(self, tag, attrs):
        self.at.children.append(Node(tag, attrs, self.at))

    def handle_endtag(self, tag):
        n = self.at
        while n is not None and n.tag != tag:
            n = n.parent
        if n is not None and n.parent is not None:
            self.at = n.parent

    def handle_data(self, data):
        self.at.text.append(data)


failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def open_page(chrome, page, png):
    args = [chrome, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--window-size=1280,1000", "--virtual-time-budget=2000"]
    url = "file://" + os.path.abspath(page)
    subprocess.run(args + ["--screenshot=" + png, url], check=True, capture_output=True, timeout=120)
    dom = subprocess.run(args + ["--dump-dom", url], check=True, capture_output=True, timeout=120, text=True).stdout
    check(os.path.getsize(png) > 1000, f"{os.path.basename(page)}: screenshot {png}")
    root = Dom(dom).root
    body = next(root.all("body"))
    check(body.attrs.get("data-ready") == "yes", f"{os.path.basename(page)}: the page's script ran to the end")
    errors = root.by_id("script-errors")
    check(errors is not None and not list(errors.all("li")),
          f"{os.path.basename(page)}: no script errors ({errors.content() if errors else 'no recorder'})")
    return root


def words_match(name, words):
    """The filter's rule as the page tells the user: every word typed is in the form's name."""
    return all(w in name.lower() for w in words.lower().split())


def filter_checks(chrome, page, table, rows, cells_per_row, tries):
    """Types each (family, words) of `tries` into the filter of `table` as a user does and counts the
    rows (and cells) left showing. `rows` is [(family, name)] from the report JSON."""
    name = f"{os.path.basename(page)}: filter of #{table}"
    box = f".filters[data-for={table}]"
    visible = (f"[...document.querySelectorAll('#{table} tbody>tr')]"
               ".filter(function(r){return getComputedStyle(r).display!=='none';})")
    with devtools.Page(chrome, "file://" + os.path.abspath(page)) as p:
        for family, words in tries:
            p.choose(box + " select", family)
            p.eval(f"document.querySelector('{box} input').value=''")
            p.type_into(box + " input", words)
            want = sum(1 for f, n in rows if (not family or f == family) and words_match(n, words))
            got_rows = p.eval(visible + ".length")
            got_cells = p.eval(visible + ".reduce(function(n,r){return n+r.querySelectorAll('td').length;},0)")
            shown = p.eval(f"document.querySelector('{box} .shown').textContent")
            check(want > 0, f"{name}: the try {family or 'all'} / {words!r} matches something")
            check(got_rows == want and got_cells == want * cells_per_row and shown == f"{want} shown",
                  f"{name}: family {family or 'all'}, typed {words!r}: {want} rows, {want * cells_per_row} cells "
                  f"shown (got {got_rows} rows, {got_cells} cells, '{shown}')")
        errors = p.eval("document.getElementById('script-errors').textContent")
        check(errors == "", f"{name}: no script errors while filtering ({errors})")


def slots(layout):
    """(lane, register, part) -> element, from a report's observed_layout text."""
    out = {}
    for line in layout.splitlines():
        lane = int(re.match(r"lane (\d+):", line).group(1))
        for reg, part, el in re.findall(r" r(\d+)(?:\.(\w+))?=(\?|\(\d+,\d+\))", line):
            out[(lane, int(reg), part)] = el
    return out


def marked_repeats(slots_):
    """The slots a figure outlines as repeats: those holding an element that more than one slot holds,
    where some elements are held more than once and some are not (an outline on every cell, or on
    none, would say nothing)."""
    held = {}
    for e in slots_.values():
        if e != "?":
            held[e] = held.get(e, 0) + 1
    repeated = {e for e, n in held.items() if n > 1}
    if not repeated or len(repeated) == len(held):
        return 0
    return sum(1 for e in slots_.values() if e in repeated)


def run_page(ptxcts, chrome, data, out):
    report = json.load(open(os.path.join(data, "html-page.json")))
    page = os.path.join(out, "run.html")
    subprocess.run([ptxcts, "html", os.path.join(data, "html-page.json"), "--out", page], check=True)
    root = open_page(chrome, page, os.path.join(out, "run.png"))

    # Findings: each contradicted claim and each failed case that is not a fault case, nothing else.
    findings = root.by_id("findings")
    text = findings.content()
    contradicted = [c["id"] for c in report["claims"] if c["verdict"] == "contradicted"]
    failed = [r for r in report["results"] if not r["fault_case"] and r["status"] not in ("pass", "skip")]
    for c in contradicted:
        check(c in text, f"run page: Findings list contradicted claim {c}")
    for r in failed:
        check(r["kernel"] in text and r["case"] in text, f"run page: Findings list {r['kernel']} / {r['case']} ({r['status']})")
        for line in r["diff"]:
            check(line in text, f"run page: Findings show the diff line {line!r}")
    check(len(list(findings.all("div", cls="finding"))) == len(contradicted) + len(failed),
          f"run page: Findings hold {len(contradicted) + len(failed)} entries, no more")
    check(not [b for b in root.all("b")], "run page: a reason's markup stays text (no <b> element)")

    # The matrix: a row per form (non-fault results' instructions), a cell per target.
    forms = {r["instruction"] for r in report["results"] if not r["fault_case"]}
    targets = {report["run"]["sm"]} | {r["target"] for r in report["results"] if r["target"]}
    matrix = root.by_id("matrix")
    cells = [td for tr in next(matrix.all("tbody")).children for td in tr.children if td.tag == "td"]
    check(len(cells) == len(forms) * (1 + len(targets)),
          f"run page: matrix has {len(forms)} forms x ({len(targets)} targets + name) = {len(forms) * (1 + len(targets))} cells (got {len(cells)})")
    check(len(list(root.by_id("claims").all("tr"))) == len(report["claims"]) + 1, "run page: a row per claim")
    # Finding one form: a family chosen and words typed leave the forms that match, a row each.
    family_of = {}
    for r in report["results"]:
        if not r["fault_case"]:
            family_of.setdefault(r["instruction"], r["family"])
    filter_checks(chrome, page, "matrix", [(f, n) for n, f in family_of.items()], 1 + len(targets),
                  [("ldmatrix", ""), ("ldmatrix", "x4"), ("stmatrix", "m8n8"), ("", "trans"), ("wmma", "store f32"),
                   ("", "m8n8 SHARED")])

    # Observed wmma layouts: one cell per (lane, register) of the report's layout, repeats marked.
    for r in report["results"]:
        if not r["observed_layout"]:
            continue
        s = slots(r["observed_layout"])
        fig = next(f for f in root.all("figure") if r["kernel"] in next(f.all("figcaption")).content())
        lr = list(fig.all("g", cls="lr"))
        want = {(lane, reg) for lane, reg, _ in s}
        check(len(lr) == len(want), f"run page: {r['kernel']}: {len(want)} (lane, register) cells (got {len(lr)})")
        repeats = marked_repeats(s)
        got = len(list(fig.all("rect", cls="repeat")))
        check(got == repeats, f"run page: {r['kernel']}: {repeats} repeated elements marked (got {got})")
    # The spec's layout of ldmatrix .x4: four registers per lane (manual: "1, 2, or 4 32-bit registers as per .num").
    fig = next(d for d in root.all("details") if next(d.all("summary")).content().startswith("ldmatrix.sync.aligned.m8n8.x4.b16"))
    check(len(list(fig.all("g", cls="lr"))) == 32 * 4, "run page: spec layout of ldmatrix .x4 has 32 x 4 (lane, register) cells")


def diff_page(ptxcts, chrome, data, out):
    old, new = (json.load(open(os.path.join(data, n))) for n in ("html-page.json", "html-page-later.json"))
    page = os.path.join(out, "diff.html")
    p = subprocess.run([ptxcts, "diff", "--html", page, os.path.join(data, "html-page.json"),
                        os.path.join(data, "html-page-later.json")], capture_output=True, text=True)
    check(p.returncode == 0, f"diff: exit 0, no regression (got {p.returncode}: {p.stdout}{p.stderr})")
    root = open_page(chrome, page, os.path.join(out, "diff.png"))
    for a, b in zip(old["results"], new["results"]):
        if a["observed_layout"] != b["observed_layout"]:
            sa, sb = slots(a["observed_layout"]), slots(b["observed_layout"])
            changed = sum(1 for k in sb if sa.get(k) != sb[k])
            fig = next(f for f in root.all("figure") if a["kernel"] in next(f.all("figcaption")).content())
            got = len(list(fig.all("rect", cls="changed")))
            check(got == changed, f"diff page: {a['kernel']}: {changed} changed slots highlighted (got {got})")


def audit_page(ptxcts, chrome, data, out):
    audit = json.load(open(os.path.join(data, "audit-excerpt.json")))
    page = os.path.join(out, "audit.html")
    subprocess.run([ptxcts, "html", os.path.join(data, "audit-excerpt.json"), "--out", page], check=True)
    root = open_page(chrome, page, os.path.join(out, "audit.png"))
    findings = root.by_id("findings")
    ids = [d.attrs.get("data-id") for d in findings.all(cls="finding") if "data-id" in d.attrs]
    check(ids == [f["id"] for f in audit["findings"]] or sorted(ids) == sorted(f["id"] for f in audit["findings"]),
          f"audit page: Findings list the report's {len(audit['findings'])} findings")
    cells = [td for tr in next(root.by_id("matrix").all("tbody")).children for td in tr.children if td.tag == "td"]
    want = len(audit["grammar"]) * (2 + len(audit["run"]["targets"]))
    check(len(cells) == want, f"audit page: matrix has {want} cells (got {len(cells)})")


def toolkits_page(ptxcts, chrome, data, out):
    """The toolkit matrix of the two test audits (ptxcts merge of audit reports), its page written by
    ptxcts html from the JSON."""
    audits = [os.path.join(data, "..", "audits", f"cuda{v}.json") for v in ("13.0", "13.5")]
    prefix = os.path.join(out, "toolkits")
    subprocess.run([ptxcts, "merge", *audits, "--out", prefix], check=True)
    page = os.path.join(out, "toolkits-page.html")
    subprocess.run([ptxcts, "html", prefix + ".json", "--out", page], check=True)
    check(open(page).read() == open(prefix + ".html").read(), "toolkits page: ptxcts html writes what ptxcts merge wrote")
    matrix = json.load(open(prefix + ".json"))
    inputs = [json.load(open(a)) for a in audits]
    root = open_page(chrome, page, os.path.join(out, "toolkits.png"))

    # A column per toolkit, by release.
    heads = [th.content() for th in next(root.by_id("toolkit-columns").all("thead")).all("th")][1:]
    check(heads == [f"CUDA {a['run']['cuda_release']}" for a in inputs],
          f"toolkits page: a column per toolkit, oldest first ({heads})")
    # What changed, first after the toolkits: each change of the matrix, in its step.
    sections = [s.attrs["id"] for s in root.all("section")]
    check(sections[:3] == ["toolkits", "changes", "findings"], f"toolkits page: the changes come first ({sections})")
    steps = list(root.by_id("changes").all("div", cls="step"))
    check([(d.attrs["data-from"], d.attrs["data-to"]) for d in steps] == [(s["from"], s["to"]) for s in matrix["changes"]],
          "toolkits page: a part per pair of consecutive releases")
    for d, step in zip(steps, matrix["changes"]):
        rows = [[td.content() for td in tr.all("td")] for tr in next(d.all("tbody")).children]
        want = sorted([c["kind"], c["what"], c["before"], c["after"]] for c in step["changes"])
        check(sorted(rows) == want and len(want) > 0,
              f"toolkits page: CUDA {step['from']} -> {step['to']} lists the matrix's {len(want)} changes (got {len(rows)})")
    # The grammar's forms side by side: every form of either audit, a cell per toolkit.
    forms = {}
    for a in inputs:
        for g in a["grammar"]:
            forms.setdefault((g["block"], g["instruction"]), g["block"].split(".")[0])
    cells = [td for tr in next(root.by_id("matrix").all("tbody")).children for td in tr.children if td.tag == "td"]
    check(len(cells) == len(forms) * (2 + len(inputs)), f"toolkits page: matrix has {len(forms) * (2 + len(inputs))} cells (got {len(cells)})")
    menu = [o.attrs["value"] for o in next(root.all("div", cls="filters", data_for="matrix")).all("option")]
    check(menu == [""] + sorted(set(forms.values())), f"toolkits page: the family menu lists the forms' families ({menu})")
    filter_checks(chrome, page, "matrix", [(f, n) for (_, n), f in forms.items()], 2 + len(inputs),
                  [("ldmatrix", ""), ("ldmatrix", "b16"), ("", "shared"), ("", "x1 B8")])


def fleet_page(ptxcts, chrome, data, out):
    a, b = (json.load(open(os.path.join(data, n))) for n in ("html-page.json", "html-page-later.json"))
    subprocess.run([ptxcts, "merge", os.path.join(data, "html-page.json"), os.path.join(data, "html-page-later.json"),
                    "--out", os.path.join(out, "fleet")], check=True)
    root = open_page(chrome, os.path.join(out, "fleet.html"), os.path.join(out, "fleet.png"))
    differ = sum(1 for x, y in zip(a["results"], b["results"]) if x["status"] != y["status"]) + sum(
        1 for x, y in zip(a["results"], b["results"]) if x["observed_layout"] != y["observed_layout"])
    rows = list(next(root.by_id("fleet").all("tbody")).children)
    flags = ["differs" in r.attrs.get("class", "").split() for r in rows]
    check(flags[:differ] == [True] * differ and not any(flags[differ:]), f"fleet page: the {differ} rows that differ come first")


def main():
    ptxcts, data, out = sys.argv[1:4]
    chrome = browser()
    if not chrome:
        print("skipped: no chromium (harness/scripts/bootstrap.sh installs Debian's chromium)")
        return 77
    os.makedirs(out, exist_ok=True)
    for t in (run_page, diff_page, audit_page, toolkits_page, fleet_page):
        t(ptxcts, chrome, data, out)
    print(f"{len(failures)} failed" if failures else "all checks passed; screenshots in " + out)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
