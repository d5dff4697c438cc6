#!/usr/bin/env bash
# Installs, each only when it is missing, every tool the test suite runs beyond the npm packages,
# so that `CI=true npm test` runs every test (under CI=true a test whose tool is missing fails):
#
#   Linux (apt-get, once): libbenchmark-dev (C++ example), catch2 (Catch2 example), hyperfine, valgrind (instruction counts),
#                          chromium (browser tests; a Chrome already there will do), a C/C++ compiler, make,
#                          util-linux's taskset (the example tests bind each to a core of its own)
#   macOS (Homebrew):      google-benchmark, hyperfine (valgrind does not exist there: the
#                          instruction-count tests are Linux-only)
#   PyPI:                  pytest, pytest-benchmark and pyperf (scripts/setup-examples.sh)
#   npm registry:          the JavaScript examples' packages (vitest, mitata, benchmark.js), `npm ci` in
#                          each examples/<name>/ (scripts/setup-examples.sh)
#   Go module proxy:       actionlint, pinned (go install; Go itself must be there, as on GitHub's runners)
#   crates.io:             cargo-criterion, pinned (Rust example; cargo must be there)
#   npm registry:          Node.js 20, 22 and 26 from the `node` package, once per machine into the user's
#                          cache folder, linked from .cache/node-<major>/ (the
#                          npm package is tested on 22 and 24, and must refuse 20 with one line;
#                          26 runs examples/node-bench-suite, whose node:bench needs Node 26.9 or later).
#                          Not devDependencies: every `node` package links the same bin name `node`,
#                          and which one node_modules/.bin/node then runs would be left to chance.
#
# Every step prints how long it took. Already-installed tools cost nothing, so a second run is fast.
set -euo pipefail
cd "$(dirname "$0")/.."

ACTIONLINT_VERSION=v1.7.12
CARGO_CRITERION_VERSION=1.1.0

took() { echo "setup-ci: $1: $(($(date +%s) - $2)) s" >&2; }
have() { command -v "$1" >/dev/null 2>&1; }
fail() { echo "setup-ci: $*" >&2; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif have sudo; then sudo "$@"; else fail "need root (or sudo) to run: $*"; fi; }

