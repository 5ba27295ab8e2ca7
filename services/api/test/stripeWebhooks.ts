import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import type { Client, TestServer } from './support.ts';

/** Stripe webhook events for HTTP tests: Stripe's shapes, signed with the SDK's test header. */

const signer = new Stripe('sk_test_only_for_signing');
export const uid = () => randomUUID().replaceAll('-', '');

export interface SignedEvent {
  payload: string;
  header: string;
}

/** The `Stripe-Signature` header Stripe would send with this payload. */
export const signedPayload = (payload: string, secret: string, timestamp?: number) =>
  signer.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp ? { timestamp } : {}),
  });

/** A signer of events for one webhook secret. */
export const webhookSigner =
  (secret: string) =>
  (
    type: string,
    object: Record<string, unknown>,
    options: { id?: string; timestamp?: number; secret?: string } = {},
  ): SignedEvent => {
    const payload = JSON.stringify({
      id: options.id ?? `evt_${uid()}`,
      object: 'event',
      type,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object },
    });
    return { payload, header: signedPayload(payload, options.secret ?? secret, options.timestamp) };
  };

export const deliver = (server: TestServer, event: SignedEvent) =>
  server
    .client()
    .request('POST', '/api/webhooks/stripe', event.payload, { 'stripe-signature': event.header });

/** A signed-in member with the free credits. */
export async function member(server: TestServer, prefix = 'payer') {
  const client = server.client();
  const me = await client.signIn(`${prefix}-${randomUUID()}@example.com`);
  return { client, id: me.id };
}

export const me = async (client: Client) => (await client.get('/api/me')).body;
