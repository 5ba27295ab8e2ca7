/** The webhook secret, a paying member and a Stripe invoice shared by the payments specs. */
import { member as memberOf, uid, webhookSigner } from './stripeWebhooks.ts';
import type { TestServer } from './support.ts';

export const WEBHOOK_SECRET = 'whsec_test_payments_secret';
export const signed = webhookSigner(WEBHOOK_SECRET);
export const member = (server: TestServer) => memberOf(server, 'payer');

export const invoice = (
  userId: string,
  tierId: number,
  subscriptionId: string,
  periodStart: string,
) => ({
  id: `in_test_${uid()}`,
  object: 'invoice',
  status: 'paid',
  billing_reason: 'subscription_cycle',
  parent: {
    type: 'subscription_details',
    subscription_details: {
      subscription: subscriptionId,
      metadata: { userId, tierId: String(tierId), billingType: 'subscription' },
    },
  },
  lines: {
    object: 'list',
    data: [
      {
        id: 'il_1',
        object: 'line_item',
        period: {
          start: Date.parse(periodStart) / 1000,
          end: Date.parse(periodStart) / 1000 + 30 * 86400,
        },
      },
    ],
  },
  period_start: Date.parse(periodStart) / 1000,
});
