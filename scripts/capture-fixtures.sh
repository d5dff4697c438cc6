#!/usr/bin/env bash
# Re-captures the real harness outputs that tests/harness parses, by running the real tools.
#
#   bash scripts/capture-fixtures.sh            # every format whose toolchain is installed
#   bash scripts/capture-fixtures.sh go jmh     # only these formats
#   bash scripts/capture-fixtures.sh go/test2json   # only this fixture
#
# Each fixture tests/fixtures/harness/<format>/<name>.<ext> is the stdout of one command, and
# <name>.cmd next to it records the directory (relative to the repository) and that exact command.
# A format whose tool is missing is skipped with a note and keeps its old fixtures.
# After re-capturing, tests/harness/fixtures.test.ts checks names and units (values change with
# every run, so those tests check ranges, not exact numbers).
#
# Tools (Debian bookworm): go; cargo (criterion from crates.io; cargo install cargo-criterion);
# python3 -m pip install pytest pytest-benchmark; apt-get install -y libbenchmark-dev hyperfine;
# java 17 + mvn (JMH from Maven Central); node and npm (vitest, mitata, benchmark.js from the npm
# registry, each pinned by a package-lock.json: `npm ci` installs them); apt-get install -y catch2
# (Catch2 v2 on Debian 12; for the v3 fixtures set CATCH2_V3_SRC to Catch2 v3's source tree, whose
# extras/ holds the amalgamated catch_amalgamated.{hpp,cpp}: `apt-get source catch2` from Debian 13);
# python3 -m pip install pyperf; Node.js 26 in .cache/node-26 (scripts/setup-ci.sh) for node:bench.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FIX="$ROOT/tests/fixtures/harness"
EX="$ROOT/examples"
cd "$ROOT"

SELECTED=("$@")
want_format() { # true when nothing was named, or this format or one of its fixtures was
  [ "${#SELECTED[@]}" -eq 0 ] && return 0
  local f
  for f in "${SELECTED[@]}"; do [ "$f" = "$1" ] || [ "${f%%/*}" = "$1" ] && return 0; done
  return 1
}
want_fixture() { # want_fixture <format> <name>
  [ "${#SELECTED[@]}" -eq 0 ] && return 0
  local f
  for f in "${SELECTED[@]}"; do [ "$f" = "$1" ] || [ "$f" = "$1/$2" ] && return 0; done
  return 1
}

have() { command -v "$1" >/dev/null 2>&1; }
skip() { echo "capture-fixtures: skipping $1: $2" >&2; }

# capture <format> <name> <ext> <dir> <command>: runs <command> with bash in <dir>, stdout to the fixture.
capture() {
  local format="$1" name="$2" ext="$3" dir="$4" cmd="$5"
  want_fixture "$format" "$name" || return 0
  mkdir -p "$FIX/$format"
  local out="$FIX/$format/$name.$ext" tmp
  tmp="$(mktemp)"
  echo "capture-fixtures: $format/$name.$ext  (cd ${dir#"$ROOT"/} && $cmd)" >&2
  if (cd "$dir" && bash -c "$cmd") >"$tmp"; then
    mv "$tmp" "$out"
    chmod 644 "$out"
    printf 'cd %s\n%s\n' "${dir#"$ROOT"/}" "$cmd" >"$FIX/$format/$name.cmd"
  else
    rm -f "$tmp"
    echo "capture-fixtures: FAILED: $format/$name" >&2
    return 1
  fi
}

# --- go ------------------------------------------------------------------------------------------
if want_format go; then
  if have go; then
    capture go example-suite txt "$EX/go-suite/base" \
      "go test -run '^\$' -bench . -benchtime 100ms -count 1 ."
    capture go benchmem-count3 txt "$FIX/go/src" \
      "go test -run '^\$' -bench . -benchtime 20ms -count 3 -benchmem ./..."
    capture go cpu-list txt "$FIX/go/src" \
      "go test -run '^\$' -bench 'Shared|Names' -benchtime 20ms -cpu 1,2 ./parse"
    capture go verbose txt "$FIX/go/src" \
      "go test -v -run '^\$' -bench 'Split' -benchtime 20ms ./parse"
    capture go test2json txt "$FIX/go/src" \
      "go test -json -run '^\$' -bench . -benchtime 20ms -benchmem ./..."
  else skip go "go is not installed"; fi
