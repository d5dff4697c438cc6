/**
 * The suites pairbench was not tuned on (`npm run bench:suites -- --suites fresh`): real public
 * projects, none of which any part of pairbench's run design was developed or tuned on, so that a
 * change of the design is judged on suites it has not seen. Two per family (Go, Python,
 * JavaScript) and one Rust criterion suite, each pinned and downloaded at bench time through its
 * ecosystem's own client, as bench/suites.ts does with its suites (nothing of theirs is committed
 * here, only the small bench files of the JavaScript suites and the pyperf launcher, in
 * bench/fresh/).
 *
 * Each suite gets the copies the other suites get: base (as published), head (one internal function
 * slowed by fixed busy work per call, PATCHES; the benchmarks that call it slow down, the others
 * do not), aa (base again) and, when a slowed head is measured, calibration (head's block of busy
 * work repeated CALIBRATION_FACTOR times: the truth is measured as for the Python suite of
 * bench/suites.ts). A compiled suite (Go, Rust) builds every copy from its own source, and the
 * setup checks that head's executable differs from base's (the patch reached the build).
 *
 * The report puts them in a table of their own (renderFresh), apart from the suites the design
 * was tuned on, with the time to the last verdict beside the counts.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { duration, ROOT } from './machine.ts';
import { must, writableCopy } from './proc.ts';

export type FreshSuiteId = 'go-fresh-1' | 'go-fresh-2' | 'py-fresh-1' | 'py-fresh-2' | 'js-fresh-1' | 'js-fresh-2' | 'rust-fresh-1';
export type FreshFormat = 'go' | 'pytest-benchmark' | 'pyperf' | 'vitest' | 'bencher';

/** Where a suite's slowed head adds its busy work: the first line of one function, found exactly once. */
export interface FreshPatch {
  /** the file, relative to the copy (JavaScript: to the copy's node_modules/<package>) */
  file: string;
  /** the line the busy work follows: the function's opening line */
  anchor: string;
  /** the function, as the report names it */
  fn: string;
  /** which benchmarks call it, as far as reading the code tells (the measured truth decides) */
  reaches: string;
}

export interface FreshSuite {
  id: FreshSuiteId;
  family: 'Go' | 'Python' | 'JavaScript' | 'Rust';
  /** the package as its registry names it, and the pinned version */
  package: string;
  version: string;
  registry: string;
  format: FreshFormat;
  /** how many benchmarks the suite runs (the selection, where the project has more) */
  benchmarks: number;
  patch: FreshPatch;
  /** busy-work steps per call in head */
  spin: number;
  /** benchmarks per run when paired per benchmark (pairbench's --batch) */
  batch?: number;
  /** what the run command does beyond the project's own defaults, and why */
  shortened?: string;
}

/** the calibration copy repeats head's block of busy work this many times (as bench/suites.ts) */
export const FRESH_CALIBRATION_FACTOR = 10;

/** pint's benchmarks of quantities: 27 of its 321 (test_20_quantity.py without the 180 of test_op2) */
const PINT_SELECTION = 'build_by_mul or op1 or wrapper_nonstrict or wrapper_ret';
/** base64's criterion benchmarks: 8 of its 90, encoding and decoding at three sizes */
export const BASE64_SELECTION = ['encode_small_input/encode/50', 'encode_small_input/encode/500', 'encode_small_input/encode/3072', 'encode_small_input/encode_slice/500', 'decode_small_input/decode/50', 'decode_small_input/decode/500', 'decode_small_input/decode/3072', 'decode_small_input/decode_slice/500'];

