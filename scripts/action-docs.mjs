#!/usr/bin/env node
/**
 * The table of the action's inputs and outputs in docs/action.md, generated from action.yml so that
 * the two never disagree. The table sits between `<!-- action-docs:start -->` and `<!-- action-docs:end -->`.
 *
 *   node scripts/action-docs.mjs           rewrite the table in docs/action.md
 *   node scripts/action-docs.mjs --check   exit 1 when docs/action.md's table is not what action.yml gives
 *   --readme <file>                        another page than docs/action.md
 *
 * tests/action/action-docs.test.ts runs the check.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const START = '<!-- action-docs:start (generated from action.yml by scripts/action-docs.mjs; do not edit) -->';
export const END = '<!-- action-docs:end -->';

const cell = (text) => text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');

/** `Meaning. Default: x.` → { meaning: 'Meaning.', default: 'x' } */
export function splitDefault(description) {
  const m = /^([\s\S]*?)\s*Default: ([\s\S]+?)\.?\s*$/.exec(description);
  return m ? { meaning: m[1], default: m[2] } : { meaning: description, default: '' };
}

/** The Markdown of the inputs and outputs tables, from action.yml's text. */
export function renderActionDocs(actionYmlText) {
  const action = parse(actionYmlText);
  const lines = [START, '', '| input | meaning | default |', '|---|---|---|'];
  for (const [name, input] of Object.entries(action.inputs ?? {})) {
    const { meaning, default: def } = splitDefault(input.description ?? '');
    lines.push(`| \`${name}\` | ${cell(meaning)} | ${cell(def)} |`);
  }
  lines.push('', '| output | meaning |', '|---|---|');
  for (const [name, output] of Object.entries(action.outputs ?? {})) lines.push(`| \`${name}\` | ${cell(output.description ?? '')} |`);
  lines.push('', END);
  return lines.join('\n');
}

/** A page's text with its generated section replaced; throws when the markers are missing. */
export function updateReadme(readme, docs) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`the page lacks the markers ${START} ... ${END}`);
  return readme.slice(0, start) + docs + readme.slice(end + END.length);
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const readmePath = join(process.argv.includes('--readme') ? process.argv[process.argv.indexOf('--readme') + 1] : join(root, 'docs', 'action.md'));
  const readme = readFileSync(readmePath, 'utf8');
  const next = updateReadme(readme, renderActionDocs(readFileSync(join(root, 'action.yml'), 'utf8')));
  if (process.argv.includes('--check')) {
    if (next !== readme) {
      console.error(`${readmePath}: the inputs/outputs table differs from action.yml; run node scripts/action-docs.mjs`);
      process.exit(1);
    }
  } else if (next !== readme) {
    writeFileSync(readmePath, next);
    console.log(`${readmePath}: inputs/outputs table updated from action.yml`);
  }
}
