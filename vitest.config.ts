import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'services/*/test/**/*.test.ts',
      // The web app's unit tests: pure functions, no DOM.
      'web/src/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait on PostgreSQL, child processes or sockets rather than the CPU, so two
    // at a time keep a 2-core machine busy (vitest's default there is one). Three took as long
    // over the whole suite, and left read-your-writes waits short of time.
    maxWorkers: 2,
  },
});
