// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The parts of src/ and which of them each may import: imports run one way, down the pipeline, so
 * that a part can be read, tested and changed knowing only the parts below it. docs/development.md's
 * Architecture section is this table in words. A part is a folder, or a few files at src/'s root.
 * stats/ and harness/ are pure libraries at the bottom; config/ is read by every step; report/
 * reads only the results file, never the measuring side; the commands sit on top.
 */
/**
 * @typedef {object} Layer
 * @property {string} label how the rule's message names it
 * @property {string[]} files its files
 * @property {boolean} root whether its files sit at src/'s root, where imports start with `./`
 * @property {(fromRoot: boolean) => string[]} paths how an import of it is written, from src/'s root or from a folder
 * @property {string[] | null} mayImport the parts it may import; null: any part
 * @property {boolean} [everywhere] any part may import it
 */
/** @param {string} name @returns {Omit<Layer, 'mayImport'>} */
const folder = (name) => ({ label: `${name}/`, files: [`src/${name}/**/*.ts`], root: false, paths: (fromRoot) => [`${fromRoot ? '.' : '..'}/${name}/*`] });
/** @param {string[]} names @returns {Omit<Layer, 'mayImport'>} */
const rootFiles = (...names) => ({ label: names.join(', '), files: names.map((n) => `src/${n}`), root: true, paths: (fromRoot) => names.map((n) => `${fromRoot ? '.' : '..'}/${n}`) });
/** @type {Record<string, Layer>} */
const LAYERS = {
  stats: { ...folder('stats'), mayImport: [] },
  harness: { ...folder('harness'), mayImport: ['stats'] },
  config: { ...folder('config'), mayImport: ['harness', 'stats'] },
  measure: { ...folder('measure'), mayImport: ['config', 'harness', 'stats'] },
  revisions: { ...folder('revisions'), mayImport: ['measure', 'config', 'harness', 'stats'] },
  results: { ...folder('results'), mayImport: ['config', 'harness', 'stats'] },
  schedule: { ...folder('schedule'), mayImport: ['results', 'revisions', 'measure', 'config', 'harness', 'stats'] },
  report: { ...folder('report'), mayImport: ['results', 'config', 'harness', 'stats'] },
  engine: { ...rootFiles('engine.ts', 'noise-run.ts'), mayImport: ['schedule', 'results', 'revisions', 'measure', 'config', 'harness', 'stats'] },
  // SIGINT and SIGTERM stopping a command's run: it imports nothing, and the commands import it
  interrupt: { ...rootFiles('interrupt.ts'), mayImport: [] },
  bisect: { ...folder('bisect'), mayImport: ['engine', 'report', 'schedule', 'results', 'revisions', 'measure', 'config', 'harness', 'stats'] },
  github: { ...folder('github'), mayImport: ['report', 'results', 'revisions', 'config', 'harness', 'stats'] },
  action: { ...folder('action'), mayImport: ['interrupt', 'github', 'bisect', 'engine', 'report', 'schedule', 'results', 'revisions', 'measure', 'config', 'harness', 'stats'] },
  cli: { ...folder('cli'), mayImport: ['interrupt', 'bisect', 'engine', 'report', 'schedule', 'results', 'revisions', 'measure', 'config', 'harness', 'stats'] },
  // the entry points: nothing imports them, and they import what they need
  entry: { ...rootFiles('cli.ts', 'action.ts', 'bin.ts'), mayImport: null },
  // two leaves at the root that import nothing: the version, and the check of the platform that runs first
  leaves: { ...rootFiles('version.ts', 'platform.ts'), mayImport: [], everywhere: true },
};

/**
 * One block per part: `no-restricted-imports` lists the parts it may not import, so that an
 * import running back up the pipeline fails `npm run lint` (tests/hardening/import-rule.test.ts).
 * Dynamic `import()` is not checked; only the entry points use it, to load what they run.
 * @type {import('eslint').Linter.Config[]}
 */
const layerBlocks = Object.entries(LAYERS).flatMap(([name, layer]) => {
  const may = layer.mayImport;
  if (may === null) return [];
  const forbidden = Object.keys(LAYERS).filter((other) => other !== name && !LAYERS[other]?.everywhere && !may.includes(other));
  const allowed = may.length === 0 ? 'nothing of src/' : `only ${may.map((other) => LAYERS[other]?.label).join(', ')}`;
  const group = forbidden.flatMap((other) => LAYERS[other]?.paths(layer.root) ?? []);
  const message = `${layer.label} may import ${allowed}: imports run one way, down the pipeline (docs/development.md, Architecture).`;
  return [{ files: layer.files, rules: { 'no-restricted-imports': ['error', { patterns: [{ group, message }] }] } }];
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'examples/**/target/**', 'examples/**/node_modules/**', 'bench/results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', fetch: 'readonly', TextDecoder: 'readonly', TextEncoder: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // S20: no array is spread into a function call. The arguments of a call live on the stack, so
    // `Math.min(...values)` or `out.push(...rows)` throws "Maximum call stack size exceeded" past
    // about 65,000 values, and a results file may hold a million pairs and 100,000 benchmarks.
    // Loops instead; tests/hardening/spread.test.ts shows this rule catching each form.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'CallExpression > SpreadElement', message: 'No spread into a function call (S20): an array of unbounded length overflows the stack; use a loop.' },
        { selector: 'NewExpression > SpreadElement', message: 'No spread into a constructor call (S20): an array of unbounded length overflows the stack; use a loop.' },
        { selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='apply']", message: 'No .apply() with an array of arguments (S20): it overflows the stack as a spread does; use a loop.' },
      ],
    },
  },
  ...layerBlocks,
);