export const FRESH_SUITES: readonly FreshSuite[] = [
  {
    id: 'go-fresh-1',
    family: 'Go',
    package: 'github.com/Masterminds/semver/v3',
    version: 'v3.5.0',
    registry: 'the Go module proxy (go mod download)',
    format: 'go',
    benchmarks: 32,
    patch: { file: 'version.go', anchor: 'func (v *Version) Compare(o *Version) int {', fn: 'Version.Compare', reaches: 'the CheckVersion and ValidateVersion benchmarks (constraint checks compare versions); not NewConstraint, NewVersion, StrictNewVersion, Coerce' },
    spin: 8,
  },
  {
    id: 'go-fresh-2',
    family: 'Go',
    package: 'github.com/cespare/xxhash/v2',
    version: 'v2.3.0',
    registry: 'the Go module proxy (go mod download)',
    format: 'go',
    benchmarks: 20,
    patch: { file: 'xxhash.go', anchor: 'func (d *Digest) Sum64() uint64 {', fn: 'Digest.Sum64', reaches: 'the DigestBytes and DigestString benchmarks; not Sum64 and Sum64String (assembly on amd64, no Digest)' },
    spin: 8,
  },
  {
    id: 'py-fresh-1',
    family: 'Python',
    package: 'pint',
    version: '0.24.4',
    registry: 'PyPI (pip download, the sdist), its dependencies pip-installed into a folder of the bench',
    format: 'pytest-benchmark',
    benchmarks: 27,
    patch: { file: 'pint/facets/plain/quantity.py', anchor: '    def __neg__(self) -> PlainQuantity[MagnitudeT]:', fn: 'PlainQuantity.__neg__', reaches: 'test_op1[neg-*]; not test_op1[truth-*], test_build_by_mul, the wrapper tests' },
    spin: 4,
  },
  {
    id: 'py-fresh-2',
    family: 'Python',
    package: 'jsonschema',
    version: '4.23.0',
    registry: 'PyPI (pip download, the sdist); its dependencies as installed',
    format: 'pyperf',
    benchmarks: 18,
    patch: { file: 'jsonschema/_keywords.py', anchor: 'def const(validator, const, instance, schema):', fn: '_keywords.const', reaches: 'const_vs_enum const *, contains (each item checked against a const), subcomponents Success/Failure, useless_keywords (its schema begins with not: {const: 42}); not enum, the registry benchmarks' },
    spin: 2,
    shortened: 'one pyperf process per benchmark (--processes 1; pyperf default 20: pairbench pairs the processes instead), which a designed run (--design auto, the default) makes one worker process of fixed loops; the listing run one process per module, with the listing\'s options (fresh/pyperf_launcher.py)',
  },
  {
    id: 'js-fresh-1',
    family: 'JavaScript',
    package: 'semver',
    version: '7.7.1',
    registry: 'npm (npm install), with vitest 4.1.12 and bench/fresh/semver.bench.mjs',
    format: 'vitest',
    benchmarks: 9,
    patch: { file: 'classes/semver.js', anchor: '  compareMain (other) {', fn: 'SemVer#compareMain', reaches: 'compare, sort, satisfies, maxSatisfying; not parse, valid, clean, coerce, inc' },
    spin: 20,
  },
  {
    id: 'js-fresh-2',
    family: 'JavaScript',
    package: 'js-yaml',
    version: '4.1.0',
    registry: 'npm (npm install), with vitest 4.1.12 and bench/fresh/js-yaml.bench.mjs',
    format: 'vitest',
    benchmarks: 7,
    patch: { file: 'dist/js-yaml.mjs', anchor: 'function readDoubleQuotedScalar(state, nodeIndent) {', fn: 'readDoubleQuotedScalar', reaches: 'every load (the loader tries each kind of scalar in turn, and the busy work comes before the function\'s first check: a measured +2.7% to +4.9% in head); not the dumps' },
    spin: 20,
  },
  {
    id: 'rust-fresh-1',
    family: 'Rust',
    package: 'base64',
    version: '0.22.1',
    registry: 'crates.io (cargo, its Cargo.lock), criterion 0.4 benches/benchmarks.rs',
    format: 'bencher',
    benchmarks: BASE64_SELECTION.length,
    patch: { file: 'src/engine/general_purpose/decode_suffix.rs', anchor: ') -> Result<DecodeMetadata, DecodeSliceError> {', fn: 'decode_suffix', reaches: 'the decode benchmarks; not the encode ones' },
    spin: 16,
    shortened: "none in effect: the command passes criterion's --warm-up-time 0.5 --measurement-time 1, but the crate's groups set 0.5 s of warm-up and 3 s of measurement in code, which the command line does not override (a run of one benchmark as written: 4.7 s); under --design auto pairbench runs each benchmark's paired runs in criterion's quick mode (--quick, about 0.2 s a run)",
  },
];

/** A fresh benchmark's change measured on head itself: fixed pairs of the benchmark, base against head. */
export interface HeadMeasured {
  estimate: number;
  ci: [number, number];
  pairs: number;
}

