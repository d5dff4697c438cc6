/**
 * The folder a run writes its files to (harness/harness.ts, `FileReading`: Criterion's saved
 * medians), one per side for the whole comparison: emptied before each run of its side, so that
 * what is read after the run is that run's, and read back after it.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FileReading } from '../harness/harness.ts';

/** A run's folder and what pairbench reads there. */
export interface RunFiles {
  reading: FileReading;
  folder: string;
}

/** Empties the folder (made when missing) before a run writes to it. */
export function clearRunFiles(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
}

/** The wanted files under the folder, their text by path relative to it (`/`-separated); none when it is gone. */
export function readRunFiles(files: RunFiles): Map<string, string> {
  const out = new Map<string, string>();
  let names: string[];
  try {
    names = readdirSync(files.folder, { recursive: true, encoding: 'utf8' });
  } catch {
    return out;
  }
  for (const name of names) {
    const path = name.split('\\').join('/');
    if (!files.reading.wanted(path)) continue;
    try {
      out.set(path, readFileSync(join(files.folder, name), 'utf8'));
    } catch {
      // a folder, or gone: nothing to read
    }
  }
  return out;
}
