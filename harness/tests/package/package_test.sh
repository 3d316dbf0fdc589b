#!/usr/bin/env bash
# The release package, as a user on a GPU box gets it (CTest label `package`):
#   package_test.sh build     BUILD        make the .tar.gz and the .deb (CPack) into BUILD/package-test
#   package_test.sh tgz       BUILD RUNNER unpack the archive into an empty folder whose path has spaces and
#                                          non-ASCII letters, and run it under env -i (no PATH: no
#                                          compiler, no ptxas; no source tree) against the fake device
#                                          runner; its report must equal the build tree's report of the
#                                          same catalog, case for case and claim for claim
#   package_test.sh deb       BUILD RUNNER the same for the .deb, installed as a minimized image (Ubuntu's
#                                          minimal images, Docker's) installs it: `dpkg -i` into a private
#                                          root with --path-exclude=/usr/share/doc/*, so without its
#                                          documentation, which no command needs (dpkg -x would ignore
#                                          the exclude); --version says once that the docs are absent
#   package_test.sh paths     BUILD SOURCE no folder of the building machine in any file of the package
#   package_test.sh version   BUILD        --version names the suite, its commit and the catalog's toolkit
#   package_test.sh refusals  BUILD RUNNER a catalog of another suite, a package without its catalog, a
#                                          cut-short archive: one clear message each, exit 2, nothing run
#   package_test.sh docs      BUILD SOURCE every relative link and anchor of the unpacked release's documents
#                                          resolves (harness/tests/docs/check_doc_links.py --installed)
#   package_test.sh ctest     BUILD        the packaged CTest folder: the families labelled gpu, skipped
#                                          with the reason where there is no GPU
set -uo pipefail
mode=$1 build=$2
out="$build/package-test"
fail() { echo "FAIL: $*" >&2; exit 1; }
archive() { ls "$out"/ptxcts-*-Linux-x86_64.tar.gz 2>/dev/null | head -1; }
debfile() { ls "$out"/ptxcts_*_amd64.deb 2>/dev/null | head -1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ptxcts-package-XXXXXX")
trap 'rm -rf "$work"' EXIT
# Where a user may well unpack it: a folder with spaces and letters beyond ASCII in its path.
odd="$work/ptxcts test ü dir/and ä second"

# unpack ARCHIVE DIR: the archive's one top folder, as a user gets it; prints the prefix.
unpack() {
  mkdir -p "$2" && tar xzf "$1" -C "$2" || fail "cannot unpack $1"
  ls -d "$2"/ptxcts-*
}

# run_alone PREFIX RUNNER REPORTS [ptxcts options]: the package's ptxcts with nothing of this machine's
# environment (env -i: no PATH, no HOME), the fake device runner as an sm_90 GPU emulated from the
# package's own specs.
run_alone() {
  local prefix=$1 runner=$2 reports=$3
  shift 3
  (cd "$work" && env -i PTXCTS_FAKE_MODE=model PTXCTS_FAKE_SPECS="$prefix/share/ptxcts/specs" \
     "$prefix/bin/ptxcts" run --runner "$runner" --reports "$reports" "$@")
}

# same_report A.json B.json: the two runs' results and claims are equal, case for case, field for field.
same_report() {
  python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def cases(r): return {(x["kernel"], x["case"]): x for x in r["results"]}
def claims(r): return {c["id"]: c for c in r["claims"]}
bad = []
for name, f in (("case", cases), ("claim", claims)):
    x, y = f(a), f(b)
    for k in sorted(set(x) | set(y), key=str):
        if x.get(k) != y.get(k):
            bad.append(f"{name} {k}: {x.get(k)} != {y.get(k)}")
if a["totals"] != b["totals"]:
    bad.append(f"totals {a['totals']} != {b['totals']}")
n = len(a["results"])
if n == 0 or not any(x["status"] == "pass" for x in a["results"]):
    bad.append("no case passed: nothing was compared")
for line in bad[:20]:
    print(line)
print(f"{n} cases and {len(a['claims'])} claims compared, {len(bad)} differ")
sys.exit(1 if bad else 0)
PY
}

# The build tree's report of the catalog the package was made from (once, for tgz and deb).
build_tree_report() {
  local ref="$out/build-tree-reports"
  if [ ! -f "$ref/done" ]; then
    rm -rf "$ref"
    PTXCTS_FAKE_MODE=model "$build/harness/ptxcts" run --no-assemble --catalog "$build/catalog-release" \
      --runner "$runner" --reports "$ref" > "$out/build-tree-run.log" 2>&1
    [ $? = 0 ] || fail "the build tree's run failed: $(tail -5 "$out/build-tree-run.log")"
    touch "$ref/done"
  fi
  ls "$ref"/*.json | grep -v journal | head -1
}

case "$mode" in
build)
  rm -rf "$out"
  mkdir -p "$out"
  start=$(date +%s.%N)
  cpack --config "$build/CPackConfig.cmake" -B "$out" > "$out/cpack.log" 2>&1 || { tail -30 "$out/cpack.log"; fail "cpack failed"; }
  end=$(date +%s.%N)
  [ -f "$(archive)" ] && [ -f "$(debfile)" ] || fail "cpack wrote no .tar.gz or no .deb: $(ls "$out")"
  printf 'package: %s (%s bytes) and %s (%s bytes) in %.1f s\n' "$(basename "$(archive)")" "$(stat -c %s "$(archive)")" \
    "$(basename "$(debfile)")" "$(stat -c %s "$(debfile)")" "$(awk "BEGIN { print $end - $start }")"
  ;;
tgz | deb)
  runner=$3
  if [ "$mode" = tgz ]; then
    prefix=$(unpack "$(archive)" "$odd")
  else
    command -v dpkg > /dev/null || { echo "SKIPPED: no dpkg to install the .deb with"; exit 77; }
    # The package does carry its documentation (so that its exclusion below is what is tested) ...
    docs=$(dpkg-deb -c "$(debfile)" | grep -c ' \./usr/share/doc/ptxcts/.*[^/]$')
    [ "$docs" -gt 0 ] || fail "the .deb holds no file under /usr/share/doc/ptxcts"
    # ... and a minimized image's dpkg leaves it out (its dpkg.cfg.d says path-exclude=/usr/share/doc/*):
    # dpkg -i into a private root with an empty database of its own, as that image's dpkg would
    # install it, but the dependencies (libc6, libstdc++6: this machine's, not the private root's).
    root="$odd/root"
    mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" && touch "$root/var/lib/dpkg/status"
    dpkg --force-not-root --force-depends --root="$root" --log=/dev/null --path-exclude='/usr/share/doc/*' \
      -i "$(debfile)" > "$work/dpkg.log" 2>&1 || fail "dpkg -i into $root failed: $(cat "$work/dpkg.log")"
    prefix="$root/usr"
    [ -z "$(ls -A "$prefix/share/doc" 2> /dev/null)" ] ||
      fail "dpkg installed documentation despite --path-exclude: $(ls -A "$prefix/share/doc")"
    # Said once, by --version, and by no other command (below: not by run).
    v=$(env -i "$prefix/bin/ptxcts" --version) || fail "--version of the docless install failed: $v"
    echo "$v"
    echo "$v" | grep -Eq "^documentation: not installed \($docs of its $docs files of share/doc/ptxcts absent" ||
      fail "--version does not say that the $docs documentation files are absent: $v"
    # The .deb asks for the C library its programs were linked against, no older.
    need=$(objdump -T "$prefix"/bin/* "$prefix"/lib/ptxcts/* 2> /dev/null | grep -o 'GLIBC_[0-9.]*' | sort -V | tail -1)
    depends=$(dpkg-deb -f "$(debfile)" Depends)
    echo "$depends" | grep -q "libc6 (>= ${need#GLIBC_})" || fail "the .deb depends on '$depends'; its programs need $need"
  fi
  # Nothing of the build beside it: the package's own programs, its libraries in lib/ptxcts.
  [ -x "$prefix/bin/ptxcts" ] && [ -x "$prefix/bin/ptxcts-device" ] || fail "no bin/ptxcts or bin/ptxcts-device in $prefix"
  ldd "$prefix/bin/ptxcts" | grep -q "not found" && fail "bin/ptxcts needs a library that is not there: $(ldd "$prefix/bin/ptxcts")"
  run_alone "$prefix" "$runner" "$odd/reports" -v > "$work/run.log" 2>&1  # -v: the audit's own line
  rc=$?
  tail -4 "$work/run.log"
  [ "$rc" = 0 ] || fail "the packaged run exited $rc: $(tail -20 "$work/run.log")"
  grep -n 'share/doc\|^documentation: ' "$work/run.log" && fail "the packaged run spoke of the documentation"
  # The claims' audit came from the shipped catalog's warm probes: no ptxas ran, none was missing.
  # (the line names the distinct probes and their modules since identical probes are judged once)
  grep -Eq '^audit: [0-9]+ probes \(ptxas [0-9.]+, [0-9]+ targets; [0-9]+ distinct, in [0-9]+ modules\): 0 ptxas runs, ' "$work/run.log" ||
    fail "the packaged run's audit was not warm: $(grep '^audit' "$work/run.log")"
  grep -q "no ptxas" "$work/run.log" && fail "the packaged run looked for ptxas: $(grep 'no ptxas' "$work/run.log")"
  report=$(ls "$odd/reports"/*.json | grep -v journal | head -1)
  [ -f "$report" ] || fail "the packaged run wrote no report"
  same_report "$report" "$(build_tree_report)" || fail "the packaged run's report differs from the build tree's"
  ;;
paths)
  source_dir=$3
  prefix=$(unpack "$(archive)" "$work/unpacked")
  hits=$(find "$prefix" -type f -print0 | xargs -0 grep -l -a -F -e "$source_dir" -e "$build" 2>/dev/null)
  [ -z "$hits" ] || fail "files of the package name a folder of the building machine ($source_dir, $build): $hits"
  for f in "$prefix"/bin/*; do
    strings "$f" | grep -F -e "$source_dir" -e "$build" && fail "$f names a folder of the building machine"
  done
  echo "no file of $(find "$prefix" -type f | wc -l) names $source_dir or $build"
  ;;
docs)
  prefix=$(unpack "$(archive)" "$work/unpacked")
  python3 "$3/harness/tests/docs/check_doc_links.py" --installed "$prefix" || fail "the release's documents have broken links"
  ;;
version)
  prefix=$(unpack "$(archive)" "$work/unpacked")
  v=$(env -i "$prefix/bin/ptxcts" --version) || fail "--version failed: $v"
  echo "$v"
  echo "$v" | grep -Eq '^ptxcts [0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-f]+' || fail "--version does not name the suite and commit"
  echo "$v" | grep -Eq '^catalog precompiled by CUDA [0-9.]+ \(ptxas [0-9.]+, PTX ISA [0-9.]+\) for sm_' ||
    fail "--version does not name the toolkit of the shipped catalog"
  ;;
refusals)
  runner=$3
  # expect NAME REGEX PREFIX [options]: exit 2, the message, and no report written.
  expect() {
    local name=$1 regex=$2 prefix=$3
    shift 3
    rm -rf "$work/reports"
    out_text=$(run_alone "$prefix" "$runner" "$work/reports" "$@" 2>&1)
    rc=$?
    [ "$rc" = 2 ] || fail "$name: exit $rc, expected 2: $out_text"
    echo "$out_text" | grep -Eq "$regex" || fail "$name: the message does not say so: $out_text"
    [ "$(echo "$out_text" | grep -c '^error: ')" = 1 ] || fail "$name: not one message: $out_text"
    [ ! -e "$work/reports" ] || fail "$name: reports were written"
    echo "$name: $(echo "$out_text" | cut -c1-200)..."
  }
  good=$(unpack "$(archive)" "$work/good")
  # A catalog of another suite version (another commit, other specs) given with --catalog.
  cp -r "$good/share/ptxcts/catalog" "$work/other-catalog"
  rm -f "$work/other-catalog/manifest.index"
  python3 - "$work/other-catalog/manifest.json" <<'PY' || fail "cannot make the other catalog"
import json, sys
p = sys.argv[1]; m = json.load(open(p))
m["origin"].update(suite_commit="0000000", specs="0" * 32)
json.dump(m, open(p, "w"))
PY
  expect other-suite-catalog "is not this suite's: ptxcts .* \(commit 0000000\) assembled it, .*; it was made from other specs" "$good" --catalog "$work/other-catalog"
  # The package's files under another version's program: release.json of another commit.
  other=$(unpack "$(archive)" "$work/other-version")
  python3 - "$other/share/ptxcts/release.json" <<'PY' || fail "cannot edit release.json"
import json, sys
p = sys.argv[1]; m = json.load(open(p)); m["suite_commit"] = "0000000"; json.dump(m, open(p, "w"))
PY
  expect other-version-files "holds the files of ptxcts .* \(commit 0000000\), but this program is" "$other"
  # Unpacked without its catalog.
  mkdir -p "$work/no-catalog"
  tar xzf "$(archive)" -C "$work/no-catalog" --exclude='*/share/ptxcts/catalog' || fail "cannot unpack"
  expect no-catalog "the package's catalog is missing" "$(ls -d "$work"/no-catalog/ptxcts-*)"
  # A cut-short archive: tar says so, and what it left is refused. The archive's order is the file
  # system's (CPack reads the staging folder as it lies), so a cut may also take the programs, and
  # then the shell says there is no bin/ptxcts; here the programs are given back whole to what the
  # cut left, so that the rest (specs, catalog) is what is missing or cut short.
  # The cut is placed where it takes something besides the programs (which may lie last in the
  # archive): the first of 20%, 40%, ... that leaves share/ptxcts short of a file or a byte (what
  # share/doc lacks, no command needs: a package without its documentation runs, package.deb).
  size=$(stat -c %s "$(archive)")
  full=$(cd "$good" && find share/ptxcts -type f -printf '%p %s\n' | sort | md5sum)
  for percent in 20 40 60 80 90; do
    rm -rf "$work/cut" && mkdir -p "$work/cut"
    head -c $((size * percent / 100)) "$(archive)" | tar xzf - -C "$work/cut" 2> /dev/null && fail "tar took a cut archive"
    cut_prefix="$work/cut/$(basename "$good")"
    mkdir -p "$cut_prefix"
    left=$( (cd "$cut_prefix" && find share/ptxcts -type f -printf '%p %s\n' 2> /dev/null) | sort | md5sum)
    [ "$left" != "$full" ] && break
  done
  [ "$left" != "$full" ] || fail "no cut of the archive left its share/ptxcts folder short"
  rm -rf "$cut_prefix/bin" "$cut_prefix/lib"
  cp -a "$good/bin" "$good/lib" "$cut_prefix/"
  expect cut-archive "(release package is incomplete|is incomplete or damaged)" "$cut_prefix"
  # What a command needs, missing one file, is refused as a cut archive is (only documentation may be
  # absent): a spec, a kernel skeleton, a cubin of the catalog.
  for needed in share/ptxcts/specs/ldmatrix.yaml \
    "$(cd "$good" && find share/ptxcts/kernels -type f | sort | head -1)" \
    "$(cd "$good" && find share/ptxcts/catalog -name '*.cubin' | sort | head -1)"; do
    [ -f "$good/$needed" ] || fail "the package has no $needed to take away"
    mv "$good/$needed" "$work/taken"
    expect "missing ${needed%%/*}/.../$(basename "$needed")" "is incomplete or damaged .*, 1 missing and 0 cut short or changed \(first: ${needed//./\\.}: missing\)" "$good"
    mv "$work/taken" "$good/$needed"
  done
  ;;
ctest)
  prefix=$(unpack "$(archive)" "$work/unpacked")
  tests="$prefix/share/ptxcts/tests"
  listed=$(ctest --test-dir "$tests" -N -L gpu | grep -c 'conformance\.')
  [ "$listed" = 5 ] || fail "the packaged CTest folder lists $listed gpu tests, expected 5 (a family each): $(ctest --test-dir "$tests" -N)"
  one=$(ctest --test-dir "$tests" -N -L ldmatrix)
  echo "$one" | grep -q 'conformance.ldmatrix' || fail "no label per family: $one"
  result=$(env -i PATH=/usr/bin:/bin "$(command -v ctest)" --test-dir "$tests" -L gpu -V 2>&1)
  rc=$?
  echo "$result" | tail -8
  [ "$rc" = 0 ] || fail "ctest -L gpu in the package exited $rc"
  if ! ls /dev/nvidia0 > /dev/null 2>&1; then
    [ "$(echo "$result" | grep -c 'Skipped')" -ge 4 ] || fail "without a GPU the 4 families must skip"
    echo "$result" | grep -q "SKIPPED: " || fail "a skip must say why"
  fi
  ;;
*)
  fail "unknown mode $mode"
  ;;
esac
