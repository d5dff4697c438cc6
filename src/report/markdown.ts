/**
 * The Markdown report's public entry: the comment, check-run and job-summary body (comment.ts),
 * its size limits (budget.ts), the counts by verdict (rows.ts), the replay lines (replay.ts) and
 * the report model every surface renders (model.ts).
 */
export { REPORT_LIMITS } from './budget.ts';
export { headline, renderMarkdown, type Acceptance } from './comment.ts';
export { commandsOf, type ReplaySource } from './replay.ts';
export { countVerdicts, reportOrder } from './rows.ts';
