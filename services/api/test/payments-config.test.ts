/** Payments configuration: production needs Stripe. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { OPERATOR_SETTINGS } from './support.ts';

describe('configuration', () => {
  it('refuses production without Stripe: the local checkout page is for development', () => {
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'a-long-enough-production-secret',
      PUBLIC_URL: 'https://astra.example',
      DATA_KEY_SECRET: 'the-master-secret-of-the-data-keys',
      SMTP_URL: 'smtp://mail.astra-readings.test:587',
      ...OPERATOR_SETTINGS,
    };
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(() => loadConfig(production)).toThrow(
      /STRIPE_SECRET_KEY: is required when NODE_ENV=production/,
    );
    expect(() =>
      loadConfig({
        ...production,
        STRIPE_SECRET_KEY: 'sk_live_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
      }),
    ).not.toThrow();
    expect(() => loadConfig({ PRICING_AMOUNTS: '1:monthly=999' })).toThrow(/PRICING_AMOUNTS/);
  });
});
