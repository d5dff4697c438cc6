/** What a results file says about the machine and the run, so that a figure can be read in context. */
import { spawnSync } from 'node:child_process';
import { cpus, freemem, hostname, loadavg, release, totalmem, type } from 'node:os';
import { resolve } from 'node:path';
import { versionOf } from './proc.ts';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface Machine {
  date: string;
  host: string;
  os: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  freeMemoryGiB: number;
  node: string;
  hyperfine: string | null;
  cc: string | null;
  commit: string | null;
  /** 1, 5 and 15 minute load averages when the bench started */
  loadAverage: number[];
  governor: string | null;
}

function git(...args: string[]): string | null {
  const r = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

function governor(): string | null {
  const r = spawnSync('cat', ['/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

export function describeMachine(): Machine {
  const c = cpus();
  const sha = git('rev-parse', '--short', 'HEAD');
  const dirty = git('status', '--porcelain', '--untracked-files=no');
  return {
    date: new Date().toISOString(),
    host: hostname(),
    os: `${type()} ${release()}`,
    cpu: c[0]?.model.trim() ?? 'unknown',
    cores: c.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    freeMemoryGiB: Math.round((freemem() / 2 ** 30) * 10) / 10,
    node: process.version,
    hyperfine: versionOf('hyperfine'),
    cc: versionOf('cc'),
    commit: sha ? `${sha}${dirty ? ' (with uncommitted changes)' : ''}` : null,
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
    governor: governor(),
  };
}

export function machineMarkdown(m: Machine, extra: Record<string, string> = {}): string {
  const rows: [string, string][] = [
    ['Date', m.date],
    ['Machine', `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB RAM (${m.host})`],
    ['OS', m.os],
    ['CPU governor', m.governor ?? 'n/a (not exposed)'],
    ['Load average at start (1/5/15 min)', m.loadAverage.join(' / ')],
    ['Node', m.node],
    ['hyperfine', m.hyperfine ?? 'not installed'],
    ['C compiler', m.cc ?? 'none'],
    ['pairbench commit', m.commit ?? 'unknown'],
    ...Object.entries(extra),
  ];
  return ['| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v.replace(/\|/g, '\\|')} |`)].join('\n');
}

/** `1234567` ms as `20m 35s`. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}
