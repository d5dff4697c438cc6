// pairbench's bench:suites: npm js-yaml, seven benchmarks (vitest 4's bench API). The two that load
// double-quoted strings call readDoubleQuotedScalar, the function the suite's slowed head patches;
// the other loads and the dumps do not.
import { bench, describe } from 'vitest';
import yaml from 'js-yaml';

const entries = Array.from({ length: 200 }, (_, i) => ({ id: i, name: `service-${i}`, enabled: i % 3 !== 0, ports: [8000 + i, 9000 + i], tags: ['a', `t${i % 7}`], ratio: i / 7 }));
const block = yaml.dump({ services: entries });
const quoted = entries.map((e) => `- "${e.name} \\"quoted\\" \\u00e9 ${e.id}"\n`).join('');
const mixed = entries.map((e) => `${e.name}:\n  title: "Item ${e.id} \\t tab"\n  count: ${e.id}\n  note: plain text ${e.id}\n`).join('');
const flow = `[${Array.from({ length: 2000 }, (_, i) => (i % 2 ? i : `x${i}`)).join(', ')}]`;
const strings = Array.from({ length: 400 }, (_, i) => `line ${i}: with "quotes", colons: and # hashes`);
const options = { time: 300, warmupTime: 200 };
let sink = 0;
describe('js-yaml', () => {
  bench('load block mapping', () => {
    sink += yaml.load(block).services.length;
  }, options);
  bench('load double-quoted strings', () => {
    sink += yaml.load(quoted).length;
  }, options);
  bench('load mixed document', () => {
    sink += Object.keys(yaml.load(mixed)).length;
  }, options);
  bench('load flow sequence', () => {
    sink += yaml.load(flow).length;
  }, options);
  bench('dump mapping', () => {
    sink += yaml.dump({ services: entries }).length;
  }, options);
  bench('dump strings', () => {
    sink += yaml.dump(strings).length;
  }, options);
  bench('dump flow', () => {
    sink += yaml.dump(entries, { flowLevel: 1 }).length;
  }, options);
});
export { sink };