fi

# --- criterion (cargo-criterion's JSON messages) ---------------------------------------------------
if want_format criterion; then
  if have cargo && cargo criterion --version >/dev/null 2>&1; then
    capture criterion example-kernels jsonl "$EX/rust-criterion/base" \
      "cargo criterion --message-format=json --plotting-backend disabled --bench kernels 2>/dev/null"
  else skip criterion "cargo criterion is not installed (cargo install cargo-criterion --version 1.1.0 --locked)"; fi
fi

# --- bencher (libtest, and Criterion's bencher output) ----------------------------------------------
if want_format bencher; then
  if have cargo; then
    capture bencher criterion-bencher txt "$EX/rust-criterion/base" \
      "cargo bench -q --bench kernels -- --output-format bencher 2>/dev/null"
    capture bencher libtest txt "$FIX/bencher/src" \
      "RUSTC_BOOTSTRAP=1 cargo bench --bench libtest 2>/dev/null"
    capture bencher libtest-quiet txt "$FIX/bencher/src" \
      "RUSTC_BOOTSTRAP=1 cargo bench -q --bench libtest 2>/dev/null"
  else skip bencher "cargo is not installed"; fi
fi

# --- pytest-benchmark ----------------------------------------------------------------------------
if want_format pytest-benchmark; then
  if have python3 && python3 -c 'import pytest_benchmark' 2>/dev/null; then
    capture pytest-benchmark example-kernels json "$EX/python-pytest/base" \
      "python3 -m pytest -q --benchmark-json=.benchmarks/run.json >&2 && cat .benchmarks/run.json"
  else skip pytest-benchmark "python3 -m pip install pytest pytest-benchmark"; fi
fi

# --- google-benchmark ----------------------------------------------------------------------------
if want_format google-benchmark; then
  if [ -e /usr/include/benchmark/benchmark.h ] && have make; then
    capture google-benchmark single json "$EX/cpp-google-benchmark/base" \
      "make -s >&2 && ./build/bench --benchmark_format=json --benchmark_min_time=0.05"
    capture google-benchmark repetitions json "$EX/cpp-google-benchmark/base" \
      "make -s >&2 && ./build/bench --benchmark_format=json --benchmark_min_time=0.02 --benchmark_repetitions=3"
    capture google-benchmark aggregates-only json "$EX/cpp-google-benchmark/base" \
      "make -s >&2 && ./build/bench --benchmark_format=json --benchmark_min_time=0.02 --benchmark_repetitions=3 --benchmark_report_aggregates_only=true"
  else skip google-benchmark "apt-get install -y libbenchmark-dev"; fi
fi

# --- hyperfine -----------------------------------------------------------------------------------
if want_format hyperfine; then
  if have hyperfine; then
    capture hyperfine commands json "$FIX/hyperfine" \
      "f=\$(mktemp) && hyperfine -N --runs 10 --warmup 2 --export-json \"\$f\" 'seq 200000' 'sort --version' >&2 && cat \"\$f\" && rm \"\$f\""
    capture hyperfine parameters json "$FIX/hyperfine" \
      "f=\$(mktemp) && hyperfine -N --runs 5 --export-json \"\$f\" --command-name seq -P n 1 3 'seq {n}00000' >&2 && cat \"\$f\" && rm \"\$f\""
  else skip hyperfine "apt-get install -y hyperfine"; fi
fi

# --- jmh -----------------------------------------------------------------------------------------
if want_format jmh; then
  if have mvn && have javac; then
    prepare='mvn -q -B dependency:copy-dependencies -DoutputDirectory=target/deps >&2 && cp="$(ls target/deps/*.jar | tr "\n" :)" && rm -rf target/classes && mkdir -p target/classes && javac -cp "$cp" -d target/classes $(find src/main/java -name "*.java") >&2'
    capture jmh kernels json "$FIX/jmh/src" \
      "$prepare && java -cp \"target/classes:\$cp\" org.openjdk.jmh.Main -f 1 -wi 1 -w 200ms -i 3 -r 200ms -rf json -rff target/jmh.json >&2 && cat target/jmh.json"
    capture jmh modes-gc json "$FIX/jmh/src" \
      "$prepare && java -cp \"target/classes:\$cp\" org.openjdk.jmh.Main 'Kernels.sortCopy' -p size=1000 -bm thrpt,avgt -prof gc -f 1 -wi 1 -w 200ms -i 3 -r 200ms -rf json -rff target/jmh.json >&2 && cat target/jmh.json"
  else skip jmh "mvn and a JDK are needed"; fi
