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

# The functions still over the limit: (file, function as lizard names it) -> (its length today, who
# splits it and why it is still long). Longest first. Issue 39 set the limit at 60 with 37 over it;
# the other helpers of issue 39 split those of their areas (h39-kinds: kinds/ and the kind-specific
# spec files; h39-judge: judge/ and assemble/probe_assembly.cpp; h39-report: report/ and
# results/report_json.cpp), and each line goes when its function is split.
EXCEPTIONS = {
    ("harness/src/kinds/fragment/case_data.cpp", "ptxcts::make_case_input"):
        (99, "h39-kinds: one case's launch inputs, a branch per data pattern and placement; moves with the kind's room"),
    ("harness/src/judge/audit.cpp", "ptxcts::Judge::rules_and_blocks"):
        (91, "h39-judge: every grammar block's and rule's questions in one pass; Judge is being split by question kind"),
    ("harness/src/spec/layout.cpp", "ptxcts::compute_layout"):
        (90, "h39-kinds: a fragment layout's formulas evaluated per shape; kind-specific, moving into the kind"),
    ("harness/src/report/toolkit_matrix_report.cpp", "ptxcts::matrix_json"):
        (88, "h39-report: the toolkit matrix's JSON, field by field; report/ is being put in wings"),
    ("harness/src/report/layout_svg.cpp", "ptxcts::draw_spec_layout"):
        (88, "h39-report: a layout figure's grid, labels and legend drawn in one pass"),
    ("harness/src/assemble/probe_assembly.cpp", "ptxcts::Judging::judge"):
        (86, "h39-judge: one probe's verdict, a branch per question kind; typed question kinds replace the branches"),
    ("harness/src/report/report_html.cpp", "ptxcts::kernels_section"):
        (85, "h39-report: the run page's kernel table, row and cell writing together"),
    ("harness/src/report/audit_report.cpp", "ptxcts::audit_markdown"):
        (85, "h39-report: the audit's Markdown, every section in one function; the page is redrawn from the typed reader"),
    ("harness/src/report/report_html.cpp", "ptxcts::matrix_section"):
        (81, "h39-report: the run page's form x target matrix"),
    ("harness/src/assemble/probe_assembly.cpp", "ptxcts::assemble_probes"):
        (81, "h39-judge: batching, caching and judging the audit's probes in one loop"),
    ("harness/src/report/sass_report.cpp", "ptxcts::sass_report_markdown"):
        (79, "h39-report: the SASS table's Markdown, header, rows and notes together"),
    ("harness/src/assemble/probe_assembly.cpp", "ptxcts::run_ptxas"):
        (79, "h39-judge: one ptxas run of a probe module and the reading of its diagnostics"),
    ("harness/src/results/report_json.cpp", "ptxcts::read_run_report"):
        (77, "h39-report: the run report's reader, field by field; it moves beside its siblings in report/"),
    ("harness/src/kinds/wmma/wmma_check.cpp", "ptxcts::check_wmma"):
        (77, "h39-kinds: a wmma case's check, load, store and mma together"),
    ("harness/src/spec/variant_reader.cpp", "ptxcts::read_fragment_layout"):
        (76, "h39-kinds: a variant's fragment block; kind-specific, moving into the kind's spec reader"),
    ("harness/src/report/report_diff.cpp", "ptxcts::diff_reports"):
        (76, "h39-report: two run reports compared, case, verdict and timing together"),
    ("harness/src/judge/audit.cpp", "ptxcts::Judge::forms"):
        (76, "h39-judge: the audit forms' questions (invalid and undocumented) in one pass"),
    ("harness/src/kinds/wmma/wmma_planner.cpp", "ptxcts::plan_wmma_kernels"):
        (75, "h39-kinds: the wmma kernels of a variant, load, store and mma steps together"),
    ("harness/src/report/report_html.cpp", "ptxcts::layouts_section"):
        (72, "h39-report: the run page's layout figures and their captions"),
    ("harness/src/report/audit_html.cpp", "ptxcts::audit_findings_section"):
        (72, "h39-report: the audit page's findings, grouped and drawn together"),
    ("harness/src/kinds/fragment/compare.cpp", "ptxcts::compare_states"):
        (68, "h39-kinds: a fragment kind's device state against the model, element by element"),
    ("harness/src/report/toolkit_matrix_reader.cpp", "ptxcts::read_matrix_file"):
        (67, "h39-report: the toolkit matrix's reader, field by field"),
    ("harness/src/judge/claims.cpp", "ptxcts::judge_cases"):
        (64, "h39-judge: a claim of kind cases judged against the run's results"),
    ("harness/src/judge/audit.cpp", "ptxcts::Judge::versions_of_targets"):
        (63, "h39-judge: the version ladder's questions per target"),
    ("harness/src/report/report_merge.cpp", "ptxcts::fleet_html"):
        (61, "h39-report: the fleet page, verdict first, then each GPU's row"),
    ("harness/src/kinds/mma/mma_check.cpp", "ptxcts::check_mma"):
        (61, "h39-kinds: an mma case's check: fragments gathered, the product computed and compared"),
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