/**
 * A fresh benchmark's kind, from the two measurements of its truth (freshTruth in bench/suites.ts).
 * The calibration copy (head's busy work ten times) says whether the benchmark reaches the slowed
 * code: the nine blocks it adds beyond head's move it by at least the threshold more than head
 * moves it (each build's code layout moves some benchmarks by a few percent either way, so the
 * copy's change alone cannot say it). It does not say by how much head moves it: one short block
 * of busy work can cost far less than a tenth of ten blocks, likely because an out-of-order core
 * overlaps one short block with the work around it, which ten blocks exceed (bench/README.md,
 * "Suites not tuned on", gives the measured cases). Head's own pairs say how much, and
 * also catch a benchmark that never calls the function but moved with the patched build's code
 * layout. So, as the tuned JavaScript suite's timed truth (measuredKind):
 * - affected: reaches the code, and head is slower by the threshold or more, its whole interval at
 *   or above the threshold;
 * - unaffected: does not reach it, and head is within the threshold, its interval holding 0;
 * - marginal: the rest (reached for less than the threshold, or moved by the build): counted in neither.
 * Without head's pairs (`--fresh-truth-pairs 0`) the truth stays the copy's change over ten, as
 * bench/suites.ts's calibrate gives it.
 */
export function freshKind(calibration: number, measured: HeadMeasured, threshold: number): { truth: number; kind: 'affected' | 'unaffected' | 'marginal' } {
  const reaches = calibration >= threshold && calibration - measured.estimate >= threshold;
  const kind = measuredKind(measured, threshold);
  return { truth: measured.estimate, kind: kind === 'affected' && reaches ? 'affected' : kind === 'unaffected' && Math.abs(calibration) < threshold ? 'unaffected' : 'marginal' };
}

/**
 * What a measured change of head says a tool should answer at `threshold`. Affected, a regression
 * to detect: the interval lies wholly at or above the threshold. A change whose interval reaches
 * below it may truly be under the threshold, where `unchanged` is the right verdict; a rule that
 * flags an estimate beyond the threshold detects a change at the threshold about half the time
 * whatever the pairs (the Hodges-Lehmann estimate is median-unbiased for a symmetric difference:
 * Hodges and Lehmann 1963, "Estimates of location based on rank tests"), so such a benchmark is
 * counted in neither column. Unaffected: within the threshold, the interval holding 0.
 * Marginal: the rest.
 */
export function measuredKind(measured: HeadMeasured, threshold: number): 'affected' | 'unaffected' | 'marginal' {
  if (measured.ci[0] >= threshold) return 'affected';
  const holds0 = measured.ci[0] <= 0 && measured.ci[1] >= 0;
  return Math.abs(measured.estimate) < threshold && holds0 ? 'unaffected' : 'marginal';
}

export const FRESH_IDS: readonly FreshSuiteId[] = FRESH_SUITES.map((s) => s.id);

export function isFresh(id: string): id is FreshSuiteId {
  return (FRESH_IDS as readonly string[]).includes(id);
}

export function freshSuite(id: FreshSuiteId): FreshSuite {
  return FRESH_SUITES.find((s) => s.id === id)!;
}

/**
 * `--suites`: a comma-separated list of suites; `fresh` stands for every suite not tuned on, in
 * FRESH_SUITES' order. A name neither tuned nor fresh is an error naming it.
 */
export function selectSuites<T extends string>(value: string, tuned: readonly T[]): Array<T | FreshSuiteId> {
  const out: Array<T | FreshSuiteId> = [];
  for (const word of value.split(',').map((w) => w.trim()).filter((w) => w !== '')) {
    const ids: Array<T | FreshSuiteId> = word === 'fresh' ? [...FRESH_IDS] : (tuned as readonly string[]).includes(word) || isFresh(word) ? [word as T | FreshSuiteId] : [];
    if (ids.length === 0) throw new UsageError(`--suites: got "${word}"; expected a comma-separated list of ${[...tuned, 'fresh', ...FRESH_IDS].join(', ')}`);
    for (const id of ids) if (!out.includes(id)) out.push(id);
  }
  if (out.length === 0) throw new UsageError(`--suites: got "${value}"; expected at least one suite`);
  return out;
}

/** A bad command line: main prints its message alone and exits 2. */
export class UsageError extends Error {}

// --- the run commands -----------------------------------------------------------------------------

/**
 * The command pairbench runs in a copy (its placeholder takes the selection). `deps`: Python, the
 * folder of pint's dependencies; `launcher`: the pyperf launcher's path.
 */
