/**
 * Loopback ports of the browser-test setup: 3210–3213, or from `E2E_PORT_BASE` (so that two
 * checkouts can run their browser tests side by side).
 */
const base = Number(process.env.E2E_PORT_BASE ?? 3210);

export const E2E = {
  appPort: base,
  oauthPort: base + 1,
  controlPort: base + 2,
  /** The app of the streaming tests, which writes with a loopback OpenAI (`streamingApp.ts`). */
  streamingAppPort: base + 3,
  baseUrl: `http://127.0.0.1:${base}`,
  webhookSecret: 'whsec_astra_e2e_local_checkout',
};
