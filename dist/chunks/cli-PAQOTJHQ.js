import { createRequire as __pbCreateRequire } from 'node:module'; const require = __pbCreateRequire(import.meta.url);
import {
  COMPARE_OPTIONS,
  CacheRefusal,
  FileRefused,
  LIMITS,
  NOISE_DEFAULTS,
  PairbenchError,
  ProgressPrinter,
  UsageError,
  VERSION,
  buildSpec,
  cancelledResult,
  checkOutputPath,
  checkResultsFileCount,
  checkRevision,
  cliNaming,
  commandsOf,
  defaultFailOn,
  errorCode,
  external_exports,
  fsReason,
  mergeResults,
  onInterrupt,
  parseFailOn,
  parseMinChange,
  parseOptionValue,
  placeEntry,
  readRegularFile,
  readResultsFile,
  rejudge,
  renderBisectJson,
  renderBisectMarkdown,
  renderBisectText,
  renderHtml,
  renderMarkdown,
  renderNoiseMarkdown,
  renderNoiseText,
  renderTerminal,
  resultsText,
  rngFor,
  runBisect,
  runCompare,
  runNoise,
  show,
  skippedResult,
  stageEntry,
  untrusted,
  untrustedRoot,
  verifyEntry,
  wholeSuite,
  writeJudgedFile,
  writeReportFile
} from "./chunk-B73YDOPP.js";
import "./chunk-HZ5RLXFM.js";

// src/revisions/local-cache.ts
import { cpSync, lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
var LocalCacheStore = class {
  root;
  where;
  constructor(root) {
    this.root = resolve(root);
    this.where = `the folder ${this.root}`;
  }
  /** Why the cache folder cannot be used, or null; null too when it does not exist yet. */
  unusable() {
    try {
      return untrustedRoot(this.root, statSync(this.root));
    } catch (err) {
      return err.code === "ENOENT" ? null : fsReason(err);
    }
  }
  async restore(dir, paths, key) {
    const entry = join(this.root, key);
    try {
      lstatSync(entry);
    } catch {
      return { hit: false, warning: null };
    }
    const unusable = this.unusable();
    if (unusable) return { hit: false, warning: `the build cache cannot be used: ${unusable}` };
    const staged = mkdtempSync(join(dir, ".pairbench-restore-"));
    try {
      const why = untrusted(entry, lstatSync(entry));
      if (why) throw new CacheRefusal(why);
      verifyEntry(entry, key, paths, untrusted);
      cpSync(entry, staged, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
      placeEntry(staged, verifyEntry(staged, key, paths), dir);
      return { hit: true };
    } catch (err) {
      const why = err instanceof CacheRefusal ? err.message : fsReason(err);
      return { hit: false, warning: `the build cache's entry ${entry} is not used (${why})` };
    } finally {
      rmSync(staged, { recursive: true, force: true });
    }
  }
  async save(dir, paths, key) {
    const entry = join(this.root, key);
    const unusable = this.unusable();
    if (unusable) return `not saved: ${unusable}`;
    let old = null;
    try {
      const st = lstatSync(entry);
      const why = untrusted(entry, st);
      if (why) return `not saved: ${why}`;
      try {
        verifyEntry(entry, key, paths, untrusted);
        return "already in the cache";
      } catch (err) {
        if (!(err instanceof CacheRefusal)) throw err;
        old = err.message;
      }
    } catch (err) {
      if (err.code !== "ENOENT") return `not saved: ${fsReason(err)}`;
    }
    let tmp = null;
    try {
      mkdirSync(this.root, { recursive: true, mode: 448 });
      tmp = mkdtempSync(join(this.root, `.tmp-${process.pid}-`));
      const present = stageEntry(dir, paths, key, tmp);
      if (present.length === 0) {
        rmSync(tmp, { recursive: true, force: true });
        return `not saved: the build made none of ${paths.join(", ")}`;
      }
      if (old !== null) rmSync(entry, { recursive: true, force: true });
      renameSync(tmp, entry);
      return old === null ? "saved" : `saved, in place of an entry that failed its checks (${old})`;
    } catch (err) {
      if (tmp !== null) rmSync(tmp, { recursive: true, force: true });
      return `not saved: ${err instanceof CacheRefusal ? err.message : fsReason(err)}`;
    }
  }
};
function localBuildCache(spec, env) {
  if (!spec.buildCache) return void 0;
  if (spec.buildCache.dir === null) {
    throw new UsageError("--build-cache-dir", "--build-cache needs --build-cache-dir <dir> on the command line: the folder its entries are kept in (the action uses GitHub's cache)");
  }
  return { paths: spec.buildCache.paths, toolchain: spec.buildCache.toolchain, store: new LocalCacheStore(spec.buildCache.dir), saves: "base", why: "the command line saves the base build on a miss", env };
}

// src/cli/args.ts
import { resolve as resolve2 } from "node:path";
import { parseArgs } from "node:util";
var HTML_OPTION = { name: "html", kind: "string", arg: "<file>", help: "write the HTML report: plots of every benchmark, self-contained", cliOnly: true, tier: "user" };
function helpLines(options, all, line = (o) => optionLine(o)) {
  const shown = all ? options : options.filter((o) => o.tier === "user");
  const lines = shown.map(line);
  const more = options.length - shown.length;
  if (more > 0) lines.push(`  ${"--help-all".padEnd(24)} every option, with the ${more} advanced ones (docs/reference.md says why each is there)`);
  return lines;
}
function optionLine(o, opts = {}) {
  const flag = `--${o.name}${o.kind === "boolean" ? "" : ` ${o.arg ?? "<value>"}`}`;
  const shown = opts.fallback !== void 0 ? opts.fallback : o.default !== void 0 ? ` (default: ${o.default})` : "";
  const choices = opts.choices && o.choices && o.kind !== "list" ? ` [${o.choices.join(", ")}]` : "";
  return `  ${flag.padEnd(24)} ${o.help}${choices}${shown ?? ""}`;
}
function parseFlags(argv, names, allowPositionals, extra = []) {
  const options = { help: { type: "boolean", short: "h" }, "help-all": { type: "boolean" } };
  for (const name of names) {
    const def = [...COMPARE_OPTIONS, ...extra].find((o) => o.name === name);
    options[name] = { type: def.kind === "boolean" ? "boolean" : "string" };
  }
  const { tokens } = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true });
  const flags = {};
  const positionals = [];
  for (const token of tokens) {
    if (token.kind === "option-terminator") continue;
    if (token.kind === "positional") {
      if (!allowPositionals) throw new UsageError(token.value, `unexpected argument ${show(token.value)}; options start with --`);
      positionals.push(token.value);
      continue;
    }
    const flag = token.rawName;
    const type = Object.hasOwn(options, token.name) ? options[token.name].type : void 0;
    if (type === void 0) throw new UsageError(flag, `${flag}: unknown option; run with --help for the list`);
    if (type === "boolean") {
      if (token.value !== void 0) throw new UsageError(flag, `${flag}: takes no value; got ${show(token.value)}`);
      flags[token.name] = true;
      continue;
    }
    if (token.value === void 0) throw new UsageError(flag, `${flag}: a value is missing`);
    if (!token.inlineValue && token.value.length > 1 && token.value.startsWith("-")) {
      throw new UsageError(flag, `${flag}: its value is missing or starts with a dash; write ${flag}=<value> if you mean it`);
    }
    flags[token.name] = token.value;
  }
  return { flags, positionals };
}
function loadConfig(flags, cwd) {
  if (typeof flags["config"] !== "string") return void 0;
  const path = flags["config"];
  try {
    return { path, text: readRegularFile(resolve2(cwd, path), LIMITS.configBytes).toString("utf8") };
  } catch (err) {
    if (err instanceof FileRefused) {
      const { why } = err;
      throw new UsageError("--config", `--config: got ${show(path)}, ${"kind" in why ? err.message : `a file of ${why.bytes ?? `more than ${why.cap}`} bytes`}; expected a YAML file${"kind" in why ? "" : ` of at most ${LIMITS.configBytes} bytes`}`);
    }
    const code = errorCode(err);
    if (code === "ENOENT") throw UsageError.invalid("--config", path, "a readable YAML file");
    if (code === "EISDIR") throw new UsageError("--config", `--config: got ${show(path)}, a folder; expected a YAML file`);
    throw new UsageError("--config", `--config: got ${show(path)}, which cannot be read (${fsReason(err)}); expected a readable YAML file`);
  }
}

