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
    // Each worker process runs file after file, importing the app's modules (and compiling
    // PGlite's WebAssembly) once instead of once per file: a third of the suite's CPU was imports.
    // Test files own no global state: each starts its own servers and databases, and what a
    // module records (`support.ts`'s answers) is read from where the file began.
    isolate: false,
  },
});
