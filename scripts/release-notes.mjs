#!/usr/bin/env node
/**
 * Prints one version's section of CHANGELOG.md: the release notes of that version.
 *
 *   node scripts/release-notes.mjs 1.2.0 [CHANGELOG.md]
 *
 * A section starts at a heading `## [1.2.0] - 2026-12-01` (or `## 1.2.0`, or `## Unreleased`) and
 * runs to the next `## ` heading. Exits 1, naming the version, when CHANGELOG.md has no section for
 * it or the section is empty: a release without notes is a mistake.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The body of the section of `version` ('Unreleased' for the pending one), or null. */
export function releaseNotes(changelog, version) {
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const heading = new RegExp(`^## \\[?v?${escaped}\\]?(?:[ \\t]+-[ \\t]+.*)?[ \\t]*$`, 'im');
  const m = heading.exec(changelog);
  if (!m) return null;
  const rest = changelog.slice(m.index + m[0].length);
  const next = rest.search(/^## /m);
  const body = (next < 0 ? rest : rest.slice(0, next)).trim();
  return body === '' ? null : body;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const version = process.argv[2];
  const file = process.argv[3] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'CHANGELOG.md');
  if (!version) {
    console.error('usage: node scripts/release-notes.mjs <version> [CHANGELOG.md]');
    process.exit(2);
  }
  const notes = releaseNotes(readFileSync(file, 'utf8'), version);
  if (notes === null) {
    console.error(`${file}: no section "## [${version}] - <date>" with release notes; add one before tagging v${version}`);
    process.exit(1);
  }
  console.log(notes);
}