// src/cli/bisect-command.ts
var BENCHMARK_OPTION = { name: "benchmark", kind: "string", arg: "<name>", help: "the benchmark to search for: a config entry, or a result name of a harness suite", cliOnly: true, tier: "user" };
var BISECT_OUT = "pairbench-bisect.json";
var BISECT_OPTIONS = [
  BENCHMARK_OPTION,
  ...COMPARE_OPTIONS.filter((o) => !["base-dir", "head-dir", "shard", "fail-on", "changed-only", "paths-mode", "paths-ignore"].includes(o.name)).map(
    (o) => o.name === "out" ? { ...o, default: BISECT_OUT, help: "the bisect's summary (JSON); each step's results file is written beside it" } : o.name === "max-time" ? { ...o, help: "budget of the whole search, builds included: each test gets an equal share of what is left" } : o
  )
];
function help(all) {
  const lines = helpLines(BISECT_OPTIONS, all);
  return `Usage: pairbench bisect --base <rev> [--head <rev>] --benchmark <name> [options]

Finds the first commit of the first-parent history --base..--head that regresses the benchmark.
Each step compares one commit with --base by compare's paired test, on that benchmark alone; the
search first confirms the head regresses, then halves the range. It runs at most 1 + ceil(log2 n)
tests for n commits, each at alpha divided by that number (Bonferroni), so the chance that any
step's verdict is wrong is at most --alpha. A step whose interval lies below the threshold counts
as not regressed; one whose interval still reaches past it stops the search. The base is built
once; a commit that cannot be built is skipped.

Options:
${lines.join("\n")}

Exit status: 0 the search ended (its finding is printed), 2 bad usage, 3 the base or the head could not be built, 130 interrupted.`;
}
async function bisect(argv, io) {
  const { flags } = parseFlags(argv, BISECT_OPTIONS.map((o) => o.name), false, BISECT_OPTIONS);
  const config = loadConfig(flags, process.cwd());
  if (flags["help"] || flags["help-all"]) {
    io.stdout.write(`${help(flags["help-all"] === true)}
`);
    return 0;
  }
  const benchmark = flags["benchmark"];
  delete flags["benchmark"];
  if (typeof benchmark !== "string" || benchmark.trim() === "") throw new UsageError("--benchmark", "--benchmark is required: the name of the benchmark whose regression is searched for");
  if (flags["base"] === void 0) throw new UsageError("--base", "--base is required: the revision the range starts from (a pull request's merge-base)");
  const spec = buildSpec({ out: BISECT_OUT, ...flags }, { cwd: process.cwd(), naming: cliNaming, ...config ? { config } : {} });
  checkOutputPath("--out", spec.out, { replaced: true });
  const markdown = spec.markdown;
  if (markdown !== null) checkOutputPath("--markdown", markdown, { replaced: false });
  const interrupt = onInterrupt();
  try {
    const log = (line) => {
      if (!spec.quiet || line.startsWith("error") || line.startsWith("warning") || line.startsWith("Step") || line.startsWith("Commit")) io.stderr.write(`${line}
`);
    };
    const buildCache = localBuildCache(spec, io.env);
    const outcome = await runBisect(spec, benchmark, { log, signal: interrupt.signal, env: { ...io.env }, ...buildCache ? { buildCache } : {} });
    if (markdown !== null) writeReportFile(markdown, renderBisectMarkdown(outcome.result));
    if (spec.json) io.stdout.write(`${renderBisectJson(outcome.result)}
`);
    else io.stdout.write(`${renderBisectText(outcome.result)}
`);
    io.stderr.write(`results: ${outcome.resultsPath}
`);
    return outcome.exitCode;
  } finally {
    interrupt.dispose();
  }
}

