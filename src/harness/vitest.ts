/**
 * vitest's benchmark results, in either of the two JSON documents vitest writes:
 *
 * - **vitest 5**: the JSON reporter, `vitest bench --run --reporter=json --outputFile=<file>`.
 *   vitest 5 runs benchmarks inside tests (`test('sort', async ({ bench }) => { await
 *   bench('native', fn).run() })`, https://vitest.dev/guide/benchmarking) and the reporter lists
 *   them per test: `testResults[].assertionResults[].benchmarks[]`, each a group (one `.run()` or
 *   `bench.compare()`, named by the test's full name or the `name` option) of `tasks` with
 *   tinybench's statistics (`latency`, in milliseconds; vitest's `serializeBenchmark`, tinybench 6's
 *   `Statistics`). `vitest bench` has no `--outputJson` any more.
 * - **vitest 4 and earlier**: `vitest bench --run --outputJson <file>`:
 *   `files[].groups[].benchmarks[]`, where a group is a `describe` (`fullName`:
 *   `bench/parse.bench.ts > parse`) and each benchmark carries tinybench 2's statistics (`median`,
 *   `mean`, `samples`, in milliseconds).
 *
 * The command writes the file and prints it (the reporter prints a line of its own on stdout):
 *
 *     npx vitest bench --run --reporter=json --outputFile=build/bench.json >&2 && cat build/bench.json
 *
 * Statistic: the **median** time of the run's samples, normalised to ns: the median of
 * `latency.samples` when the file has them (vitest 5 with `benchmark.retainSamples`; vitest 4
 * writes `samples: []`), else tinybench's own median of them (`latency.p50`, vitest 5; `median`,
 * vitest 4), else the mean (`latency.mean`, `mean`) for a document that carries nothing else. A
 * benchmark's samples are its iterations inside one run: one GC pause lands in one of them, and the
 * median stays with the typical iteration where the mean would move. Not their least, though it is
 * the robust estimator where noise only adds (Chen & Revels 2016, "Robust benchmarking in noisy
 * environments", arXiv:1608.04295): in vitest's runs some processes are slow even at their fastest
 * iteration, and the least narrowed a real suite's pairs no more than the median (docs/performance.md,
 * "Suites not tuned on").
 *
 * Names, as vitest prints its tree (file, describe blocks, test, benchmark), joined with ` > `:
 * - vitest 5: `<file> > <describe> > <test> > <bench>`, with the group's `name` option before the
 *   bench where it is not the test's own name (`bench.compare(..., { name: 'n=100' })` in a loop
 *   gives `… > sizes > n=100 > native`). `<file>` is the file's name (`kernels.bench.ts`): the
 *   reporter writes absolute paths, which differ between base's and head's folders. Files of the
 *   same name in one run are told apart by their path below the deepest folder they share
 *   (`a/parse.bench.ts`, `b/parse.bench.ts`).
 * - vitest 4: `<file> > <describe> > <bench>`, with the file's path as vitest writes it, relative
 *   to the project root.
 * A name that occurs twice in one run (two `.run()` calls of one bench in one test) is one
 * benchmark, combined by the median as in every format. Tasks read from a stored baseline
 * (`bench.from()`, `fromStore: true`) were not measured in the run and are left out.
 */
import { z } from 'zod';
import { checkShape, median, NO_BENCHMARKS_IN_DOCUMENT, parseJsonDocument, SampleCollector } from './common.ts';
import { HarnessParseError, type Sample } from './types.ts';

/** The separator vitest prints between the parts of a test's name (`createTaskName`). */
const VITEST_SEPARATOR = ' > ';

const Times = z.array(z.number().nonnegative());

/** tinybench 6's `Statistics` (vitest 5), the fields read. */
const Latency = z.object({
  samples: Times.nullish(),
  p50: z.number().nonnegative().optional(),
  mean: z.number().nonnegative(),
});

const Task5 = z.object({ name: z.string().trim().min(1), latency: Latency, fromStore: z.boolean().optional() });

const Vitest5 = z.object({
  testResults: z.array(
    z.object({
      name: z.string().min(1),
      assertionResults: z.array(
        z.object({
          ancestorTitles: z.array(z.string()),
          title: z.string(),
          benchmarks: z.array(z.object({ name: z.string(), tasks: z.array(Task5) })).optional(),
        }),
      ),
    }),
  ),
});