export function freshRunCommand(suite: FreshSuite, where: { deps?: string; launcher?: string } = {}): string {
  switch (suite.id) {
    case 'go-fresh-1':
    case 'go-fresh-2':
      // a simple command: pairbench adds -test.bench= per benchmark (and, --design auto, the design)
      return './build/bench.test -test.run "^$" -test.bench . -test.benchtime 100ms';
    case 'py-fresh-1':
      return `set -- {benchmark}; [ $# -gt 0 ] || set -- pint/testsuite/benchmarks/test_20_quantity.py -k '${PINT_SELECTION}'; PYTHONPATH=.:${where.deps ?? 'deps'} python3 -m pytest -q -p no:cacheprovider --benchmark-max-time=0.1 --benchmark-json=build/run.json "$@" >&2 && cat build/run.json`;
    case 'py-fresh-2':
      return `PYTHONPATH=. PAIRBENCH_PYPERF_ARGS='--processes 1' python3 ${where.launcher ?? 'pyperf_launcher.py'} {benchmark}`;
    case 'js-fresh-1':
    case 'js-fresh-2':
      return 'npx vitest bench --run {file} -t {filter} --outputJson build/bench.json >&2 && cat build/bench.json';
    case 'rust-fresh-1':
      // the whole suite's filter (`.`) stands for the selection; a selected run gets pairbench's anchored alternation
      return `F={filter}; [ "$F" != . ] || F='^(${BASE64_SELECTION.join('|')})$'; ./build/benchmarks --bench --noplot --output-format bencher --warm-up-time 0.5 --measurement-time 1 "$F"`;
  }
}

// --- the copies -----------------------------------------------------------------------------------

export interface FreshDirs {
  base: string;
  head: string;
  aa: string;
  /** present when a slowed head is measured: head's busy work times FRESH_CALIBRATION_FACTOR */
  calibration?: string;
}

export interface FreshSetup {
  id: FreshSuiteId;
  title: string;
  format: FreshFormat;
  dirs: FreshDirs;
  run: string;
  batch?: number;
}

/** The busy work a patch adds, in the suite's language: `spin` steps of a loop whose result is kept. */
export function spinBlock(family: FreshSuite['family'], spin: number, indent = ''): string {
  switch (family) {
    case 'Go':
      return `\n\tpairbenchSpin(${spin})`;
    case 'Python':
      return `\n${indent}_pairbench_x = 0\n${indent}for _pairbench_i in range(${spin}):\n${indent}    _pairbench_x += _pairbench_i ^ (_pairbench_x >> 3)`;
    case 'JavaScript':
      return `\n    { let x = 0; for (let i = 0; i < ${spin}; i++) x += i ^ (x >> 3); globalThis.__pairbenchSink = x; }`;
    case 'Rust':
      return `\n    { let mut pairbench_x: u64 = 0; for pairbench_i in 0..core::hint::black_box(${spin}u64) { pairbench_x = pairbench_x.wrapping_add(pairbench_i ^ (pairbench_x >> 3)); } let _ = core::hint::black_box(pairbench_x); }`;
  }
}

/** The Go function the slowed heads call (fresh suites and the tuned Go suite, bench/suites.ts): fixed busy work per call. */
export const GO_SPIN = `
var pairbenchSink int

// pairbenchSpin is the injected slowdown: fixed busy work per call.
func pairbenchSpin(n int) {
	x := pairbenchSink
	for i := 0; i < n; i++ {
		x += i ^ (x >> 3)
	}
	pairbenchSink = x
}
`;

/**
 * Adds the suite's busy work after its patch's anchor, `copies` times; the anchor must occur exactly
 * once (a new version of the project that moved the function fails here, not silently).
 */
export function patchText(suite: FreshSuite, text: string, copies = 1): string {
  const { anchor, file } = suite.patch;
  const count = text.split(anchor).length - 1;
  if (count !== 1) throw new Error(`${suite.package} ${suite.version}: ${file} has ${count} lines "${anchor.trim()}"; expected exactly 1`);
  const indent = suite.family === 'Python' ? `${/^\s*/.exec(anchor)![0]}    ` : '';
  const patched = text.replace(anchor, `${anchor}${spinBlock(suite.family, suite.spin, indent).repeat(copies)}`);
  return suite.family === 'Go' ? `${patched}${GO_SPIN}` : patched;
}