// src/schedule/scripted-runner.ts
import { readFileSync } from "node:fs";
import { basename, resolve as resolve3 } from "node:path";
var DEBUG_RUNNER_VARIABLE = "PAIRBENCH_DEBUG_RUNNER";
var SCRIPTED_HOST = { platform: "linux", allowed: [0, 1], taskset: true };
var BenchmarkScriptSchema = external_exports.strictObject({
  /** base's value of a run, ms, before noise (wall time and CPU time; plus `overheadMs` for the shell); with `goBenchmarks`, what starting the process costs */
  baseMs: external_exports.number().positive(),
  /** head's value over base's (1.1: head 10% slower); default 1, an A/A */
  factor: external_exports.number().positive().default(1),
  /** each run is multiplied by exp(noise × z), z standard normal: the spread of ln(run) (with `goBenchmarks`, of a process: all its repetitions); default 0 */
  noise: external_exports.number().min(0).max(1).default(0),
  /** peak memory of a run, MiB, before the factor and noise (`--metric rss`); default 64 */
  rssMiB: external_exports.number().positive().default(64),
  /** a side's runs from its `fromRun`-th (counted from 1, retries too) exit with `exitCode` */
  fail: external_exports.strictObject({ side: external_exports.enum(["base", "head"]), fromRun: external_exports.number().int().min(1), exitCode: external_exports.number().int().min(1).max(255).default(1) }).optional(),
  /** Go: each repetition of a process is multiplied by exp(repetitionNoise × z), z standard normal; default 0 */
  repetitionNoise: external_exports.number().min(0).max(1).optional(),
  /** pauses a run (Go: a repetition) catches, `perMs` per ms of its length on average (Poisson), each adding `ms` */
  pauses: external_exports.strictObject({ perMs: external_exports.number().min(0), ms: external_exports.number().min(0) }).optional(),
  /** a whole process (a run) lands in a slow mode with `probability`, every figure of it multiplied by `factor` */
  slowMode: external_exports.strictObject({ probability: external_exports.number().min(0).max(1), factor: external_exports.number().positive() }).optional(),
  /**
   * `--format go`: the suite's Go benchmarks by name (`BenchmarkParse`), each one iteration's time
   * (ns, before noise) and head's factor over base's (default: the benchmark's `factor`). A run then
   * costs `baseMs` (starting the process) and what its repetitions take.
   */
  goBenchmarks: external_exports.record(external_exports.string(), external_exports.strictObject({ nsPerOp: external_exports.number().positive(), factor: external_exports.number().positive().optional() })).superRefine((r, ctx) => {
    for (const key of Object.keys(r)) if (!/^Benchmark/.test(key)) ctx.addIssue({ code: "custom", path: [key], message: `got ${JSON.stringify(key)}; expected a Go benchmark name, starting with Benchmark` });
  }).optional()
});
var RunnerScriptSchema = external_exports.strictObject({
  /** seeds every run's noise; default 1 */
  seed: external_exports.number().int().min(0).max(2 ** 32 - 1).default(1),
  /** where the clock starts (the results file's startedAt); default 2025-01-01T00:00:00.000Z */
  start: external_exports.iso.datetime().default("2025-01-01T00:00:00.000Z"),
  /** what starting the shell costs a run, ms: an empty calibration run (`sh -c ''`) takes this, a benchmark's run this more; default 1 */
  overheadMs: external_exports.number().min(0).default(1),
  /** what a `--prepare` run takes, ms; default 0 */
  prepareMs: external_exports.number().min(0).default(0),
  /** the n-th run of a benchmark (from 1, over all benchmarks and sides) is interrupted as by Ctrl-C: `interrupt` is called, and the run ends cancelled */
  interruptAt: external_exports.number().int().min(1).optional(),
  /** each CPU's share kept busy by other work just before measuring, by its number ("1": 0.6), as /proc/stat would read it (engine.ts); default: none, every CPU free */
  cpuBusy: external_exports.record(external_exports.string().regex(/^\d+$/), external_exports.number().min(0).max(1)).optional(),
  /** by benchmark name (a `--run` benchmark is named by its command, or --name); `*` for any other */
  benchmarks: external_exports.record(external_exports.string().min(1), BenchmarkScriptSchema).refine((b) => Object.keys(b).length > 0, "expected at least one benchmark")
});
function readRunnerScript(path, cwd) {
  const input = DEBUG_RUNNER_VARIABLE;
  let text;
  try {
    text = readFileSync(resolve3(cwd, path), "utf8");
  } catch (err) {
    throw new UsageError(input, `${input}: got ${show(path)}, which cannot be read (${fsReason(err)}); expected a readable JSON runner script`);
  }
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new UsageError(input, `${input} ${path}: not valid JSON (${err instanceof Error ? err.message.split("\n")[0] : String(err)})`);
  }
  const parsed = RunnerScriptSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? issue.path.map((p) => typeof p === "number" ? `[${p}]` : `.${String(p)}`).join("").replace(/^\./, "") : "";
    throw new UsageError(input, `${input} ${path}: ${where || "the file"}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}
function normal(rng) {
  return Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
}
function poisson(mean, rng) {
  if (mean <= 0) return 0;
  if (mean > 500) return Math.max(0, Math.round(mean + Math.sqrt(mean) * normal(rng)));
  const limit = Math.exp(-mean);
  let k = 0;
  let p = rng();
  while (p > limit) {
    k++;
    p *= rng();
  }
  return k;
}
function pausesIn(ms, pauses, rng) {
  return pauses ? poisson(pauses.perMs * ms, rng) * pauses.ms : 0;
}
function modeOf(slow, rng) {
  return slow && rng() < slow.probability ? slow.factor : 1;
}
function goSelects(pattern, name) {
  const levels = pattern.split("/");
  const parts = name.split("/");
  return parts.every((part, i) => i >= levels.length || new RegExp(levels[i]).test(part));
}
function goIterations(benchtime, nsPerOp) {
  const count = /^(\d+)x$/.exec(benchtime ?? "");
  if (count) return Math.max(1, Number(count[1]));
  const time = /^(\d+(?:\.\d+)?)(us|ms|s)$/.exec(benchtime ?? "");
  const ns = time ? Number(time[1]) * (time[2] === "us" ? 1e3 : time[2] === "ms" ? 1e6 : 1e9) : 1e9;
  return Math.max(1, Math.round(ns / nsPerOp));
}
function scriptedRunner(spec, script, opts) {
  const input = `${DEBUG_RUNNER_VARIABLE} ${opts.path}`;
  const names = spec.benchmarks.map((b) => b.name);
  for (const key of Object.keys(script.benchmarks)) {
    if (key !== "*" && !names.includes(key)) throw UsageError.invalid(`${input}: benchmarks`, key, `one of the comparison's benchmarks (${names.map((n) => show(n)).join(", ")}) or "*"`);
  }
  const byCommand = /* @__PURE__ */ new Map();
  const goSuites = [];
  for (const bench of spec.benchmarks) {
    const entry = script.benchmarks[bench.name] ?? script.benchmarks["*"];
    if (!entry) throw new UsageError(input, `${input}: benchmark ${show(bench.name)} has no entry; expected one under benchmarks, by its name or "*"`);
    if (bench.format !== "time" && bench.format !== "go") throw new UsageError(input, `${input}: benchmark ${show(bench.name)} is --format ${bench.format}; expected --format time or go, the formats the scripted runner plays`);
    if (bench.format === "go" && !entry.goBenchmarks) throw new UsageError(input, `${input}: benchmark ${show(bench.name)} is --format go and its entry has no goBenchmarks; expected the suite's Go benchmarks under goBenchmarks`);
    if (bench.format !== "go" && entry.goBenchmarks) throw new UsageError(input, `${input}: benchmark ${show(bench.name)} is --format ${bench.format} and its entry has goBenchmarks; expected goBenchmarks only for a --format go suite`);
    if (bench.metrics.includes("instructions")) throw new UsageError(input, `${input}: benchmark ${show(bench.name)} measures instructions; expected wall, cpu or rss, the metrics the scripted runner plays`);
    const run2 = wholeSuite(bench.run).command;
    if (bench.format === "go") goSuites.push({ run: run2, name: bench.name, script: entry });
    else if (!byCommand.has(run2)) byCommand.set(run2, { name: bench.name, script: entry, prepare: false });
    if (bench.prepare && !byCommand.has(bench.prepare)) byCommand.set(bench.prepare, { name: bench.name, script: entry, prepare: true });
  }
  const dirOf = (r) => r.kind === "dir" ? resolve3(spec.cwd, r.dir) : null;
  const baseDir = dirOf(spec.base);
  const headDir = dirOf(spec.head);
  const aa = opts.aa === true || baseDir !== null && baseDir === headDir;
  const sideOf = (cwd) => {
    if (cwd === headDir) return aa ? "base" : "head";
    if (cwd === baseDir) return "base";
    const name = basename(cwd);
    return name === "base" || name === "head" ? aa ? "base" : name : null;
  };
  let now = Date.parse(script.start);
  let runs = 0;
  const counts = /* @__PURE__ */ new Map();
  let together = null;
  const advance = (req, ms) => {
    if (req.cpus !== void 0 && together !== null && !together.cpus.has(req.cpus)) {
      together.cpus.add(req.cpus);
      now = Math.max(now, together.start + ms);
      return;
    }
    if (req.cpus !== void 0) {
      if (together === null) queueMicrotask(() => together = null);
      together = { start: now, cpus: /* @__PURE__ */ new Set([req.cpus]) };
    }
    now += ms;
  };
  const answer = async (req) => {
    if (req.signal?.aborted) return cancelledResult();
    const figures = (ms, rssBytes = null) => ({ wallMs: ms, cpuMs: ms, maxRssBytes: rssBytes, stdout: "", outputTail: "", signal: null });
    if (req.command === "") {
      advance(req, script.overheadMs);
      return { ...figures(script.overheadMs), outcome: "ok", exitCode: 0 };
    }
    const side = sideOf(req.cwd);
    const go = byCommand.has(req.command) ? void 0 : goSuites.filter((g) => req.command === g.run || req.command.startsWith(`${g.run} `)).sort((a, b) => b.run.length - a.run.length)[0];
    const target = go ? { ...go, prepare: false } : byCommand.get(req.command);
    if (!target || !side) {
      return { ...figures(0), outcome: "spawn", exitCode: null, outputTail: `${DEBUG_RUNNER_VARIABLE}: the script plays no run of ${show(req.command)} in ${show(req.cwd)}` };
    }
    if (target.prepare) {
      advance(req, script.prepareMs);
      return { ...figures(script.prepareMs), outcome: "ok", exitCode: 0 };
    }
    runs++;
    if (runs === script.interruptAt) {
      const signal = req.signal;
      if (opts.interrupt && signal) {
        const aborted = new Promise((done) => {
          const wait = setTimeout(done, 6e4);
          signal.addEventListener("abort", () => (clearTimeout(wait), done()), { once: true });
        });
        opts.interrupt();
        await aborted;
      }
      return cancelledResult();
    }
    const key = `${target.name}\0${side}`;
    const k = (counts.get(key) ?? 0) + 1;
    counts.set(key, k);
    const { baseMs, factor, noise: noise2, rssMiB, fail } = target.script;
    const { slowMode, pauses } = target.script;
    const scale = (side === "head" ? factor : 1) * Math.exp(noise2 * normal(rngFor(script.seed, "run", target.name, side, k))) * (slowMode ? modeOf(slowMode, rngFor(script.seed, "mode", target.name, side, k)) : 1);
    if (target.script.goBenchmarks) return goRun(req, target.name, target.script, side, k, scale);
    const wallMs = script.overheadMs + baseMs * scale + (pauses ? pausesIn(baseMs * scale, pauses, rngFor(script.seed, "pauses", target.name, side, k)) : 0);
    if (wallMs > req.timeoutMs) {
      advance(req, req.timeoutMs);
      return { ...figures(req.timeoutMs), outcome: "timeout", exitCode: null, signal: "SIGKILL" };
    }
    advance(req, wallMs);
    const result = figures(wallMs, Math.round(rssMiB * 2 ** 20 * scale));
    if (fail && fail.side === side && k >= fail.fromRun) return { ...result, outcome: "exit", exitCode: fail.exitCode, outputTail: `scripted failure: run ${k} of ${side}
` };
    return { ...result, outcome: "ok", exitCode: 0 };
  };
  const goRun = (req, name, bench, side, k, scale) => {
    const filter = req.env["PAIRBENCH_FILTER"] ?? ".";
    const count = Math.max(1, Number(req.env["PAIRBENCH_COUNT"] ?? "1") || 1);
    const lines = ["goos: linux", "goarch: amd64", "pkg: example.com/scripted"];
    let ms = script.overheadMs + bench.baseMs * scale;
    for (const [goName, b] of Object.entries(bench.goBenchmarks)) {
      if (!goSelects(filter, goName)) continue;
      const ns = b.nsPerOp * scale * (side === "head" ? (b.factor ?? bench.factor) / bench.factor : 1);
      const iterations = goIterations(req.env["PAIRBENCH_BENCHTIME"], ns);
      const rng = rngFor(script.seed, "go", name, goName, side, k);
      for (let r = 0; r < count; r++) {
        const lengthMs = iterations * ns * Math.exp((bench.repetitionNoise ?? 0) * normal(rng)) / 1e6;
        const took = lengthMs + pausesIn(lengthMs, bench.pauses, rng);
        ms += took + ns / 1e6;
        lines.push(`${goName}-2	${String(iterations).padStart(10)}	${(took * 1e6 / iterations).toPrecision(6)} ns/op`);
      }
    }
    lines.push("PASS", "ok  	example.com/scripted	0.1s", "");
    if (ms > req.timeoutMs) {
      advance(req, req.timeoutMs);
      return { wallMs: req.timeoutMs, cpuMs: req.timeoutMs, maxRssBytes: null, stdout: "", outputTail: "", signal: "SIGKILL", outcome: "timeout", exitCode: null };
    }
    advance(req, ms);
    const result = { wallMs: ms, cpuMs: ms, maxRssBytes: Math.round(bench.rssMiB * 2 ** 20 * scale), stdout: lines.join("\n"), outputTail: "", signal: null };
    if (bench.fail && bench.fail.side === side && k >= bench.fail.fromRun) return { ...result, outcome: "exit", exitCode: bench.fail.exitCode, outputTail: `scripted failure: run ${k} of ${side}
` };
    return { ...result, outcome: "ok", exitCode: 0 };
  };
  const runner = async (requests) => {
    const out = [];
    let skipping = false;
    for (const req of requests) {
      if (skipping) {
        out.push(skippedResult());
        continue;
      }
      const result = await answer(req);
      out.push(result);
      if (req.stopOnFailure && result.outcome !== "ok") skipping = true;
    }
    return out;
  };
  return {
    runner,
    clock: () => now,
    timer: () => Promise.resolve({ kind: "scripted", notices: [] }),
    // what other work the script says kept each CPU busy (none: every CPU free)
    cpuLoad: (cpus) => Promise.resolve(new Map(cpus.map((cpu) => [cpu, script.cpuBusy?.[cpu] ?? 0]))),
    counter: () => Promise.resolve(null)
  };
}

