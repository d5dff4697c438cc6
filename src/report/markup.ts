/**
 * What a surface makes of text (a {@link Markup}): how untrusted text is escaped, and what code and
 * emphasis look like, as hyperfine's `MarkupExporter` separates them from what is said. Each
 * surface supplies its own (comment.ts MARKDOWN, html.ts HTML); plain text is here. Pure.
 */
import { oneLine } from './escape.ts';
import { cutText } from './html-plots.ts';

/** What a surface makes of text: its escaping and its syntax. */
export interface Markup {
  /** untrusted text (names, refs, reasons), escaped for this surface and cut to `max` characters */
  text(s: string, max: number): string;
  /** untrusted text as code */
  code(s: string, max: number): string;
  /** strong emphasis of text already marked up */
  strong(s: string): string;
  /** emphasis of text already marked up */
  em(s: string): string;
}

/** Plain text on one line (the terminal, a CI log, a check run's title): controls shown escaped, never a workflow command (S21). */
export const PLAIN: Markup = {
  text: (s, max) => oneLine(cutText(s, max)),
  code: (s, max) => oneLine(cutText(s, max)),
  strong: (s) => s,
  em: (s) => s,
};
