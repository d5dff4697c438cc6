#!/usr/bin/env bash
# Installs what the example tests need beyond the repository's own npm packages: pytest-benchmark
# and pyperf for the Python examples (PyPI), and the JavaScript examples' npm packages (vitest,
# mitata, benchmark.js: `npm ci` in examples/<name>/, from each one's package-lock.json; base/ and
# head/ resolve them from there). Go is used as found. Without python3 the Python example tests
# skip with a message (and fail under CI=true).
set -euo pipefail
EX="$(cd "$(dirname "$0")/../examples" && pwd)"
if command -v python3 >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check -r "$EX/python-pytest/requirements.txt" -r "$EX/pyperf-suite/requirements.txt" \
    || echo "setup-examples: could not install pytest-benchmark and pyperf; the Python example tests will be skipped" >&2
fi
for example in vitest-suite mitata-suite benchmarkjs-suite; do
  npm ci --prefix "$EX/$example" --silent --no-audit --no-fund
done
