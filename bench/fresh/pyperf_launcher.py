"""pairbench's bench:suites: jsonschema's own pyperf benchmarks (jsonschema/benchmarks/), one
benchmark per pyperf process.

    python3 pyperf_launcher.py [<module>/<benchmark> ...]   # none: every benchmark of MODULES

Each benchmark runs in a pyperf process of its own: the launcher starts this file again with the
benchmark's name in PAIRBENCH_PYPERF_BENCHMARK, where pyperf's Runner.bench_func runs that one
benchmark and skips the others (the module's code is run as written). The pyperf options come
from PAIRBENCH_PYPERF_ARGS (default: one worker process). Prints one pyperf JSON document holding
every benchmark run, each named `<module>/<benchmark>`.
"""

import json
import os
import runpy
import shlex
import subprocess
import sys
import tempfile

MODULES = ["const_vs_enum", "contains", "useless_keywords", "subcomponents"]
SELECT = "PAIRBENCH_PYPERF_BENCHMARK"
LIST = "PAIRBENCH_PYPERF_LIST"


def run_selected(selected):
    """In a pyperf process: run the module of `selected` with only its benchmark."""
    import pyperf

    module, name = selected.split("/", 1)
    original = pyperf.Runner.bench_func

    def only(self, bench_name, *args, **kwargs):
        if bench_name != name:
            return None
        return original(self, f"{module}/{bench_name}", *args, **kwargs)

    pyperf.Runner.bench_func = only
    runpy.run_module(f"jsonschema.benchmarks.{module}", run_name="__main__")


def list_module(module):
    """In a listing process: the names the module's benchmarks have, none of them run."""
    import pyperf

    class Lister:
        def __init__(self, *args, **kwargs):
            pass

        def bench_func(self, name, *args, **kwargs):
            print(f"{module}/{name}")

    pyperf.Runner = Lister
    runpy.run_module(f"jsonschema.benchmarks.{module}", run_name="__main__")


def main(names):
    if not names:
        for module in MODULES:
            listed = subprocess.run([sys.executable, __file__], env={**os.environ, LIST: module}, check=True, capture_output=True, text=True)
            names += listed.stdout.split("\n")[:-1]
    pyperf_args = shlex.split(os.environ.get("PAIRBENCH_PYPERF_ARGS", "--processes 1"))
    merged = {"version": "1.0", "metadata": {}, "benchmarks": []}
    with tempfile.TemporaryDirectory() as scratch:
        for i, name in enumerate(names):
            out = os.path.join(scratch, f"{i}.json")
            command = [sys.executable, __file__, "--quiet", "--output", out, "--inherit-environ", f"{SELECT},PYTHONPATH", *pyperf_args]
            subprocess.run(command, env={**os.environ, SELECT: name}, check=True, stdout=sys.stderr)
            with open(out) as f:
                doc = json.load(f)
            for bench in doc["benchmarks"]:
                merged["benchmarks"].append({**bench, "metadata": {**doc.get("metadata", {}), **bench.get("metadata", {})}})
    json.dump(merged, sys.stdout)


if __name__ == "__main__":
    if os.environ.get(LIST):
        list_module(os.environ[LIST])
    elif os.environ.get(SELECT):
        run_selected(os.environ[SELECT])
    else:
        main(sys.argv[1:])
