"""pyperf benchmarks: a pyperf Runner script, as in the CPython performance suite.

    python3 bench.py --output build/bench.json                  # every benchmark
    python3 bench.py --output build/bench.json checksum_4k      # only these, by name

pyperf runs each benchmark in several worker processes (--processes), each giving --values
timings after --warmups; the JSON it writes holds every one of them.
"""

import pyperf

from kernels import checksum, sort_into

DATA = bytes((i * 31 + 7) & 0xFF for i in range(4096))
XS = [(i * 7919) % 10000 for i in range(10000)]

BENCHMARKS = {
    "checksum_4k": (checksum, DATA),
    "sort_10000": (sort_into, [0] * len(XS), XS),
}



def worker_args(cmd, args):
    """pyperf starts each worker with only the script and its own options: pass the names on."""
    cmd.extend(args.names)


runner = pyperf.Runner(add_cmdline_args=worker_args)
runner.argparser.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
args = runner.parse_args()
unknown = sorted(set(args.names) - set(BENCHMARKS))
if unknown:
    runner.argparser.error(f"unknown benchmark(s): {', '.join(unknown)}; expected some of {', '.join(BENCHMARKS)}")
for name, (func, *func_args) in BENCHMARKS.items():
    if not args.names or name in args.names:
        runner.bench_func(name, func, *func_args)
