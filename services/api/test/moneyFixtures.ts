/** The webhook secret, a paying member and readers of an account's money shared by the money specs. */
import { streams } from '@astra/ledger';
import { member as memberOf, webhookSigner } from './stripeWebhooks.ts';
import type { Client, TestServer } from './support.ts';

export const WEBHOOK_SECRET = 'whsec_test_money_secret';
export const signed = webhookSigner(WEBHOOK_SECRET);
export const member = (server: TestServer) => memberOf(server, 'money');

/** The events of an account's credit stream, as the finance replay reads them. */
export const creditEvents = async (server: TestServer, userId: string) => {
  const events: { type: string; data: Record<string, any> }[] = [];
  for await (const event of server.deps.ledger.store.readStream(streams.credits(userId)))
    events.push({ type: event.type, data: event.data as Record<string, any> });
  return events;
};
export const eventsOf = async (server: TestServer, userId: string, type: string) =>
  (await creditEvents(server, userId)).filter((e) => e.type === type).map((e) => e.data);

export const ledgerTypes = async (client: Client) =>
  ((await client.get('/api/me/ledger')).body.items as { type: string; amount: number }[]).map(
    (e) => [e.type, e.amount],
  );