// src/cli/debug.ts
function debugHost(env) {
  const path = env[DEBUG_RUNNER_VARIABLE];
  return path === void 0 || path === "" ? {} : { host: SCRIPTED_HOST };
}
function debugHooks(io, spec, kind) {
  const path = io.env[DEBUG_RUNNER_VARIABLE];
  if (path === void 0 || path === "") return null;
  const script = readRunnerScript(path, spec.cwd);
  const scripted = scriptedRunner(spec, script, {
    path,
    aa: kind === "noise",
    // as a user's Ctrl-C: the command line's own handler (cli/run-comparison.ts) stops the comparison
    interrupt: () => process.kill(process.pid, "SIGINT")
  });
  io.stderr.write(`warning: ${DEBUG_RUNNER_VARIABLE} is set: no command is run, every run is answered from ${path}
`);
  return scripted;
}

// src/cli/emit.ts
function checkOutputs(spec, html = null) {
  if (spec.out !== null) checkOutputPath("--out", spec.out, { replaced: true });
  if (spec.markdown !== null) checkOutputPath("--markdown", spec.markdown, { replaced: false });
  if (html !== null) checkOutputPath("--html", html, { replaced: false });
}
function writeReport(io, what, path, render, resultsFile) {
  try {
    writeReportFile(path, render());
  } catch (err) {
    io.stderr.write(`warning: could not write the ${what} ${path}: ${fsReason(err)}; the exit status is the comparison's${resultsFile ? `, and its results are in ${resultsFile}` : ""}
`);
  }
}
var REPORT_GRACE_MS = 1500;
async function emit(io, results, spec, replay, late = () => false) {
  const { failOn } = spec;
  const noise2 = results.kind === "noise";
  const resultsFile = spec.out ?? null;
  const turn = async (what) => {
    await new Promise((resolve5) => setImmediate(resolve5));
    if (!late()) return true;
    io.stderr.write(`pairbench: interrupted: the ${what} was not written; the results file ${resultsFile ?? ""} holds everything (pairbench report renders it)
`);
    return false;
  };
  if (spec.markdown && await turn("Markdown report")) writeReport(io, "Markdown report", spec.markdown, () => noise2 ? renderNoiseMarkdown(results) : renderMarkdown(results, { replay, failOn }), resultsFile);
  if (spec.html && await turn("HTML report")) writeReport(io, "HTML report", spec.html, () => renderHtml(results, { replay, failOn }), resultsFile);
  if (!await turn("table")) return;
  if (spec.json) for (const piece of resultsText(results)) io.stdout.write(piece);
  else if (noise2) io.stdout.write(`${renderNoiseText(results)}
`);
  else io.stdout.write(`${renderTerminal(results, { color: io.stdout.isTTY === true && !io.env.NO_COLOR, failOn })}
`);
}

