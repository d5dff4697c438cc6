#!/usr/bin/env bash
# Installs what the example tests need beyond npm packages: pytest-benchmark for the Python
# example. Go is used as found. Without python3 the Python example test skips with a message.
set -euo pipefail
if command -v python3 >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check -r "$(dirname "$0")/../examples/python-pytest/requirements.txt" \
    || echo "setup-examples: could not install pytest-benchmark; the Python example test will be skipped" >&2
fi
