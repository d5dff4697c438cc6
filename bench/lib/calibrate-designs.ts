/**
 * Calibration of designed Go suites: A/A comparisons of a scripted Go suite through the whole
 * engine (src/engine.ts, `runCompare`) with the scripted runner and clock of
 * src/schedule/scripted-runner.ts, at the defaults a user gets (threshold 2%, alpha 0.05, min
 * pairs 10, so a pilot of 10 pairs, Holm, Tukey), so that the design each benchmark's pilot
 * chooses (schedule/choose-design.ts: the model, the kept default, processes in modes) is in every
 * trial. The design is chosen from the sizes of the pilot's spreads, never from the signs of its
 * differences, so under no change every pair's sign stays a fair coin and the test stays exact
 * (docs/statistics.md): these cells check that through the real pipeline.
 *
 * A trial is one comparison of a suite of DESIGN_SUITE Go benchmarks (one iteration of 20 µs to
 * 200 µs), each process costing 50 ms to start, under one of the noise models of the scripted
 * runner:
 * - plain:     each process ±1%, each repetition ±1% (no mode: the kept default design)
 * - pauses:    as plain, and a 3 ms pause every 20 ms of a repetition on average (a repetition
 *              catches a collection or not)
 * - slow-mode: as plain, and 3 processes in 10 land in a mode 30% slower (bimodal processes)
 * The measured runs are not bound to CPUs: the scripted runner plays no machine a binding could
 * quiet, and a binding changes only the noise of the runs, not what the test assumes of their signs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSpec, cliNaming } from '../../src/config/spec.ts';
import { runCompare } from '../../src/engine.ts';
import { SCRIPTED_HOST, readRunnerScript, scriptedRunner } from '../../src/schedule/scripted-runner.ts';

export const DESIGN_SUITE = 6;
export const DESIGN_MODELS = ['plain', 'pauses', 'slow-mode'] as const;
export type DesignModel = (typeof DESIGN_MODELS)[number];
const ALPHA = 0.05;

export interface DesignJob {
  kind: 'design';
  model: DesignModel;
  trials: number;
  seed: number;
}

export interface DesignTrial {
  verdicts: string[];
  /** benchmarks significant at any size (adjusted p below alpha) */
  significant: number;
  /** the designs chosen, as `repetitions x length` */
  designs: string[];
  pairs: number;
  /** the scripted clock's time to the end, s */
  seconds: number;
}

export interface DesignJobResult extends DesignJob {
  results: DesignTrial[];
}

const KNOBS: Record<DesignModel, Record<string, unknown>> = {
  plain: {},
  pauses: { pauses: { perMs: 0.05, ms: 3 } },
  'slow-mode': { slowMode: { probability: 0.3, factor: 1.3 } },
};

/** One A/A comparison of the scripted Go suite under `model`, seeded by `seed`. */
export async function designTrial(model: DesignModel, seed: number, dir: string): Promise<DesignTrial> {
  const goBenchmarks = Object.fromEntries(Array.from({ length: DESIGN_SUITE }, (_, i) => [`BenchmarkB${i}`, { nsPerOp: 20_000 * 10 ** (i / (DESIGN_SUITE - 1)) }]));
  writeFileSync(join(dir, 'script.json'), JSON.stringify({ seed, benchmarks: { '*': { baseMs: 50, noise: 0.01, repetitionNoise: 0.01, goBenchmarks, ...KNOBS[model] } } }));
  const spec = buildSpec(
    { 'base-dir': 'base', 'head-dir': 'head', format: 'go', run: 'go test -bench=.', seed: String(seed), out: join(dir, 'results.json'), quiet: true },
    // the default pair runs on the scripted runner's machine, two CPUs (SCRIPTED_HOST): at once, as on a 2-CPU runner
    { cwd: dir, naming: cliNaming, host: SCRIPTED_HOST },
  );
  const scripted = scriptedRunner(spec, readRunnerScript('script.json', dir), { path: 'script.json' });
  const start = scripted.clock();
  const { results } = await runCompare(spec, { log: () => {}, ...scripted });
  const judged = results.benchmarks;
  return {
    verdicts: judged.map((b) => b.verdict ?? 'inconclusive'),
    significant: judged.filter((b) => b.change?.pAdjusted !== undefined && b.change.pAdjusted < ALPHA).length,
    designs: judged.map((b) => (b.design ? `${b.design.repetitions}x${b.design.lengthMs < 15 ? 10 : Math.round(b.design.lengthMs)}` : 'none')),
    pairs: judged.reduce((n, b) => n + b.pairs.length, 0),
    seconds: (scripted.clock() - start) / 1000,
  };
}

export async function runDesignJob(job: DesignJob): Promise<DesignJobResult> {
  const dir = mkdtempSync(join(tmpdir(), 'pairbench-calibrate-designs-'));
  try {
    mkdirSync(join(dir, 'base'));
    mkdirSync(join(dir, 'head'));
    const results: DesignTrial[] = [];
    for (let t = 0; t < job.trials; t++) results.push(await designTrial(job.model, (job.seed * 7919 + t) >>> 0, dir));
    return { ...job, results };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