// src/cli/run-comparison.ts
async function runAndReport(io, spec, kind, extra = { html: null, configPath: null }) {
  const debug = debugHooks(io, spec, kind);
  const now = debug?.clock ?? Date.now;
  let interruptedAt = null;
  const interrupt = onInterrupt((sig, count) => {
    if (count === 1) {
      interruptedAt = now();
      io.stderr.write(`
pairbench: ${sig} received; stopping the running commands and saving the results...
`);
    } else {
      io.stderr.write(`pairbench: ${sig} again; exiting now
`);
      process.exit(130);
    }
  });
  const buildCache = kind === "compare" ? localBuildCache(spec, io.env) : void 0;
  const progress = spec.quiet || spec.json ? null : new ProgressPrinter(io.stderr, spec, now);
  const log = (line) => {
    progress?.clear();
    if (!spec.json || line.startsWith("error") || line.startsWith("warning")) io.stderr.write(`${line}
`);
  };
  try {
    const outcome = await (kind === "noise" ? runNoise : runCompare)(spec, {
      log,
      signal: interrupt.signal,
      env: { ...io.env },
      ...buildCache ? { buildCache } : {},
      ...progress ? { progress: (p) => progress.update(p) } : {},
      ...debug
    });
    progress?.clear();
    if (outcome.results.verdict === void 0) {
      io.stderr.write(`results (not judged): ${outcome.resultsPath}
`);
      return outcome.exitCode;
    }
    const late = () => interruptedAt !== null && now() - interruptedAt > REPORT_GRACE_MS;
    await emit(io, outcome.results, { ...spec, html: extra.html, out: outcome.resultsPath }, { commands: commandsOf(spec, extra.configPath), resultsFiles: [spec.out] }, late);
    if (!spec.json) io.stderr.write(`results: ${outcome.resultsPath}
`);
    return interrupt.at !== null ? 130 : outcome.exitCode;
  } finally {
    progress?.clear();
    interrupt.dispose();
  }
}

