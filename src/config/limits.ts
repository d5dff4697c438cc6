/**
 * What a results file holds at most. The caps are the results file's (results/schema.ts reads
 * untrusted files, artifacts from fork PRs, within them), and they live here, below every step of
 * the pipeline, because the options are bounded by them too: `--max-pairs` is at most
 * `pairsPerBenchmark` and a config file lists at most `benchmarks`, and while `compare` measures, a
 * longer name or more benchmarks fail with a message and measuring stops before the file outgrows
 * `fileBytes`. So `report` reads every file `compare` writes. 256 MiB holds a suite of 100,000
 * benchmarks with about 15 pairs each.
 */
const NAME_LENGTH = 512;
const BATCH = 1000;

export const LIMITS = {
  fileBytes: 256 * 1024 * 1024,
  nameLength: NAME_LENGTH,
  benchmarks: 100_000,
  pairsPerBenchmark: 1_000_000,
  /** a config file (`--config`, input config): 160 bytes for each of `benchmarks` entries and more */
  configBytes: 16 * 1024 * 1024,
  /** shards of one comparison (`--shard i/n`), and so results files merged by one report */
  shards: 1000,
  /** benchmarks one process runs (`--batch`): the flag, a config file and a recorded setting share this range */
  batch: BATCH,
  /** a unit in a round (`rounds`): a batch is named by its `batch` benchmarks' names (`nameLength` each) joined by ", " */
  roundUnitLength: BATCH * (NAME_LENGTH + 2),
} as const;