fi

# --- json (pairbench's own format) -----------------------------------------------------------------
if want_format json; then
  if have node; then
    capture json node-suite json "$EX/node-suite/base" "node bench.mjs"
  else skip json "node is not installed"; fi
fi

# npm_ci <dir>: the fixture's npm packages from its package-lock.json, quietly (stdout is the fixture)
npm_ci='npm ci --silent --no-audit --no-fund >&2'

# --- vitest (vitest 5's JSON reporter; vitest 4's --outputJson) --------------------------------------
if want_format vitest; then
  if have npm; then
    # the repository's own vitest (a devDependency) runs the fixture project under tests/
    capture vitest example-suite json "$EX/vitest-suite/base" \
      "(cd .. && $npm_ci) && npx vitest bench --run --reporter=json --outputFile=build/bench.json >&2 && cat build/bench.json"
    capture vitest groups-no-samples json "$FIX/vitest/src" \
      "npx vitest bench --run --reporter=json --outputFile=build/bench.json >&2 && cat build/bench.json"
    capture vitest groups-samples json "$FIX/vitest/src" \
      "RETAIN_SAMPLES=1 npx vitest bench --run -t '^parse > json > small$' --reporter=json --outputFile=build/bench.json >&2 && cat build/bench.json"
    capture vitest v4-outputjson json "$FIX/vitest/v4" \
      "$npm_ci && npx vitest bench --run --outputJson build/bench.json >&2 && cat build/bench.json"
  else skip vitest "node and npm are needed"; fi
fi

# --- mitata (run({ format: 'json' })) ------------------------------------------------------------
if want_format mitata; then
  if have npm; then
    capture mitata example-suite json "$EX/mitata-suite/base" "(cd .. && $npm_ci) && node bench.mjs"
    capture mitata groups-args json "$FIX/mitata/src" "$npm_ci && node groups.mjs"
  else skip mitata "node and npm are needed"; fi
fi

# --- node-bench (node:bench's json reporter, Node 26.9 or later: scripts/setup-ci.sh installs it) ---
if want_format node-bench; then
  node26="$ROOT/.cache/node-26/node_modules/node/bin"
  if [ -x "$node26/node" ]; then
    PATH="$node26:$PATH" capture node-bench example-suite jsonl "$EX/node-bench-suite/base" \
      "node --experimental-bench --bench --bench-reporter=json kernels.bench.mjs"
    # a/parse.bench.mjs has a benchmark that throws, so the runner exits 1
    PATH="$node26:$PATH" capture node-bench suites-params-error jsonl "$FIX/node-bench/src" \
      "node --experimental-bench --bench --bench-reporter=json --bench-samples=5 a/parse.bench.mjs b/parse.bench.mjs || [ \$? = 1 ]"
  else skip node-bench "Node.js 26 is needed in .cache/node-26 (bash scripts/setup-ci.sh)"; fi
fi

# --- benchmark.js (the cycle lines: String(event.target)) ------------------------------------------
if want_format benchmarkjs; then
  if have npm; then
    capture benchmarkjs example-suite txt "$EX/benchmarkjs-suite/base" "(cd .. && $npm_ci) && node bench.mjs"
    capture benchmarkjs errors txt "$FIX/benchmarkjs/src" "$npm_ci && node suite.mjs"
  else skip benchmarkjs "node and npm are needed"; fi
fi

