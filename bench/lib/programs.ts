/**
 * Builds the bench program (bench/programs/work.c) with more work at compile time, one directory
 * per variant, so that `pairbench compare --base-dir A --head-dir B --run ./prog` compares real,
 * separately built binaries:
 *
 *   bench/programs/build/base/prog        0% (the baseline)
 *   bench/programs/build/base-again/prog  0%, built a second time (the A/A head: two builds of one source)
 *   bench/programs/build/plus-1/prog      1% more iterations, and so on for every effect asked for
 *
 * `cc -O2 -DWORK_PERMILLE=<1000 + 10 x percent> [-DBASE_ITERS=<n>]`. A build is skipped when its
 * directory holds a binary built from the same source and flags (a stamp file records both).
 *
 *   node bench/lib/programs.ts [--effects 0,1,2,5,10] [--iters N]   # build only, and time each once
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROGRAMS_DIR = resolve(import.meta.dirname, '../programs');
export const SOURCE = join(PROGRAMS_DIR, 'work.c');
export const BUILD_DIR = join(PROGRAMS_DIR, 'build');
export const RUN = './prog';

export interface Variant {
  /** percent more work than the baseline (0 for the A/A head) */
  effectPct: number;
  dir: string;
  flags: string[];
}

export function variantDir(effectPct: number, again = false): string {
  return join(BUILD_DIR, effectPct === 0 ? (again ? 'base-again' : 'base') : `plus-${effectPct}`);
}

function build(dir: string, flags: string[], source: string): void {
  const stampFile = join(dir, 'build-stamp.txt');
  const stamp = `${createHash('sha256').update(source).digest('hex')}\ncc -O2 ${flags.join(' ')}\n`;
  if (existsSync(join(dir, 'prog')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return;
  mkdirSync(dir, { recursive: true });
  execFileSync('cc', ['-O2', ...flags, '-o', join(dir, 'prog'), SOURCE], { stdio: 'inherit' });
  writeFileSync(stampFile, stamp);
}

/** Builds the baseline, its second build and one variant per effect; returns them by effect (0 = the second build). */
export function buildPrograms(effects: readonly number[], opts: { iters?: number } = {}): { base: Variant; heads: Map<number, Variant> } {
  const source = readFileSync(SOURCE, 'utf8');
  const flagsFor = (pct: number) => [`-DWORK_PERMILLE=${Math.round(1000 + 10 * pct)}`, ...(opts.iters ? [`-DBASE_ITERS=${opts.iters}ULL`] : [])];
  const base: Variant = { effectPct: 0, dir: variantDir(0), flags: flagsFor(0) };
  build(base.dir, base.flags, source);
  const heads = new Map<number, Variant>();
  for (const pct of effects) {
    const v: Variant = { effectPct: pct, dir: variantDir(pct, pct === 0), flags: flagsFor(pct) };
    build(v.dir, v.flags, source);
    heads.set(pct, v);
  }
  return { base, heads };
}

/** Wall time of one run of a variant, milliseconds (a rough check of the program's size, not a measurement). */
export function timeOnce(dir: string): number {
  const t0 = process.hrtime.bigint();
  execFileSync(join(dir, 'prog'), { cwd: dir, stdio: 'ignore' });
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const get = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const effects = (get('effects') ?? '0,1,2,5,10').split(',').map(Number);
  const iters = get('iters');
  const { base, heads } = buildPrograms(effects, iters ? { iters: Number(iters) } : {});
  for (const v of [base, ...heads.values()]) {
    timeOnce(v.dir);
    const best = Math.min(...Array.from({ length: 5 }, () => timeOnce(v.dir)));
    console.log(`${v.dir}  ${v.flags.join(' ')}  best of 5: ${best.toFixed(1)} ms`);
  }
}
