"""pairbench's bench:suites: jsonschema's own pyperf benchmarks (jsonschema/benchmarks/), one
benchmark per pyperf process.

    python3 pyperf_launcher.py [<module>/<benchmark> ...] [<pyperf option> ...]   # no names: every benchmark of MODULES

Each benchmark runs in a pyperf process of its own: the launcher starts this file again with the
benchmark's name in PAIRBENCH_PYPERF_BENCHMARK, where pyperf's Runner.bench_func runs that one
benchmark and skips the others (the module's code is run as written). The pyperf options come
from PAIRBENCH_PYPERF_ARGS (default: one worker process), then the options after the names (from
the first argument that starts with `-`: the flags pairbench appends to size a run, which come last
and so win, as in a pyperf Runner script of one's own). Prints one pyperf JSON document holding
every benchmark run, each named `<module>/<benchmark>`.

Without names (pairbench's listing run, which learns the names and warms up), each module runs
whole in one pyperf process, with the options given (pairbench's listing of a designed run: one
value of about 10 ms per benchmark), else with --debug-single-value (one value of one loop per
benchmark): the listing costs four pyperf processes and their workers, not eighteen measured runs.
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


def run_selected(selected):
    """In a pyperf process: run the module of `selected` with only its benchmark."""
    import pyperf

    module, name = selected.split("/", 1)
    original = pyperf.Runner.bench_func

    def only(self, bench_name, *args, **kwargs):
        if name != "*" and bench_name != name:
            return None
        return original(self, f"{module}/{bench_name}", *args, **kwargs)

    pyperf.Runner.bench_func = only
    runpy.run_module(f"jsonschema.benchmarks.{module}", run_name="__main__")


def main(argv):
    at = next((i for i, a in enumerate(argv) if a.startswith("-")), len(argv))
    names, options = argv[:at], argv[at:]
    pyperf_args = shlex.split(os.environ.get("PAIRBENCH_PYPERF_ARGS", "--processes 1")) + options
    if not names:
        names = [f"{module}/*" for module in MODULES]
        pyperf_args = options or ["--debug-single-value"]
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
    if os.environ.get(SELECT):
        run_selected(os.environ[SELECT])
    else:
        main(sys.argv[1:])