# --- catch2 (-r xml, and the console reporter) ----------------------------------------------------
if want_format catch2; then
  rm -rf "$EX/catch2-suite/base/build" "$FIX/catch2/src/build" # a binary of the other Catch2 version
  if { [ -e /usr/include/catch2/catch.hpp ] || pkg-config --exists catch2-with-main 2>/dev/null; } && have make; then
    capture catch2 v2-example-xml xml "$EX/catch2-suite/base" \
      "make -s >&2 && ./build/bench '[!benchmark]' -r xml --benchmark-samples 20 --benchmark-warmup-time 20"
    capture catch2 v2-example-console txt "$EX/catch2-suite/base" \
      "make -s >&2 && ./build/bench '[!benchmark]' --benchmark-samples 20 --benchmark-warmup-time 20"
    capture catch2 v2-sections-xml xml "$FIX/catch2/src" \
      "make -s >&2 && ./build/bench '[!benchmark]' -r xml --benchmark-samples 5 --benchmark-warmup-time 5"
    capture catch2 v2-sections-console txt "$FIX/catch2/src" \
      "make -s >&2 && ./build/bench '[!benchmark]' --benchmark-samples 5 --benchmark-warmup-time 5"
    capture catch2 v2-no-analysis-xml xml "$FIX/catch2/src" \
      "make -s >&2 && ./build/bench '[!benchmark]' -r xml --benchmark-no-analysis --benchmark-samples 5 --benchmark-warmup-time 5"
  else skip catch2 "apt-get install -y catch2 make"; fi
  if [ -n "${CATCH2_V3_SRC:-}" ] && [ -e "$CATCH2_V3_SRC/extras/catch_amalgamated.cpp" ]; then
    # Catch2 v3 from its amalgamated sources, compiled once; bench.cc finds it as <catch2/catch_all.hpp>
    v3="$(mktemp -d)"
    mkdir -p "$v3/include/catch2"
    cp "$CATCH2_V3_SRC"/extras/catch_amalgamated.* "$v3/"
    echo '#include "../../catch_amalgamated.hpp"' >"$v3/include/catch2/catch_all.hpp"
    g++ -O2 -std=c++17 -c "$v3/catch_amalgamated.cpp" -o "$v3/catch_amalgamated.o"
    export CATCH2_V3_BUILD="$v3"
    v3make='make -s -B build/bench CXXFLAGS="-O2 -std=c++17 -I$CATCH2_V3_BUILD/include" CATCH2_LIBS="$CATCH2_V3_BUILD/catch_amalgamated.o" >&2'
    capture catch2 v3-example-xml xml "$EX/catch2-suite/base" \
      "$v3make && ./build/bench '[!benchmark]' -r xml --benchmark-samples 20 --benchmark-warmup-time 20"
    capture catch2 v3-example-console txt "$EX/catch2-suite/base" \
      "$v3make && ./build/bench '[!benchmark]' --benchmark-samples 20 --benchmark-warmup-time 20"
    capture catch2 v3-sections-xml xml "$FIX/catch2/src" \
      "$v3make && ./build/bench '[!benchmark]' -r xml --benchmark-samples 5 --benchmark-warmup-time 5"
    capture catch2 v3-sections-console txt "$FIX/catch2/src" \
      "$v3make && ./build/bench '[!benchmark]' --benchmark-samples 5 --benchmark-warmup-time 5"
    rm -rf "$v3" "$EX/catch2-suite/base/build" "$FIX/catch2/src/build"
  else skip "catch2 v3" "set CATCH2_V3_SRC to a Catch2 v3 source tree (apt-get source catch2 on Debian 13)"; fi
fi

# --- pyperf (the JSON document of --output) ----------------------------------------------------------
if want_format pyperf; then
  if have python3 && python3 -c 'import pyperf' 2>/dev/null; then
    pyperf_opts='--quiet --processes 3 --values 3 --warmups 1 --min-time 0.02'
    capture pyperf example-suite json "$EX/pyperf-suite/base" \
      "mkdir -p build && rm -f build/bench.json && python3 bench.py $pyperf_opts --output build/bench.json >&2 && cat build/bench.json"
    capture pyperf one-benchmark json "$EX/pyperf-suite/base" \
      "mkdir -p build && rm -f build/bench.json && python3 bench.py $pyperf_opts --output build/bench.json sort_10000 >&2 && cat build/bench.json"
    capture pyperf timeit json "$FIX/pyperf" \
      "f=\$(mktemp -u) && python3 -m pyperf timeit $pyperf_opts --name 'sorted(1000)' -s 'xs = list(range(1000, 0, -1))' 'sorted(xs)' --output \"\$f\" >&2 && cat \"\$f\" && rm \"\$f\""
  else skip pyperf "python3 -m pip install pyperf"; fi
fi
