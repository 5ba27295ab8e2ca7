import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/chromium.ts';
import { E2E, E2E_WORKERS, e2ePorts } from './e2e/ports.ts';

/**
 * Browser tests in Debian's Chromium (never a downloaded browser). Without Chromium they are
 * skipped with one line; REQUIRE_TEST_SERVICES=1 (CI) makes that a failure.
 */
const chromium = chromiumLaunchOptions.executablePath;
const hasChromium = existsSync(chromium);
if (!hasChromium) {
  const line = `Chromium not available (no ${chromium}; apt-get install -y chromium)`;
  if (process.env.REQUIRE_TEST_SERVICES === '1')
    throw new Error(`REQUIRE_TEST_SERVICES=1 but ${line}`);
  console.warn(`SKIPPED: ${line}: the browser tests are skipped.`);
}

export default defineConfig({
  testDir: './e2e',
  testIgnore: hasChromium ? [] : ['**/*'],
  outputDir: '../test-results/e2e',
  // Two files at a time, each worker against an app of its own (ports.ts): a browser test mostly
  // waits (on rendering, the app, an assertion's polling), so two take about as long as one.
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    // In a worker, its own app's (ports.ts reads the worker's index).
    baseURL: E2E.baseUrl,
    // A trace records every action's page (E2E_TRACE=1 keeps the failures'): it costs a fifth of
    // the suite's time, so by default a failure leaves its screenshot and error context.
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  // One app per worker, started one after the other: the first builds what changed, the next
  // finds it built.
  webServer: hasChromium
    ? Array.from({ length: E2E_WORKERS }, (_, index) => ({
        command: `node --import tsx e2e/serve.ts ${index}`,
        url: `${e2ePorts(index).baseUrl}/api/health`,
        timeout: 240_000,
        reuseExistingServer: false,
        stdout: 'ignore' as const,
        stderr: 'pipe' as const,
      }))
    : undefined,
});
