import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/chromium.ts';
import { E2E } from './e2e/ports.ts';

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
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: E2E.baseUrl,
    // A trace records every action's page (E2E_TRACE=1 keeps the failures'): it costs a fifth of
    // the suite's time, so by default a failure leaves its screenshot and error context.
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: hasChromium
    ? {
        command: 'node --import tsx e2e/serve.ts',
        url: `${E2E.baseUrl}/api/health`,
        timeout: 240_000,
        reuseExistingServer: false,
        stdout: 'ignore',
        stderr: 'pipe',
      }
    : undefined,
});
