/**
 * Loopback ports of the browser-test setup. Each Playwright worker has an app of its own (its
 * own database, OAuth double and control port), so that tests running side by side never share
 * an admin, a ledger or the next Google account: worker `i` uses the four ports from
 * `base + 10 × i`, where `base` is 3210 or `E2E_PORT_BASE` (so that two checkouts can run their
 * browser tests side by side).
 */
const base = Number(process.env.E2E_PORT_BASE ?? 3210);

/** How many workers, so how many apps, the browser tests run. */
export const E2E_WORKERS = 2;

/** The ports of worker `index`'s app (`TEST_PARALLEL_INDEX`, which Playwright sets in a worker). */
export function e2ePorts(index: number) {
  const app = base + 10 * index;
  return {
    appPort: app,
    oauthPort: app + 1,
    controlPort: app + 2,
    /** The app of the streaming tests, which writes with a loopback OpenAI (`streamingApp.ts`). */
    streamingAppPort: app + 3,
    baseUrl: `http://127.0.0.1:${app}`,
    webhookSecret: 'whsec_astra_e2e_local_checkout',
  };
}

/** The ports of this worker's app (Playwright numbers its workers in `TEST_PARALLEL_INDEX`). */
export const E2E = e2ePorts(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
