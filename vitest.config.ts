import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Tests spawn real processes and git repositories; two cores are all CI has.
    maxWorkers: 2,
  },
});