// src/cli/compare.ts
function help2(all) {
  const lines = helpLines([...COMPARE_OPTIONS, HTML_OPTION], all, (o) => optionLine(o, { choices: true }));
  return `Usage: pairbench compare [options]

Options:
${lines.join("\n")}

Exit status: 0 no gate failed, 1 a regression (with --fail-on regression), 2 bad usage, 3 could not complete, 130 interrupted.`;
}
async function compare(argv, io) {
  const { flags } = parseFlags(argv, [...COMPARE_OPTIONS.map((o) => o.name), "html"], false, [HTML_OPTION]);
  if (flags["help"] || flags["help-all"]) {
    io.stdout.write(`${help2(flags["help-all"] === true)}
`);
    return 0;
  }
  const html = typeof flags["html"] === "string" ? flags["html"] : null;
  delete flags["html"];
  const cwd = process.cwd();
  const config = loadConfig(flags, cwd);
  const spec = buildSpec(flags, { cwd, naming: cliNaming, ...config ? { config } : {}, ...debugHost(io.env) });
  checkOutputs(spec, html);
  return runAndReport(io, spec, "compare", { html, configPath: config?.path ?? null });
}

// src/cli/help.ts
var USAGE = `pairbench ${VERSION}: catch performance regressions with randomized pairs

Usage:
  pairbench compare [options]          compare two git revisions (or two directories)
  pairbench report <results.json>...   judge saved results again from their raw pairs
  pairbench noise [options]            A/A run: this machine's noise floor and smallest detectable change
  pairbench bisect --base <rev> --benchmark <name> [options]
                                       the first commit of --base..--head that regresses a benchmark
  pairbench --help | --version

Run \`pairbench compare --help\` for the options.`;
function about(first, io) {
  switch (first) {
    case "--version":
    case "-v":
      io.stdout.write(`${VERSION}
`);
      return 0;
    case void 0:
    case "--help":
    case "-h":
    case "help":
      io.stdout.write(`${USAGE}
`);
      return first === void 0 ? 2 : 0;
    default:
      throw new UsageError(first, `unknown command ${show(first)}; expected compare, report, noise or bisect (see pairbench --help)`);
  }
}

