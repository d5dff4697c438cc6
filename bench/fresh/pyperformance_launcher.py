"""pairbench's bench: pyperformance's own benchmark scripts (pyperformance/data-files/benchmarks/
bm_*/run_benchmark.py, pyperf Runner scripts of the CPython performance suite), run as written,
one benchmark per pyperf process.

    python3 pyperformance_launcher.py <benchmarks dir> [<benchmark> ...] [<pyperf option> ...]   # no names: every benchmark of SCRIPTS

Each benchmark runs in a pyperf process of its own: the launcher starts this file again with the
benchmark's name in PAIRBENCH_PYPERF_BENCHMARK, where pyperf's Runner.bench_func and
bench_time_func run that one benchmark and skip the others of its script. The pyperf options come
from PAIRBENCH_PYPERF_ARGS (default: one worker process), then the options after the names (from
the first argument that starts with `-`: the flags pairbench appends to size a run, which come last
and so win). Prints one pyperf JSON document holding every benchmark run.

Without names (pairbench's listing run) every script runs whole in one pyperf process, with the
options given, else with --debug-single-value.
"""

import json
import os
import runpy
import shlex
import subprocess
import sys
import tempfile

# the benchmark, as pyperf names it, and the script that runs it: pure Python, no data files or
# packages beyond pyperf, one loop well under the 100 ms pyperf's --min-time asks of a value (left
# out, one loop 87 to 189 ms here: chaos, float, generators, nbody, nqueens, richards, spectral_norm);
# six of them divide a loop into inner loops (json_loads, logging_*, regex_effbot, unpack_sequence)
SCRIPTS = {
    "comprehensions": "bm_comprehensions",
    "coroutines": "bm_coroutines",
    "deepcopy": "bm_deepcopy",
    "deepcopy_memo": "bm_deepcopy",
    "deepcopy_reduce": "bm_deepcopy",
    "deltablue": "bm_deltablue",
    "hexiom": "bm_hexiom",
    "json_dumps": "bm_json_dumps",
    "json_loads": "bm_json_loads",
    "logging_format": "bm_logging",
    "logging_silent": "bm_logging",
    "logging_simple": "bm_logging",
    "regex_effbot": "bm_regex_effbot",
    "unpack_sequence": "bm_unpack_sequence",
}
SELECT = "PAIRBENCH_PYPERF_BENCHMARK"
SCRIPT = "PAIRBENCH_PYPERF_SCRIPT"


def run_selected(name, script):
    """In a pyperf process: run `script` as written, with only the benchmark `name` (none: all)."""
    import pyperf

    for method in ("bench_func", "bench_time_func"):
        original = getattr(pyperf.Runner, method)

        def only(self, bench_name, *args, _original=original, **kwargs):
            if name != "*" and bench_name != name:
                return None
            return _original(self, bench_name, *args, **kwargs)

        setattr(pyperf.Runner, method, only)
    # sys.argv[0] stays this launcher: pyperf starts its worker processes with it, and they select the same way
    runpy.run_path(script, run_name="__main__")


def main(argv):
    root, rest = argv[0], argv[1:]
    at = next((i for i, a in enumerate(rest) if a.startswith("-")), len(rest))
    names, options = rest[:at], rest[at:]
    unknown = sorted(set(names) - set(SCRIPTS))
    if unknown:
        sys.exit(f"pyperformance_launcher: unknown benchmark(s) {', '.join(unknown)}; expected some of {', '.join(SCRIPTS)}")
    pyperf_args = shlex.split(os.environ.get("PAIRBENCH_PYPERF_ARGS", "--processes 1")) + options
    if names:
        runs = [(name, SCRIPTS[name]) for name in names]
    else:
        runs = [("*", script) for script in sorted(set(SCRIPTS.values()))]
        pyperf_args = options or ["--debug-single-value"]
    merged = {"version": "1.0", "metadata": {}, "benchmarks": []}
    with tempfile.TemporaryDirectory() as scratch:
        for i, (name, script) in enumerate(runs):
            out = os.path.join(scratch, f"{i}.json")
            path = os.path.join(root, script, "run_benchmark.py")
            command = [sys.executable, __file__, "--quiet", "--output", out, "--inherit-environ", f"{SELECT},{SCRIPT}", *pyperf_args]
            subprocess.run(command, env={**os.environ, SELECT: name, SCRIPT: path}, check=True, stdout=sys.stderr)
            with open(out) as f:
                doc = json.load(f)
            for bench in doc["benchmarks"]:
                metadata = {**doc.get("metadata", {}), **bench.get("metadata", {})}
                if metadata.get("name") in SCRIPTS:
                    merged["benchmarks"].append({**bench, "metadata": metadata})
    json.dump(merged, sys.stdout)


if __name__ == "__main__":
    if os.environ.get(SELECT):
        run_selected(os.environ[SELECT], os.environ[SCRIPT])
    else:
        main(sys.argv[1:])
