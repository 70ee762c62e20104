import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test-fixtures/**/*.test.ts', 'scripts/**/*.test.ts'],
    globalSetup: ['scripts/test-scratch.mjs'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // CLI tests spawn real processes; two cores are all a machine here has.
    maxWorkers: 2,
    // A worker imports the sources once for all its files instead of once per file: a fifth of
    // the suite's time went to importing. Tests share no module state (timers are restored in
    // finally, nothing is mocked at module level), so a file's result does not depend on its
    // neighbours (decision 065).
    isolate: false,
  },
});
