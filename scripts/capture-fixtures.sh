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
# java 17 + mvn (JMH from Maven Central).
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
