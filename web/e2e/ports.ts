/** Fixed loopback ports of the browser-test setup. */
export const E2E = {
  appPort: 3210,
  oauthPort: 3211,
  controlPort: 3212,
  baseUrl: 'http://127.0.0.1:3210',
  webhookSecret: 'whsec_astra_e2e_local_checkout',
};
