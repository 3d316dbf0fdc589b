#!/usr/bin/env python3
"""The CI recipes of docs/ci.md work: docs/ci/gitlab-ci.yml parses (PyYAML, as GitLab's own YAML) into
the jobs the page describes; docs/ci/Jenkinsfile's braces, brackets and quotes balance (no Groovy
parser here); the page shows both files as they are; and their commands, run in a fresh workspace
with `ptxcts` on the PATH being the build's against the fake device runner (as a GPU box's run, of the
small suite: the build's support/make_small_suite.py), leave
what the recipes then publish: the JUnit glob matches the run's XML, the HTML glob its pages,
ptxcts.css beside them, and GitLab's `public/` an index whose links all resolve. Exit 77 without
PyYAML.

usage: check_ci_recipes.py ROOT PTXCTS FAKE_RUNNER WORK SMALL_SUITE"""
import glob, os, re, shutil, stat, subprocess, sys

failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def shell(line, cwd, env):
    p = subprocess.run(["bash", "-euo", "pipefail", "-c", line], cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=600)
    check(p.returncode == 0, f"runs: {line[:90]} (exit {p.returncode}) {p.stderr[-400:]}")


def workspace(work, name, ptxcts, runner, small):
    """A fresh folder, and an environment whose `ptxcts` runs the build's against the fake device: the
    small suite (ldmatrix and movmatrix, its own catalog), since what the recipes publish (the JUnit
    file, the pages, the style sheet beside them) is the same for every family."""
    ws = os.path.join(work, name)
    shutil.rmtree(ws, ignore_errors=True)
    os.makedirs(os.path.join(ws, ".bin"))
    wrapper = os.path.join(ws, ".bin", "ptxcts")
    with open(wrapper, "w") as f:
        f.write('#!/bin/sh\nif [ "$1" = run ]; then shift; exec "$PTXCTS_REAL" --specs "$PTXCTS_SMALL/specs" run '
                '--no-assemble --catalog "$PTXCTS_SMALL/catalog" --runner "$PTXCTS_RUNNER" "$@"; fi\n'
                'exec "$PTXCTS_REAL" "$@"\n')
    os.chmod(wrapper, os.stat(wrapper).st_mode | stat.S_IXUSR)
    env = dict(os.environ, PATH=os.path.join(ws, ".bin") + os.pathsep + os.environ.get("PATH", ""),
               PTXCTS_REAL=ptxcts, PTXCTS_RUNNER=runner, PTXCTS_SMALL=small, PTXCTS_FAKE_MODE="model",
               CI_COMMIT_BRANCH="main", CI_DEFAULT_BRANCH="main")
    return ws, env


def published(ws, pattern, what):
    got = glob.glob(os.path.join(ws, pattern))
    check(len(got) > 0, f"{what}: '{pattern}' matches what the run wrote ({len(got)} files)")
    return got


def gitlab(root, ptxcts, runner, work, small):
    import yaml
    text = open(os.path.join(root, "docs", "ci", "gitlab-ci.yml")).read()
    ci = yaml.safe_load(text)
    check(ci["stages"] == ["conformance", "publish"], f"gitlab-ci.yml: stages {ci['stages']}")
    job, pages = ci["conformance"], ci["pages"]
    check(job["artifacts"]["when"] == "always", "gitlab-ci.yml: the reports are kept when the job fails (exit 1)")
    check(pages["artifacts"]["paths"] == ["public"] and pages["needs"] == ["conformance"],
          "gitlab-ci.yml: the pages job publishes public/ from the conformance job's artifacts")
    ws, env = workspace(work, "gitlab", ptxcts, runner, small)
    for line in job["script"] + pages["script"]:
        shell(line, ws, env)
    published(ws, job["artifacts"]["reports"]["junit"], "gitlab-ci.yml: artifacts:reports:junit")
    for path in job["artifacts"]["paths"]:
        check(os.path.isdir(os.path.join(ws, path)), f"gitlab-ci.yml: artifacts path {path} exists")
    index = os.path.join(ws, "public", "index.html")
    links = re.findall(r'href="?([^">\s]+)', open(index).read()) if os.path.exists(index) else []
    check(len(links) > 1 and all(os.path.exists(os.path.join(ws, "public", h)) for h in links),
          f"gitlab-ci.yml: public/index.html links {len(links) - 1} pages and the sheet, every one there")
    return text


def jenkins(root, ptxcts, runner, work, small):
    text = open(os.path.join(root, "docs", "ci", "Jenkinsfile")).read()
    code = re.sub(r"//[^\n]*", "", re.sub(r"'[^'\n]*'|\"[^\"\n]*\"", "''", text))
    check(all(code.count(a) == code.count(b) for a, b in ("{}", "()", "[]")),
          "Jenkinsfile: braces, parentheses and brackets balance")
    bare = re.sub(r"//[^\n]*", "", text)  # no comment holds a // inside a string here
    check(bare.count("'") % 2 == 0 and bare.count('"') % 2 == 0, "Jenkinsfile: quotes balance")
    commands = re.findall(r"sh\((?:script: )?'([^']+)'", text) + re.findall(r"\bsh '([^']+)'", text)
    check(len(commands) >= 1, f"Jenkinsfile: {len(commands)} shell steps")
    ws, env = workspace(work, "jenkins", ptxcts, runner, small)
    for line in commands:
        shell(line, ws, env)
    published(ws, re.search(r"junit testResults: '([^']+)'", text).group(1), "Jenkinsfile: junit")
    published(ws, re.search(r"archiveArtifacts artifacts: '([^']+)'", text).group(1), "Jenkinsfile: archiveArtifacts")
    d = re.search(r"reportDir: '([^']+)'", text).group(1)
    pages = published(ws, os.path.join(d, re.search(r"reportFiles: '([^']+)'", text).group(1)), "Jenkinsfile: publishHTML")
    check(os.path.exists(os.path.join(ws, d, "ptxcts.css")), "Jenkinsfile: ptxcts.css in the published folder")
    for page in pages:
        check('href="ptxcts.css"' in open(page).read(), f"Jenkinsfile: {os.path.basename(page)} links ptxcts.css")
    return text


def main(root, ptxcts, runner, work, small):
    try:
        import yaml  # noqa: F401
    except ImportError:
        print("skipped: no PyYAML (python3-yaml)")
        return 77
    if not os.path.exists(os.path.join(small, "catalog", "manifest.json")):
        print(f"FAIL  no small suite at {small} (the build makes it: target small_suite)")
        return 1
    os.makedirs(work, exist_ok=True)
    shown = open(os.path.join(root, "docs", "ci.md")).read()
    for name, text in (("gitlab-ci.yml", gitlab(root, ptxcts, runner, work, small)),
                       ("Jenkinsfile", jenkins(root, ptxcts, runner, work, small))):
        check(f"\n{text}```" in shown, f"docs/ci.md shows docs/ci/{name} as it is")
    print(f"{len(failures)} failed" if failures else "the CI recipes work")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:6]))
