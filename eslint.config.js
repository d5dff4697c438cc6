// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
);