case "$(uname -s)" in
  Linux)
    pkgs=()
    [ -f /usr/include/benchmark/benchmark.h ] || pkgs+=(libbenchmark-dev)
    [ -f /usr/include/catch2/catch.hpp ] || pkg-config --exists catch2-with-main 2>/dev/null || pkgs+=(catch2)
    have hyperfine || pkgs+=(hyperfine)
    have valgrind || pkgs+=(valgrind)
    have chromium || have chromium-browser || have google-chrome || pkgs+=(chromium)
    have cc || pkgs+=(gcc)
    have g++ || pkgs+=(g++)
    have make || pkgs+=(make)
    have taskset || pkgs+=(util-linux)
    if [ ${#pkgs[@]} -gt 0 ]; then
      have apt-get || fail "missing ${pkgs[*]} and no apt-get to install them: install them with your package manager"
      t=$(date +%s)
      as_root apt-get update -qq
      as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
      took "apt-get install ${pkgs[*]}" "$t"
    fi
    ;;
  Darwin)
    pkgs=()
    brew list google-benchmark >/dev/null 2>&1 || pkgs+=(google-benchmark)
    brew list catch2 >/dev/null 2>&1 || pkgs+=(catch2)
    have hyperfine || pkgs+=(hyperfine)
    if [ ${#pkgs[@]} -gt 0 ]; then
      have brew || fail "missing ${pkgs[*]} and no Homebrew to install them"
      t=$(date +%s)
      HOMEBREW_NO_AUTO_UPDATE=1 brew install --quiet "${pkgs[@]}"
      took "brew install ${pkgs[*]}" "$t"
    fi
    ;;
  *) fail "pairbench's tests run on Linux and macOS; $(uname -s) is not supported" ;;
esac

js_examples_installed() {
  local e
  for e in vitest-suite/node_modules/vitest mitata-suite/node_modules/mitata benchmarkjs-suite/node_modules/benchmark; do
    [ -f "examples/$e/package.json" ] || return 1
  done
}
if ! python3 -c 'import pytest, pytest_benchmark, pyperf' >/dev/null 2>&1 || ! js_examples_installed; then
  t=$(date +%s)
  bash scripts/setup-examples.sh
  python3 -c 'import pytest, pytest_benchmark, pyperf' || fail "pytest-benchmark or pyperf did not install (python3 -m pip install -r examples/python-pytest/requirements.txt -r examples/pyperf-suite/requirements.txt)"
  js_examples_installed || fail "the JavaScript examples' npm packages did not install (npm ci --prefix examples/<name>)"
  took "pip install pytest-benchmark pyperf; npm ci in the JavaScript examples" "$t"
fi

have go || fail "Go is missing (https://go.dev/dl/): the Go example and actionlint need it"
GOBIN_DIR="$(go env GOPATH | cut -d: -f1)/bin"
if ! have actionlint && [ ! -x "$GOBIN_DIR/actionlint" ]; then
  t=$(date +%s)
  go install "github.com/rhysd/actionlint/cmd/actionlint@$ACTIONLINT_VERSION"
  took "go install actionlint@$ACTIONLINT_VERSION" "$t"
fi

have cargo || fail "cargo is missing (https://rustup.rs): the Rust example needs it"
if ! cargo criterion --version >/dev/null 2>&1; then
  t=$(date +%s)
  cargo install --quiet --locked cargo-criterion --version "$CARGO_CRITERION_VERSION"
  took "cargo install cargo-criterion@$CARGO_CRITERION_VERSION" "$t"
fi

# the Node.js downloads run side by side; each is ~25 s of waiting on the network
pids=()
# (major.minor: the least version each one must be; node:bench came in 26.9)
node_ok() { # node_ok BIN MAJOR MINOR: BIN runs and is vMAJOR.x with x >= MINOR
  local v
  v=$("$1" --version 2>/dev/null) || return 1
  [[ $v =~ ^v$2\.([0-9]+)\. ]] && (( BASH_REMATCH[1] >= $3 ))
}
# Each is installed once per machine, into the user's cache folder (as .ci/run keeps cargo's target
# folder there), and .cache/node-<major> of this clone links to it: unpacking three Node.js builds
# took 10 s of every fresh clone's CI.
machine_cache="${XDG_CACHE_HOME:-$HOME/.cache}/pairbench"
for wanted in 20.0 22.0 26.9; do
  major=${wanted%.*} minor=${wanted#*.}
  dir=".cache/node-$major"
  shared="$machine_cache/node-$major"
  if ! node_ok "$dir/node_modules/node/bin/node" "$major" "$minor"; then
    (
      t=$(date +%s)
      if ! node_ok "$shared/node_modules/node/bin/node" "$major" "$minor"; then
        # installed beside, then renamed into place whole, so that a clone's setup running at once never sees half of it
        partial="$shared.$$"
        rm -rf "$partial"
        mkdir -p "$partial"
        printf '{ "private": true, "dependencies": { "node": "^%s.0" }, "allowScripts": { "node": true } }\n' "$wanted" > "$partial/package.json"
        npm install --prefix "$partial" --no-audit --no-fund --no-package-lock --loglevel=error >/dev/null
        rm -rf "$shared"
        mv "$partial" "$shared"
      fi
      rm -rf "$dir"
      mkdir -p .cache
      ln -s "$shared" "$dir"
      node_ok "$dir/node_modules/node/bin/node" "$major" "$minor" || fail "Node.js $wanted or a later $major.x did not install into $shared"
      took "node@^$wanted in $shared, linked from $dir" "$t"
    ) &
    pids+=($!)
  fi
done
for pid in "${pids[@]}"; do wait "$pid"; done
