/**
 * hyperfine's `--export-json <file>` document. hyperfine prints its own report on stdout, so the
 * run command writes the file and prints it, for example
 *
 *     hyperfine -N --runs 10 --export-json hf.json './parse small.json' './parse large.json' >&2 && cat hf.json
 *
 * - One sample per entry of `results`, named by its `command` (which is the `--command-name`
 *   when one is given). When a parameter scan (`-P`, `-L`) gives several results the same
 *   command name, their `parameters` are appended: `parse {size} [size=1000]`. Two results that
 *   are still named alike are an error (name them apart with `--command-name`).
 * - Statistic: the median of `times` (seconds, normalised to `ns`; falls back to `median`, then
 *   `mean`, for documents without `times`): robust to one slow run of the command.
 */
import { z } from 'zod';
import { checkShape, median, NO_BENCHMARKS_IN_DOCUMENT, parseJsonDocument, SampleCollector } from './common.ts';
import { HarnessParseError, type Sample } from './types.ts';

const Result = z.object({
  command: z.string().trim().min(1),
  times: z.array(z.number().nonnegative()).optional(),
  median: z.number().nonnegative().optional(),
  mean: z.number().nonnegative().optional(),
  parameters: z.record(z.string(), z.union([z.string(), z.number()])).nullish(),
});

const Document = z.object({ results: z.array(Result) });

export function parseHyperfine(text: string): Sample[] {
  const doc = checkShape(
    'hyperfine',
    Document,
    parseJsonDocument('hyperfine', text, 'the JSON document that --export-json writes'),
  );
  const commandCount = new Map<string, number>();
  for (const r of doc.results) commandCount.set(r.command, (commandCount.get(r.command) ?? 0) + 1);

  const out = new SampleCollector('hyperfine');
  const seen = new Set<string>();
  doc.results.forEach((r, index) => {
    const params = Object.entries(r.parameters ?? {});
    const name =
      (commandCount.get(r.command) ?? 0) > 1 && params.length > 0
        ? `${r.command} [${params.map(([k, v]) => `${k}=${String(v)}`).join(', ')}]`
        : r.command;
    if (seen.has(name)) {
      throw new HarnessParseError('hyperfine', null, `results[${index}]: a second result named "${name}"; name the commands apart with --command-name`);
    }
    seen.add(name);
    const seconds =
      r.times !== undefined && r.times.length > 0 ? median(r.times) : (r.median ?? r.mean);
    if (seconds === undefined) {
      throw new HarnessParseError('hyperfine', null, `results[${index}] (${r.command}): expected times, median or mean`);
    }
    out.add(name, seconds * 1e9, 'ns', 'lower-is-better', null);
  });
  return out.finish(NO_BENCHMARKS_IN_DOCUMENT);
}