function patchCopy(suite: FreshSuite, root: string, copies: number): void {
  const file = join(root, suite.patch.file);
  writeFileSync(file, patchText(suite, readFileSync(file, 'utf8'), copies));
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** A compiled suite: head's executable must differ from base's, and aa's (the same source) is built too. */
function checkBuilds(suite: FreshSuite, dirs: FreshDirs, executable: string): void {
  for (const d of Object.values(dirs)) if (!existsSync(join(d, executable))) throw new Error(`${suite.id}: no ${join(d, executable)} after the build`);
  if (sha256(join(dirs.base, executable)) === sha256(join(dirs.head, executable))) throw new Error(`${suite.id}: head's ${executable} is base's: the patch did not reach the build`);
}

function copiesOf(work: string, suite: FreshSuite, withCalibration: boolean): FreshDirs {
  const root = join(work, suite.id);
  return { base: join(root, 'base'), head: join(root, 'head'), aa: join(root, 'aa'), ...(withCalibration ? { calibration: join(root, 'calibration') } : {}) };
}

/**
 * Downloads, copies, patches and builds one suite in `work`; `withCalibration`: also the calibration
 * copy; `spin`: head's busy steps a call instead of the suite's own (`--fresh-spin`: a smaller patch).
 */
export async function setupFresh(id: FreshSuiteId, work: string, withCalibration: boolean, spin?: number): Promise<FreshSetup> {
  const suite = spin === undefined ? freshSuite(id) : { ...freshSuite(id), spin };
  const dirs = copiesOf(work, suite, withCalibration);
  const title = `${suite.family}: ${suite.package} ${suite.version}`;
  const common = { id, title, format: suite.format, dirs, ...(suite.batch ? { batch: suite.batch } : {}) };
  const patchAll = (inside = '') => {
    patchCopy(suite, join(dirs.head, inside), 1);
    if (dirs.calibration) patchCopy(suite, join(dirs.calibration, inside), FRESH_CALIBRATION_FACTOR);
  };
  switch (suite.family) {
    case 'Go': {
      const dl = join(work, `${id}-download`);
      mkdirSync(dl, { recursive: true });
      const r = await must('go', ['mod', 'download', '-json', `${suite.package}@${suite.version}`], dl);
      const source = (JSON.parse(r.stdout) as { Dir: string }).Dir;
      for (const d of Object.values(dirs)) writableCopy(source, d);
      patchAll();
      for (const d of Object.values(dirs)) await must('go', ['test', '-c', '-trimpath', '-o', 'build/bench.test', '.'], d);
      checkBuilds(suite, dirs, 'build/bench.test');
      return { ...common, run: freshRunCommand(suite) };
    }
    case 'Python': {
      const dl = join(work, `${id}-download`);
      mkdirSync(dl, { recursive: true });
      await must('python3', ['-m', 'pip', 'download', '--no-deps', '--no-binary', ':all:', `${suite.package}==${suite.version}`, '-d', dl], dl);
      const tarball = readdirSync(dl).find((f) => f.endsWith('.tar.gz'));
      if (!tarball) throw new Error(`pip download ${suite.package}==${suite.version} left no sdist in ${dl}`);
      await must('tar', ['xzf', tarball], dl);
      const source = join(dl, tarball.replace(/\.tar\.gz$/, ''));
      for (const d of Object.values(dirs)) {
        writableCopy(source, d);
        mkdirSync(join(d, 'build'), { recursive: true });
      }
      patchAll();
      if (id === 'py-fresh-1') {
        // pint's dependencies (pure Python), pinned, in a folder of their own on PYTHONPATH
        const deps = join(work, `${id}-deps`);
        await must('python3', ['-m', 'pip', 'install', '--quiet', '--no-deps', '--target', deps, 'flexcache==0.3', 'flexparser==0.4', 'platformdirs==4.14.9', 'typing_extensions==4.16.0'], work);
        return { ...common, run: freshRunCommand(suite, { deps }) };
      }
      for (const d of Object.values(dirs)) copyFileSync(join(ROOT, 'bench/fresh/pyperf_launcher.py'), join(d, 'pyperf_launcher.py'));
      return { ...common, run: freshRunCommand(suite, { launcher: 'pyperf_launcher.py' }) };
    }
    case 'JavaScript': {
      const benchFile = `${suite.package}.bench.mjs`;
      for (const d of Object.values(dirs)) {
        mkdirSync(join(d, 'build'), { recursive: true });
        writeFileSync(join(d, 'package.json'), `${JSON.stringify({ private: true, type: 'module', devDependencies: { [suite.package]: suite.version, vitest: '4.1.12' } }, null, 2)}\n`);
        copyFileSync(join(ROOT, 'bench/fresh', benchFile), join(d, benchFile));
        writeFileSync(join(d, 'vitest.config.mjs'), 'export default { test: {} };\n');
      }
      // one install, copied: every copy runs the same vitest and the same package (then patched)
      await must('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], dirs.base);
      for (const d of Object.values(dirs)) if (d !== dirs.base) cpSync(join(dirs.base, 'node_modules'), join(d, 'node_modules'), { recursive: true, verbatimSymlinks: true });
      patchAll(join('node_modules', suite.package));
      return { ...common, run: freshRunCommand(suite) };
    }
    case 'Rust': {
      const dl = join(work, `${id}-download`);
      mkdirSync(dl, { recursive: true });
      await must('curl', ['-fsSL', '-o', 'crate.tar.gz', `https://static.crates.io/crates/${suite.package}/${suite.package}-${suite.version}.crate`], dl);
      await must('tar', ['xzf', 'crate.tar.gz'], dl);
      const source = join(dl, `${suite.package}-${suite.version}`);
      for (const d of Object.values(dirs)) writableCopy(source, d);
      patchAll();
      // base builds the dependencies; the other copies start from its target folder, so that only
      // the crate itself is compiled again, from each copy's own source. The copied target is newer
      // than the patched source, so cargo would take the crate as built: every source file is made
      // newer than it, and cargo must say it compiled the crate (`fresh: false`), or the patch did
      // not reach the build (the executables differ anyway: each embeds its own folder's path)
      for (const d of [dirs.base, ...Object.values(dirs).filter((x) => x !== dirs.base)]) {
        if (d !== dirs.base) {
          cpSync(join(dirs.base, 'target'), join(d, 'target'), { recursive: true });
          const later = new Date(Date.now() + 2000);
          for (const f of readdirSync(join(d, 'src'), { recursive: true, encoding: 'utf8' })) if (f.endsWith('.rs')) utimesSync(join(d, 'src', f), later, later);
        }
        const built = await must('cargo', ['bench', '--locked', '--bench', 'benchmarks', '--no-run', '--message-format=json'], d);
        const messages = built.stdout
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as { reason?: string; package_id?: string; fresh?: boolean; target?: { name?: string; kind?: string[] }; executable?: string | null });
        const crate = messages.find((m) => m.reason === 'compiler-artifact' && m.target?.name === suite.package && m.target.kind?.includes('lib'));
        if (d !== dirs.base && crate?.fresh !== false) throw new Error(`${id}: cargo did not compile ${suite.package} again in ${d} (${crate ? 'fresh' : 'no artifact'}): the patch did not reach the build`);
        const executable = messages.find((m) => m.reason === 'compiler-artifact' && m.target?.name === 'benchmarks' && m.target.kind?.includes('bench') && m.executable)?.executable;
        if (!executable) throw new Error(`${id}: cargo bench --no-run named no benchmarks executable in ${d}`);
        mkdirSync(join(d, 'build'), { recursive: true });
        copyFileSync(executable, join(d, 'build/benchmarks'));
      }
      checkBuilds(suite, dirs, 'build/benchmarks');
      return { ...common, run: freshRunCommand(suite) };
    }
  }
}

// --- the report -----------------------------------------------------------------------------------

/** What the fresh table reads of one arm run (bench/suites.ts's ArmRun has it all). */
export interface FreshRunRow {
  suite: string;
  condition: string;
  arm: string;
  against: 'head' | 'aa';
  wallMs: number;
  lastVerdictMs: number;
  outcomes: Array<{ name: string; flagged: 'regression' | 'improvement' | null; verdict: string; estimate?: number | null; stoppedBecause?: string; pairs?: number }>;
  error?: string;
  spread?: number;
  /** runs of the command on both sides (`processesOf`: pilots included, listing not), for the seconds per run */
  processes?: number;
}

/**
 * The runs an arm made of its command on both sides: two a unit of each round of its results file
 * (`rounds`: a unit is one pair of processes, whether it runs one benchmark, a batch of them or the
 * whole suite), so the batches pairbench forms itself (`--batch` under `--design auto`) count, and
 * count less as their benchmarks leave them. Without rounds (a results file of another version),
 * twice the pairs of the benchmarks over the batch the bench passed.
 */
export function processesOf(rounds: ReadonlyArray<readonly string[]> | undefined, pairs: number, batch: number): number {
  if (rounds && rounds.length > 0) return 2 * rounds.reduce((a, r) => a + r.length, 0);
  return Math.ceil((2 * pairs) / Math.max(1, batch));
}

export interface FreshTruth {
  name: string;
  kind: 'affected' | 'unaffected' | 'marginal';
  /** the calibration copy's change, and the truth taken from it or from head's own pairs */
  calibration?: number;
  truth?: number;
  measured?: HeadMeasured;
}

const pct = (x: number | null | undefined): string => (x === null || x === undefined || !Number.isFinite(x) ? '—' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`);

/** One fresh suite's truth per benchmark (freshKind) and each head run's verdict on it, folded. */
function truthDetails(suite: string, truths: readonly FreshTruth[], heads: readonly FreshRunRow[], armTitle: (arm: string) => string): string[] {
  const lines = ['', `<details><summary>${suite}: the injected truth per benchmark, and the verdicts against head</summary>`, ''];
  const pairs = truths.find((t) => t.measured)?.measured?.pairs;
  const mark = (o: FreshRunRow['outcomes'][number] | undefined) => (!o ? '—' : o.flagged === 'regression' ? `🔴 ${pct(o.estimate)}` : o.flagged === 'improvement' ? `🟢 ${pct(o.estimate)}` : o.verdict === 'inconclusive' ? '🟡' : '·');
  const runCols = heads.map((r) => ` ${r.condition}: ${armTitle(r.arm)} |`).join('');
  const runSep = heads.map(() => '---|').join('');
  lines.push(`| benchmark | change with the x${FRESH_CALIBRATION_FACTOR} patch | its tenth | ${pairs ? `head's change (${pairs} pairs, base against head)` : 'truth'} | kind |${runCols}`, `|---|---|---|---|---|${runSep}`);
  for (const t of truths) {
    const measured = t.measured ? `${pct(t.measured.estimate)} [${pct(t.measured.ci[0])}, ${pct(t.measured.ci[1])}]` : pct(t.truth);
    const tenth = t.calibration === undefined ? '—' : pct(t.calibration / FRESH_CALIBRATION_FACTOR);
    lines.push(`| ${t.name} | ${pct(t.calibration)} | ${tenth} | ${measured} | ${t.kind} |${heads.map((r) => ` ${mark(r.outcomes.find((o) => o.name === t.name))} |`).join('')}`);
  }
  lines.push('');
  if (pairs) lines.push(`Affected: the x${FRESH_CALIBRATION_FACTOR} patch moves it by at least the threshold more than head does (it reaches the slowed code), and head itself is slower by the threshold or more, its whole interval (pairbench's corrected level) at or above the threshold. Unaffected: the patch moves it by less than the threshold, and head's change is within the threshold, its interval holding 0. Marginal: the rest, counted in neither: reached for less than the threshold, or near it (an interval reaching below it, where \`unchanged\` may be right), or moved by the patched build's code layout, which a tool is right to flag. The copy's tenth is not head's change: one short block of busy work can cost far less than a tenth of ten (a likely cause: an out-of-order core overlaps one block with the work around it).`, '');
  else lines.push(`The truth is the x${FRESH_CALIBRATION_FACTOR} patch's change over ${FRESH_CALIBRATION_FACTOR} (\`--fresh-truth-pairs 0\`): affected at the threshold, unaffected where the patch moves it by less than the threshold, marginal between.`, '');
  lines.push('🔴 flagged slower, 🟢 flagged faster (with the estimate), 🟡 inconclusive, · not flagged.', '', '</details>', '');
  return lines;
}

/** The median of a list of numbers (the lower middle for an even count), null for none. */
function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

/**
 * The "## Suites not tuned on" section: one row per suite, condition, arm and what head was, with
 * the counts, the pairs each benchmark reached, the seconds per run of the command and the time to
 * the last verdict; then what each suite is and where its head was slowed.
 */
export function renderFresh(runs: readonly FreshRunRow[], truths: Readonly<Record<string, readonly FreshTruth[]>>, armTitle: (arm: string) => string = (a) => a, spin?: number): string {
  const lines: string[] = ['## Suites not tuned on', ''];
  const fresh = runs.filter((r) => isFresh(r.suite));
  lines.push(`Real public suites that none of pairbench's run design was developed on (\`--suites fresh\`): a design change is kept only if it helps these too. ${FRESH_SUITES.length} suites; the rows below are the ones this run measured.`, '');
  const times = fresh.filter((r) => !r.error).map((r) => r.lastVerdictMs);
  const m = median(times);
  if (m !== null) lines.push(`**Time to the last verdict: median ${duration(m)}, longest ${duration(Math.max(...times))}** over ${times.length} arm runs.`, '');
  lines.push('| suite | condition | arm | vs | benchmarks | detected (affected) | false alarms (unaffected) | unchanged (A/A) | flagged (A/A) | out of budget | pairs per benchmark (median, min–max) | seconds per run | spread per pair | time to last verdict | wall time |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of fresh) {
    if (r.error) {
      lines.push(`| ${r.suite} | ${r.condition} | ${armTitle(r.arm)} | ${r.against === 'aa' ? 'A/A' : 'head'} | error: ${r.error.split('\n')[0]!.slice(0, 160).replace(/\|/g, '\\|')} | | | | | | | | | | |`);
      continue;
    }
    const n = r.outcomes.length;
    const pairs = r.outcomes.map((o) => o.pairs ?? 0);
    const pm = median(pairs);
    const pairsCell = pm === null ? '—' : `${pm} (${Math.min(...pairs)}–${Math.max(...pairs)})`;
    const perRun = r.processes ? `${(r.wallMs / 1000 / r.processes).toFixed(1)} s` : '—';
    const out = r.outcomes.filter((o) => o.stoppedBecause === 'futile' || o.stoppedBecause === 'max-time' || o.stoppedBecause === 'max-pairs').length;
    const spread = r.spread === undefined ? '—' : `±${(r.spread * 100).toFixed(1)}%`;
    const tail = `${out} | ${pairsCell} | ${perRun} | ${spread} | ${duration(r.lastVerdictMs)} | ${duration(r.wallMs)} |`;
    if (r.against === 'aa') {
      const unchanged = r.outcomes.filter((o) => o.verdict === 'unchanged').length;
      const flagged = r.outcomes.filter((o) => o.flagged).length;
      lines.push(`| ${r.suite} | ${r.condition} | ${armTitle(r.arm)} | A/A | ${n} | | | ${unchanged} of ${n} | ${flagged} of ${n} | ${tail}`);
      continue;
    }
    const t = truths[r.suite] ?? [];
    const by = new Map(r.outcomes.map((o) => [o.name, o]));
    const affected = t.filter((x) => x.kind === 'affected');
    const unaffected = t.filter((x) => x.kind === 'unaffected');
    const detected = t.length === 0 ? '— (no truth)' : `${affected.filter((x) => by.get(x.name)?.flagged === 'regression').length} of ${affected.length}`;
    const alarms = t.length === 0 ? '—' : `${unaffected.filter((x) => by.get(x.name)?.flagged).length} of ${unaffected.length}`;
    lines.push(`| ${r.suite} | ${r.condition} | ${armTitle(r.arm)} | head | ${n} | ${detected} | ${alarms} | | | ${tail}`);
  }
  lines.push('', 'Pairs per benchmark: the pairs each benchmark reached before its verdict or the budget. Seconds per run: the arm\'s wall time over the runs of the command on both sides (listing and pilots included). Time to last verdict: from the start until the last benchmark that reached a verdict (`regression`, `improvement` or `unchanged`) had its last pair; the whole run when none did.', '');
  for (const [suite, t] of Object.entries(truths)) if (isFresh(suite) && t.length > 0) lines.push(...truthDetails(suite, t, fresh.filter((r) => r.suite === suite && r.against === 'head' && !r.error), armTitle));
  lines.push('<details><summary>The suites not tuned on</summary>', '');
  lines.push('| suite | project (pinned) | from | harness | benchmarks | head slows | which benchmarks call it | run shortened |', '|---|---|---|---|---|---|---|---|');
  for (const s of FRESH_SUITES) lines.push(`| ${s.id} | ${s.family}: ${s.package} ${s.version} | ${s.registry} | ${s.format} | ${s.benchmarks} | \`${s.patch.fn}\` (+${spin ?? s.spin} busy steps a call${spin === undefined ? '' : `, \`--fresh-spin\`; the suite's own: ${s.spin}`}) | ${s.patch.reaches} | ${s.shortened ?? '—'} |`);
  lines.push('', '</details>', '');
  return `${lines.join('\n')}\n`;
}
