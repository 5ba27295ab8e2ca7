import { stripeWebhookReceivedSchema } from '@astra/contracts';
import express from 'express';
import type Stripe from 'stripe';
import { z } from 'zod';
import type { AppDeps } from '../../dependencies.ts';
import { depthExceeds } from '../../http/bodyDepth.ts';
import { HttpError } from '../../http/errors.ts';
import { describedRouter, ok, type RouteDescriptors } from '../../http/routeDescriptors.ts';
import { applyStripeEvent } from './stripeEvents.ts';

/** Stripe signs the timestamp too: older deliveries are refused (replays), and so are later ones. */
const TOLERANCE_SECONDS = 300;

/**
 * The envelope every event must have before it is looked at: a Stripe event id (`evt_…`, the
 * key it is recorded under), a type, and `data.object` an object. Anything else is 400 naming
 * the field, and nothing is recorded (an event without an id must never be applied under
 * `stripe-undefined`).
 */
const stripeEnvelopeSchema = z.looseObject(
  {
    id: z
      .string({ error: 'is required' })
      .regex(/^evt_[A-Za-z0-9_-]{1,250}$/, 'must be a Stripe event id (evt_…)'),
    type: z
      .string({ error: 'is required' })
      .regex(/^[a-z][a-z0-9_.]{0,99}$/, 'must be a Stripe event type'),
    data: z.looseObject(
      { object: z.looseObject({}, { error: 'must be an object' }) },
      { error: 'must be an object with the event object' },
    ),
  },
  { error: 'must be a Stripe event (an object)' },
);

/** The signed timestamp (`t=`) of a Stripe-Signature header, in Unix seconds. */
const signedAt = (header: string) => {
  const t = header
    .split(',')
    .map((part) => part.trim().split('='))
    .find(([key]) => key === 't')?.[1];
  return t !== undefined && /^\d+$/.test(t) ? Number(t) : null;
};

const descriptors = {
  stripeWebhook: {
    method: 'post',
    path: '/api/webhooks/stripe',
    tag: 'Payments',
    summary: "Stripe's signed events become ledger commands",
    auth: 'stripe_signature',
    body: { contentType: 'application/octet-stream', required: true },
    responses: ok(stripeWebhookReceivedSchema, 'Received: applied, a duplicate, or let go'),
    errors: [
      {
        status: 400,
        code: 'invalid_signature',
        when: 'No, a wrong, a stale or a future-dated Stripe-Signature; nothing is written',
      },
      {
        status: 400,
        code: 'invalid_payload',
        when: 'The signature matched but the body is not JSON; nothing is written',
      },
      { status: 413, code: 'invalid_request', when: 'A body above 1 MB' },
      {
        status: 400,
        code: 'invalid_request',
        when: 'Signed, but not an event as Stripe sends it (no `evt_` id, no type, no object, a malformed object id): `fields` names it; nothing is written',
      },
    ],
    command: true,
  },
} satisfies RouteDescriptors;

/**
 * `POST /api/webhooks/stripe`: the raw body, its `Stripe-Signature` checked with the webhook
 * secret before anything else; a bad, stale or unparseable delivery is 400 and writes nothing.
 * Mounted before the JSON body parser, sessions and the cross-site check (Stripe is no browser),
 * with a 404 and JSON errors of its own (`app.ts`).
 */
export const stripeWebhookRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  const { stripe, webhookSecret } = deps.payments;
  route('stripeWebhook', express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    const signature = req.get('stripe-signature');
    if (!signature)
      throw new HttpError(400, 'invalid_signature', 'The Stripe-Signature header is missing');
    const payload = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(payload, signature, webhookSecret, TOLERANCE_SECONDS);
    } catch (error) {
      const message = (error as Error).message;
      // The SDK parses the body only after the signature matched.
      throw error instanceof SyntaxError
        ? new HttpError(400, 'invalid_payload', 'The event is not valid JSON')
        : new HttpError(
            400,
            'invalid_signature',
            `The signature does not match: ${message.split('\n')[0]}`,
          );
    }
    // Stripe's SDK checks only the age: a signature dated ahead is as suspect as a stale one.
    const ahead = (signedAt(signature) ?? 0) - Math.floor(Date.now() / 1000);
    if (ahead > TOLERANCE_SECONDS) {
      throw new HttpError(
        400,
        'invalid_signature',
        `The signature is dated ${ahead} s in the future (at most ${TOLERANCE_SECONDS} s are accepted); check the clocks`,
      );
    }
    // Signed is not well formed: check the envelope before anything reads it.
    if (depthExceeds(event)) {
      throw new HttpError(400, 'invalid_payload', 'The event is nested too deeply');
    }
    stripeEnvelopeSchema.parse(event);
    const outcome = await applyStripeEvent(
      deps.ledger,
      deps.read,
      deps.payments.pricing,
      deps.payments.gateway,
      event,
      deps.clock(),
    );
    deps.metrics.stripeWebhook(
      event.type,
      outcome.outcome ?? (outcome.duplicate ? 'duplicate' : 'ignored'),
    );
    // Answer once the read models show it: a payment page polling for its credits sees them.
    await deps.consistency.settle(req, outcome.position ?? null);
    res.json({ received: true, ...outcome, position: outcome.position?.toString() });
  });
});