const Bench4 = z.object({
  name: z.string().trim().min(1),
  samples: Times.nullish(),
  median: z.number().nonnegative().optional(),
  mean: z.number().nonnegative(),
});

const Vitest4 = z.object({
  files: z.array(
    z.object({
      filepath: z.string().min(1),
      groups: z.array(z.object({ fullName: z.string().min(1), benchmarks: z.array(Bench4) })),
    }),
  ),
});

const EXPECTED = "the JSON document of vitest bench's JSON reporter (--reporter=json --outputFile) or of --outputJson (vitest 4)";

export function parseVitest(text: string): Sample[] {
  const doc = parseJsonDocument('vitest', text, EXPECTED);
  const out = new SampleCollector('vitest');
  const isObject = doc !== null && typeof doc === 'object' && !Array.isArray(doc);
  if (isObject && 'testResults' in doc) readVitest5(checkShape('vitest', Vitest5, doc), out);
  else if (isObject && 'files' in doc) readVitest4(checkShape('vitest', Vitest4, doc), out);
  else throw new HarnessParseError('vitest', null, `the document has neither testResults nor files; expected ${EXPECTED}`);
  return out.finish(NO_BENCHMARKS_IN_DOCUMENT);
}

/** The run's value in ms: median of the samples, else the harness's median, else the mean. */
function runValue(samples: readonly number[] | null | undefined, med: number | undefined, mean: number): number {
  if (samples && samples.length > 0) return median(samples);
  return med ?? mean;
}

function readVitest5(doc: z.infer<typeof Vitest5>, out: SampleCollector): void {
  const labels = fileLabels(doc.testResults.map((f) => f.name));
  doc.testResults.forEach((file, i) => {
    const label = labels[i]!;
    for (const test of file.assertionResults) {
      const testName = [...test.ancestorTitles, test.title].join(VITEST_SEPARATOR);
      for (const group of test.benchmarks ?? []) {
        const prefix = [label, testName, ...(group.name !== testName && group.name.trim() !== '' ? [group.name] : [])];
        for (const task of group.tasks) {
          if (task.fromStore === true) continue; // a stored baseline (bench.from, withBaseline): not measured in this run
          const ms = runValue(task.latency.samples, task.latency.p50, task.latency.mean);
          out.add([...prefix, task.name].join(VITEST_SEPARATOR), ms * 1e6, 'ns', 'lower-is-better', null);
        }
      }
    }
  });
}

function readVitest4(doc: z.infer<typeof Vitest4>, out: SampleCollector): void {
  for (const file of doc.files) {
    for (const group of file.groups) {
      for (const b of group.benchmarks) {
        const ms = runValue(b.samples, b.median, b.mean);
        out.add(`${group.fullName}${VITEST_SEPARATOR}${b.name}`, ms * 1e6, 'ns', 'lower-is-better', null);
      }
    }
  }
}

/**
 * Each file's label: its name, or, for files that share a name, the path below the deepest folder
 * those files share. A selected run (`vitest bench <name>` matches every path holding the name)
 * has every file of that name, so the labels do not change between the listing run and a selection.
 */
export function fileLabels(paths: readonly string[]): string[] {
  const split = paths.map((p) => p.split(/[\\/]/).filter((part) => part !== ''));
  const byBase = new Map<string, number[]>();
  split.forEach((parts, i) => {
    const base = parts[parts.length - 1] ?? '';
    byBase.set(base, [...(byBase.get(base) ?? []), i]);
  });
  const labels = split.map((parts) => parts[parts.length - 1] ?? '');
  for (const indices of byBase.values()) {
    const distinct = new Set(indices.map((i) => paths[i]));
    if (distinct.size < 2) continue;
    const dirs = indices.map((i) => split[i]!.slice(0, -1));
    let shared = 0;
    while (dirs.every((d) => shared < d.length && d[shared] === dirs[0]![shared])) shared++;
    for (const i of indices) labels[i] = split[i]!.slice(shared).join('/');
  }
  return labels;
}
