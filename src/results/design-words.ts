/**
 * A design of a benchmark's runs (the `design` of a results file: schema.ts) in words, the same in
 * the log when it is chosen (schedule/choose-design.ts) and in every report (report/designs-note.ts).
 */

/** A length of a design (a repetition, a process, a pair): "2.5 ms", "40 ms", "1.25 s". */
export function lengthWords(ms: number): string {
  if (ms >= 1000) return `${Number((ms / 1000).toPrecision(3))} s`;
  if (ms >= 10) return `${Math.round(ms)} ms`;
  return `${Number(ms.toPrecision(2))} ms`;
}

/** "1 repetition of 12 ms", "a warm-up and 3 repetitions of 5 ms". */
export function designWords(repetitions: number, lengthMs: number, warmup = 0): string {
  const first = warmup === 0 ? '' : warmup === 1 ? 'a warm-up and ' : `${warmup} warm-ups and `;
  return `${first}${repetitions} repetition${repetitions === 1 ? '' : 's'} of ${lengthWords(lengthMs)}`;
}
