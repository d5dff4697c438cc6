import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // benchmark files, and nothing else, under `vitest bench`
    benchmark: { include: ['**/*.bench.mjs'] },
  },
});
