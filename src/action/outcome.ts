/**
 * What the results step ends with, measured on this runner (measure.ts) or read from result files
 * (report-mode.ts): what the reports, the outputs and the step's status are made of.
 */
import type { ReplaySource } from '../report/markdown.ts';
import type { Results } from '../results/schema.ts';

export interface Outcome {
  /** judged, and already in the results file */
  results: Results;
  /** as the command line's: 0, 1 a gate failed, 3 could not complete, 130 interrupted */
  exitCode: number;
  /** how the report tells to run it again */
  replay: ReplaySource;
  /** sections after the report (the bisect's), '' when none */
  appendix: string;
}
