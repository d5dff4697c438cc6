// pairbench's bench:suites: npm semver's public API, nine benchmarks (vitest 4's bench API).
// compare, sort, satisfies and maxSatisfying compare versions (SemVer#compareMain, the function the
// suite's slowed head patches); parse, valid, clean, coerce and inc do not.
import { bench, describe } from 'vitest';
import semver from 'semver';

const versions = Array.from({ length: 64 }, (_, i) => `${i % 5}.${(i * 7) % 13}.${(i * 11) % 17}${i % 4 === 0 ? `-beta.${i % 3}` : ''}`);
const options = { time: 300, warmupTime: 200 };
let sink = 0;
describe('semver', () => {
  bench('parse', () => {
    for (const v of versions) sink += semver.parse(v).patch;
  }, options);
  bench('valid', () => {
    for (const v of versions) sink += semver.valid(v) === null ? 0 : 1;
  }, options);
  bench('clean', () => {
    for (const v of versions) sink += semver.clean(`  =v${v}  `).length;
  }, options);
  bench('coerce', () => {
    for (const v of versions) sink += semver.coerce(`release v${v} final`).major;
  }, options);
  bench('inc', () => {
    for (const v of versions) sink += semver.inc(v, 'prerelease', 'rc').length;
  }, options);
  bench('compare', () => {
    for (let i = 1; i < versions.length; i++) sink += semver.compare(versions[i - 1], versions[i]);
  }, options);
  bench('sort', () => {
    sink += semver.sort(versions.slice()).length;
  }, options);
  bench('satisfies', () => {
    for (const v of versions) sink += semver.satisfies(v, '^1.2.0 || ~3.4.5 || >=4.0.0 <4.5.0') ? 1 : 0;
  }, options);
  bench('maxSatisfying', () => {
    sink += semver.maxSatisfying(versions, '>=1.0.0 <3.0.0')?.length ?? 0;
  }, options);
});
export { sink };
