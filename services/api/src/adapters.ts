import { offlineWriter } from '@astra/readings';
import Stripe from 'stripe';
import type { Config } from './config.ts';
import { openAiWriter } from './modules/readings/openAiWriter.ts';
import { elevenLabsVoice, offlineVoice } from './modules/voice/voiceService.ts';
import { timedWriter } from './observability/instrumented.ts';
import type { Metrics } from './observability/metrics.ts';

/** Which adapter each port of the API gets, by configuration (docs/operations.md). */

/** Stripe's SDK signs and checks webhooks even without a key; with one it is the gateway. */
export const stripeOf = (config: Config) =>
  new Stripe(config.STRIPE_SECRET_KEY ?? 'sk_test_astra_local_checkout', {
    maxNetworkRetries: 2,
    ...(config.STRIPE_API_HOST ? { host: config.STRIPE_API_HOST } : {}),
    ...(config.STRIPE_API_PORT ? { port: config.STRIPE_API_PORT } : {}),
    ...(config.STRIPE_API_PROTOCOL ? { protocol: config.STRIPE_API_PROTOCOL } : {}),
  });

/**
 * The local checkout's way to deliver an event: the same path as Stripe's deliveries, a signed
 * request to our own endpoint (`ownUrl()`, known once the server listens).
 */
export const selfDelivery =
  (stripe: Stripe, webhookSecret: string, ownUrl: () => string) =>
  async (event: { type: string }) => {
    const payload = JSON.stringify(event);
    const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    const answer = await fetch(`${ownUrl()}/api/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });
    if (!answer.ok)
      throw new Error(`Our webhook refused ${event.type}: ${answer.status} ${await answer.text()}`);
  };

/** The narrative writer (OpenAI with a key, else offline), timed. */
export const writerOf = (config: Config, metrics: Metrics) =>
  timedWriter(
    config.OPENAI_API_KEY
      ? openAiWriter({
          apiKey: config.OPENAI_API_KEY,
          baseURL: config.OPENAI_BASE_URL,
          model: config.OPENAI_MODEL,
          timeoutMs: config.OPENAI_TIMEOUT_MS,
          maxRetries: config.OPENAI_MAX_RETRIES,
        })
      : offlineWriter,
    metrics,
  );

/** The voice service (ElevenLabs with a key, else the browser's offline guide). */
export const voiceOf = (config: Config) =>
  config.ELEVENLABS_API_KEY
    ? elevenLabsVoice({
        apiKey: config.ELEVENLABS_API_KEY,
        agentIds: config.ELEVENLABS_AGENT_IDS,
        baseUrl: config.ELEVENLABS_BASE_URL,
        timeoutMs: config.ELEVENLABS_TIMEOUT_MS,
      })
    : offlineVoice;
