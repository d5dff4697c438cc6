/**
 * Tests that need a tool outside npm (Go, valgrind, a C compiler, actionlint...) declare it here
 * instead of `it.skipIf(...)`, so that a missing tool can never hide a gap in CI:
 *
 * - tool present: the test runs;
 * - tool missing, `CI=true`: the test FAILS, with the tool's name and how to install it
 *   (`bash scripts/setup-ci.sh` installs them all);
 * - tool missing on a developer's machine: the test is skipped, and the skip names the tool and
 *   how to install it;
 * - a tool that does not exist on this operating system at all (valgrind on macOS): skipped, and
 *   the skip says so, in CI too: that is a limit of the platform, documented, not a missing install.
 *
 * Usage: `const go = requireTool({ name: 'go', present: () => works('go', ['version']), install: '...' })`,
 * then `go.it('name', fn)` or `go.describe('name', fn)` where `it.skipIf(!hasGo)` stood.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';

/** The folder of the Node.js 26 that scripts/setup-ci.sh installs: put first on PATH, its `node` runs a node:bench suite. */
export const NODE26_BIN = join(import.meta.dirname, '..', '..', '.cache', 'node-26', 'node_modules', 'node', 'bin');

export interface ToolSpec {
  /** what is missing, as the user would install it: `go`, `valgrind`, `pytest-benchmark` */
  name: string;
  /** whether it is there; called once, when the test file is collected */
  present: () => boolean;
  /** how to install it */
  install: string;
  /** the operating systems where it exists at all (default: every one) */
  platforms?: NodeJS.Platform[];
}

export interface RequiredTool {
  /** null when present; otherwise the sentence a skip or a failure shows */
  readonly missing: string | null;
  /** `it`, or a skipped / failing stand-in when the tool is missing */
  readonly it: typeof it;
  /** `describe`, or a skipped / failing stand-in when the tool is missing */
  readonly describe: typeof describe;
}

/** True when the command runs and exits 0. */
export function works(command: string, args: string[] = []): boolean {
  const r = spawnSync(command, args, { stdio: 'ignore', timeout: 60_000 });
  return r.status === 0;
}

/** Whether a missing tool fails the test (CI) or skips it (a developer's machine). */
export function strictAboutTools(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = (env['CI'] ?? '').toLowerCase();
  return ci !== '' && ci !== 'false' && ci !== '0';
}

/** The combined requirement of several tools: the first missing one decides. */
export function requireTools(...specs: ToolSpec[]): RequiredTool {
  const verdicts = specs.map(decide);
  const fail = verdicts.find((v) => v.kind === 'fail');
  const skip = verdicts.find((v) => v.kind === 'skip');
  const decision = fail ?? skip ?? { kind: 'run' as const, message: '' };
  if (decision.kind === 'skip') console.warn(`skipped: ${decision.message}`);
  return {
    missing: decision.kind === 'run' ? null : decision.message,
    it: standIn(decision, it),
    describe: standIn(decision, describe),
  };
}

export function requireTool(spec: ToolSpec): RequiredTool {
  return requireTools(spec);
}

type Decision = { kind: 'run' | 'skip' | 'fail'; message: string };

function decide(spec: ToolSpec): Decision {
  if (spec.platforms && !spec.platforms.includes(process.platform)) {
    return { kind: 'skip', message: `${spec.name} does not exist on ${process.platform} (only on ${spec.platforms.join(', ')})` };
  }
  if (spec.present()) return { kind: 'run', message: '' };
  const message = `${spec.name} is missing: ${spec.install} (or run bash scripts/setup-ci.sh, which installs every tool the tests need)`;
  return { kind: strictAboutTools() ? 'fail' : 'skip', message };
}

/**
 * `it` or `describe` when the tool is there; otherwise one that registers the same name, skipped
 * (with the reason in its name) or failing with the message.
 */
function standIn<T extends typeof it | typeof describe>(decision: Decision, api: T): T {
  if (decision.kind === 'run') return api;
  const note = ` (needs ${decision.message})`;
  const register = (name: string): void => {
    const title = String(name);
    const isSuite = api === (describe as unknown);
    if (decision.kind === 'skip') {
      if (isSuite) describe(title, () => void it.skip(`every test${note}`, () => undefined));
      else it.skip(`${title}${note}`, () => undefined);
      return;
    }
    const failing = () => {
      throw new Error(`CI=true and ${decision.message}`);
    };
    if (isSuite) describe(title, () => void it('has the tools it needs', failing));
    else it(title, failing);
  };
  return register as unknown as T;
}

