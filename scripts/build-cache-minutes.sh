#!/bin/sh
# The base build time the build cache saves, on an example: two runs of pairbench compare on a
# git repository made of the example's base/ and head/, the first with an empty --build-cache-dir
# (cold: the base is built and saved), the second with the filled one (warm: the base's outputs
# are restored and its build skipped). Each log line is timestamped; the base's phase is the time
# from the worktrees' checkout to the head's build. Pairs are fixed (3), so the measuring time is
# the same work in both runs.
#
#   scripts/build-cache-minutes.sh rust-criterion
#   scripts/build-cache-minutes.sh cpp-google-benchmark
set -eu
example=$1
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case $example in
  rust-criterion)
    build='cargo bench --no-run --bench kernels 2>&1 | tee cargo-build.log && mkdir -p build && cp "$(sed -n "s/.*Executable .*(\(.*\))$/\1/p" cargo-build.log | tail -n 1)" build/kernels'
    run='./build/kernels --bench --output-format bencher {filter}'
    format=bencher ;;
  cpp-google-benchmark)
    build='make'
    run='./build/bench --benchmark_format=json --benchmark_filter={filter} --benchmark_min_time=0.05 --benchmark_repetitions=3'
    format=google-benchmark ;;
  *) echo "unknown example $example" >&2; exit 2 ;;
esac
repo=$work/repo
mkdir "$repo"
cp -R "$root/examples/$example/base/." "$repo/"
git -C "$repo" init -q -b main
git -C "$repo" add -A
git -C "$repo" -c user.email=m@pairbench.invalid -c user.name=m commit -qm base
rm -rf "$repo"/* && cp -R "$root/examples/$example/head/." "$repo/"
git -C "$repo" add -A
git -C "$repo" -c user.email=m@pairbench.invalid -c user.name=m commit -qm head
node=$root/node_modules/node/bin/node
stamp() { while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done; }
phase() {
  # seconds from the worktrees' line to the head's build
  awk '/worktrees in/ { a = $1 } /Building head/ { b = $1 } END { printf "%.1f", b - a }' "$1"
}
for run_name in cold warm; do
  start=$(date +%s.%N)
  (cd "$repo" && "$node" "$root/src/cli.ts" compare --base HEAD~1 --head HEAD --build "$build" \
      --build-cache build/ --build-cache-dir "$work/cache" --run "$run" --format "$format" \
      --min-pairs 3 --max-pairs 3 --threshold 5% --out "$work/$run_name.json" --quiet 2>&1 >/dev/null) | stamp > "$work/$run_name.log" || true
  end=$(date +%s.%N)
  printf '%s: base phase %s s, whole run %.1f s\n' "$run_name" "$(phase "$work/$run_name.log")" "$(echo "$end - $start" | bc)"
  grep -E 'build cache|build outputs' "$work/$run_name.log" | cut -d' ' -f2- | sed 's/^/  /'
done
