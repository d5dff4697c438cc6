/**
 * How the runs were made, where a recorded setting changed it from the default, for the "How this
 * was measured" section of the comment and the HTML report: a reader judging a figure needs to know
 * that every run was bound to one CPU (a Go benchmark then runs on one thread, `b.RunParallel`
 * included), that both sides of each pair ran at once (or why not), or that programs ran from their files as they are, which the replay line only implies.
 */
import { parseCpuList } from '../config/cpu-list.ts';
import type { Results } from '../results/schema.ts';

/** One recorded setting in words: its name, its value as recorded, and what it meant for the runs. */
export interface HowMeasured {
  label: string;
  value: string;
  meaning: string;
}

export function measuredHow(results: Results): HowMeasured[] {
  const settings = results.settings ?? {};
  const out: HowMeasured[] = [];
  const cpus = settings['cpus'];
  // a forged file's text never shows as a setting (S2): only a list as --cpus takes it
  const atOnce = settings['atOnce'];
  // at once, each run had one of the CPUs, which the pair-runs line below says
  const eachOnOne = typeof atOnce === 'string' && /^at once: /.test(atOnce);
  if (typeof cpus === 'string' && parseCpuList(cpus) !== null && !eachOnOne) {
    out.push({ label: 'bound to CPUs', value: cpus, meaning: 'every measured run of both sides ran on them; Go sizes GOMAXPROCS to the CPUs it may use, so a Go benchmark ran on that many threads' });
  }
  const isolation = settings['isolation'];
  // --cpus auto (the default) where it left the runs unbound, or --cpus none: why (bound, the CPUs show above); text from the file, shown as text
  if (typeof isolation === 'string' && !(typeof cpus === 'string' && parseCpuList(cpus) !== null)) {
    out.push({ label: 'bound to CPUs', value: `no (--cpus ${cpus === 'none' ? 'none' : 'auto'})`, meaning: isolation.replace(/^not bound: /, '') });
  }
  // --pair-runs auto (the default) or at-once: the CPUs of the sides, or why the pairs ran in turn all the same; text from the file, shown as text
  if (typeof atOnce === 'string') {
    const ran = /^at once: /.test(atOnce);
    out.push({
      label: 'pair runs',
      value: ran ? 'at once' : settings['pairRuns'] === 'at-once' ? 'in turn (at-once asked)' : 'in turn',
      meaning: ran ? `${atOnce.replace(/^at once: /, '')}; each run had one CPU, and the two shared the caches and memory bandwidth` : atOnce.replace(/^in turn: /, ''),
    });
  }
  if (settings['freshCopy'] === 'off') {
    out.push({ label: 'fresh copies', value: 'off', meaning: 'each program ran from its file as it is, so where its pages lie in memory stayed the same for the whole comparison' });
  }
  return out;
}