// src/cli/noise-command.ts
import { statSync as statSync2 } from "node:fs";
import { resolve as resolve4 } from "node:path";
var NOISE_EXTRA = [
  { name: "dir", kind: "string", arg: "<dir>", help: "the directory measured on both sides (default: the current directory)", tier: "user" },
  { name: "rev", kind: "string", arg: "<rev>", help: "measure this git revision instead, checked out and built twice (two builds of one commit)", tier: "user" }
];
var NOISE_OPTIONS = [
  ...COMPARE_OPTIONS.filter((o) => !["base", "head", "base-dir", "head-dir", "fail-on", "min-pairs", "shard", "build-cache", "build-cache-key", "build-cache-dir", "changed-only", "paths-mode", "paths-ignore"].includes(o.name)),
  ...NOISE_EXTRA
];
function help3(all) {
  const lines = helpLines(NOISE_OPTIONS, all, (o) => optionLine(o, o.name === "max-pairs" ? { fallback: ` (default for noise: ${NOISE_DEFAULTS["max-pairs"]})` } : {}));
  return `Usage: pairbench noise [options]

An A/A run: the same revision on both sides of every pair, for --max-pairs pairs (no early stop).
Prints this machine's noise (single-run CV, paired CV) and the smallest change compare would
detect here with 30, 100 and 300 pairs: run it once on your runner to pick threshold and max-pairs.

Options:
${lines.join("\n")}`;
}
function isDirectory(path) {
  try {
    return statSync2(path).isDirectory();
  } catch {
    return false;
  }
}
async function noise(argv, io) {
  const { flags } = parseFlags(argv, NOISE_OPTIONS.map((o) => o.name), false, NOISE_EXTRA);
  if (flags["help"] || flags["help-all"]) {
    io.stdout.write(`${help3(flags["help-all"] === true)}
`);
    return 0;
  }
  const { dir, rev, ...rest } = flags;
  if (dir !== void 0 && rev !== void 0) throw new UsageError("--dir", "--dir and --rev cannot be used together: measure a directory or a git revision");
  if (typeof dir === "string" && !isDirectory(resolve4(process.cwd(), dir))) throw UsageError.invalid("--dir", dir, "an existing directory");
  if (typeof rev === "string") checkRevision("--rev", rev);
  const side = rev !== void 0 ? { base: rev, head: rev } : { "base-dir": dir ?? ".", "head-dir": dir ?? "." };
  const cwd = process.cwd();
  const config = loadConfig(flags, cwd);
  const spec = buildSpec({ ...rest, ...side, "min-pairs": "1" }, { cwd, naming: cliNaming, defaults: NOISE_DEFAULTS, ...config ? { config } : {}, ...debugHost(io.env) });
  if (rev !== void 0) spec.base = spec.head;
  checkOutputs(spec);
  return runAndReport(io, spec, "noise");
}