/** The tools of this test suite, each with how to install it (scripts/setup-ci.sh installs them all). */
export const TOOLS = {
  go: { name: 'go', present: () => works('go', ['version']), install: 'install Go from https://go.dev/dl/' },
  pytestBenchmark: {
    name: 'pytest-benchmark',
    present: () => works('python3', ['-c', 'import pytest, pytest_benchmark']),
    install: 'python3 -m pip install -r examples/python-pytest/requirements.txt (bash scripts/setup-examples.sh)',
  },
  cc: { name: 'a C compiler (cc)', present: () => works('cc', ['--version']), install: 'sudo apt-get install -y gcc (macOS: xcode-select --install)' },
  googleBenchmark: {
    name: 'Google Benchmark (libbenchmark-dev) with g++ and make',
    present: () => works('make', ['--version']) && works('g++', ['--version']) && works('sh', ['-c', 'echo "#include <benchmark/benchmark.h>" | g++ -E -x c++ - >/dev/null']),
    install: 'sudo apt-get install -y libbenchmark-dev g++ make (macOS: brew install google-benchmark)',
  },
  catch2: {
    name: 'Catch2 with g++ and make',
    present: () => works('make', ['--version']) && works('sh', ['-c', 'printf "#include <catch2/catch.hpp>\\n" | g++ -E -x c++ - >/dev/null 2>&1 || pkg-config --exists catch2-with-main']),
    install: 'sudo apt-get install -y catch2 g++ make',
  },
  pyperf: {
    name: 'pyperf',
    present: () => works('python3', ['-c', 'import pyperf']),
    install: 'python3 -m pip install -r examples/pyperf-suite/requirements.txt (bash scripts/setup-examples.sh)',
  },
  ...examplePackages('vitest-suite', 'vitest'),
  ...examplePackages('mitata-suite', 'mitata'),
  ...examplePackages('benchmarkjs-suite', 'benchmark'),
  /** Node.js 26 in .cache/node-26 (the `node` package from the npm registry): node:bench, for examples/node-bench-suite */
  node26: {
    name: 'Node.js 26 with node:bench in .cache/node-26',
    present: () => works(join(NODE26_BIN, 'node'), ['--experimental-bench', '--no-warnings', '-e', "require('node:bench')"]),
    install: 'bash scripts/setup-ci.sh (npm install --prefix .cache/node-26 node@26)',
  },
  cargo: { name: 'cargo', present: () => works('cargo', ['--version']), install: 'install Rust from https://rustup.rs' },
  cargoCriterion: {
    name: 'cargo-criterion',
    present: () => works('cargo', ['criterion', '--version']),
    install: 'cargo install --locked cargo-criterion --version 1.1.0',
  },
  /** valgrind itself: instruction counts where the machine exposes no hardware counter (CI runners), which the action installs */
  valgrind: { name: 'valgrind', present: () => works('valgrind', ['--version']), install: 'sudo apt-get install -y valgrind', platforms: ['linux'] },
  /** instruction counts: valgrind (or perf with hardware counters); neither exists on macOS */
  instructionCounter: {
    name: 'valgrind (or perf with hardware counters)',
    present: () => works('valgrind', ['--version']) || /^\d+,/m.test(spawnSync('perf', ['stat', '-x', ',', '-e', 'instructions:u', 'true'], { encoding: 'utf8' }).stderr ?? ''),
    install: 'sudo apt-get install -y valgrind',
    platforms: ['linux'],
  },
} satisfies Record<string, ToolSpec>;

/** The npm packages of a JavaScript example, installed in examples/<example>/node_modules by `npm ci`. */
function examplePackages<E extends string>(example: E, pkg: string): Record<E, ToolSpec> {
  const dir = join(import.meta.dirname, '..', '..', 'examples', example);
  const spec: ToolSpec = {
    name: `${pkg} for examples/${example}`,
    present: () => existsSync(join(dir, 'node_modules', pkg, 'package.json')),
    install: `npm ci --prefix examples/${example} (bash scripts/setup-examples.sh)`,
  };
  return { [example]: spec } as Record<E, ToolSpec>;
}