// src/cli/report.ts
var REPORT_OPTIONS = ["alpha", "threshold", "min-change", "outliers", "correction", "fail-on", "allow-nothing-compared", "gate-metric", "markdown", "out", "json", "html"];
function help4() {
  const lines = REPORT_OPTIONS.map((name) => [...COMPARE_OPTIONS, HTML_OPTION].find((o) => o.name === name)).map((o) => `  --${o.name}${o.kind === "boolean" ? "" : ` ${o.arg}`}`.padEnd(26) + o.help);
  return `Usage: pairbench report <results.json>... [options]

Recomputes every statistic from the raw pairs in the files (several files: shards of one comparison).

Options:
${lines.join("\n")}`;
}
async function report(argv, io) {
  const { flags, positionals } = parseFlags(argv, REPORT_OPTIONS, true, [HTML_OPTION]);
  if (flags["help"] || flags["help-all"]) {
    io.stdout.write(`${help4()}
`);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError("report", "report: no results file given; expected pairbench report <results.json>...");
  checkOutputs({ out: typeof flags["out"] === "string" ? flags["out"] : null, markdown: typeof flags["markdown"] === "string" ? flags["markdown"] : null }, typeof flags["html"] === "string" ? flags["html"] : null);
  const given = (name) => parseOptionValue(name, cliNaming(name), flags[name]);
  const gate = given("fail-on");
  const failOn = gate === void 0 ? defaultFailOn() : parseFailOn(cliNaming("fail-on"), gate);
  const floor = given("min-change");
  const judging = { alpha: given("alpha"), threshold: given("threshold"), minChange: floor === void 0 ? void 0 : parseMinChange(cliNaming("min-change"), floor), outliers: given("outliers"), correction: given("correction") };
  checkResultsFileCount("report", positionals.length);
  const files = positionals.map((p) => readResultsFile(p));
  const merged = mergeResults(files, positionals);
  const rejudged = rejudge(merged, {
    trustRecorded: true,
    given: Object.fromEntries(Object.entries(judging).filter(([, v]) => v !== void 0)),
    failOn,
    allowNothingCompared: flags["allow-nothing-compared"] === true,
    ...flags["gate-metric"] !== void 0 ? { gateMetric: parseOptionValue("gate-metric", cliNaming("gate-metric"), flags["gate-metric"]) } : {},
    naming: cliNaming
  });
  for (const w of rejudged.warnings) io.stderr.write(`warning: ${w}
`);
  for (const n of rejudged.notes) io.stderr.write(`note: ${n}
`);
  const judged = rejudged.results;
  if (typeof flags["out"] === "string") writeJudgedFile(flags["out"], judged);
  await emit(io, judged, { json: flags["json"] === true, markdown: typeof flags["markdown"] === "string" ? flags["markdown"] : null, html: typeof flags["html"] === "string" ? flags["html"] : null, failOn }, { resultsFiles: positionals });
  return rejudged.exitCode;
}

// src/cli.ts
var COMMANDS = { compare, report, noise, bisect };
async function main(argv, io) {
  const [first, ...rest] = argv;
  try {
    const command = first !== void 0 && Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : null;
    return command ? await command(rest, io) : about(first, io);
  } catch (err) {
    if (err instanceof PairbenchError) {
      io.stderr.write(`pairbench: ${err.message}
`);
      return err.exitCode;
    }
    io.stderr.write(`pairbench: could not complete: ${err instanceof Error ? err.message : String(err)}
`);
    if (io.env.PAIRBENCH_DEBUG && err instanceof Error) io.stderr.write(`${err.stack}
`);
    return 3;
  }
}
function run() {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (err) => {
      if (errorCode(err) !== "EPIPE") throw err;
    });
  }
  main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
    (code) => process.exitCode = code,
    (err) => {
      process.stderr.write(`pairbench: could not complete: ${err instanceof Error ? err.message : String(err)}
`);
      process.exitCode = 3;
    }
  );
}
if (import.meta.main) run();
export {
  main,
  run
};
