import type { z } from 'zod';
import {
  adminCreditRequestSchema,
  adminRoleRequestSchema,
  adminSessionSchema,
  adminStatsMoneySchema,
  adminStatsSchema,
  adminUnlockRequestSchema,
  adminUserActionSchema,
  adminUserLedgerSchema,
  adminUserSchema,
  adminUsersPageSchema,
  adminUsersQuerySchema,
} from './admin.ts';
import { appsResponseSchema } from './apps.ts';
import { authProvidersSchema, devLoginRequestSchema } from './auth.ts';
import { myLedgerQuerySchema } from './common.ts';
import {
  adminActivityPageSchema,
  adminActivityQuerySchema,
  balanceAtQuerySchema,
  ledgerExplorerPageSchema,
  ledgerExplorerQuerySchema,
  ledgerExportChecksumSchema,
  ledgerExportQuerySchema,
  monthlyReportQuerySchema,
  monthlyReportSchema,
  projectionsOverviewSchema,
  rebuildStatusSchema,
  totalBalanceAtSchema,
  userBalanceAtSchema,
  verifyResultSchema,
} from './finance.ts';
import { devMailboxSchema, mailPreviewsSchema, reactorMessageSchema } from './mail.ts';
import { ledgerPageSchema, meSchema, sessionSchema } from './me.ts';
import {
  cancelSubscriptionRequestSchema,
  changePlanRequestSchema,
  checkoutConflictSchema,
  checkoutRequestSchema,
  checkoutResponseSchema,
  checkoutStatusSchema,
  localCheckoutResultSchema,
  localCheckoutSessionSchema,
  pricingResponseSchema,
  subscriptionActionSchema,
  subscriptionStatusSchema,
} from './payments.ts';
import { personalDataExportSchema } from './privacy.ts';
import { feedbackRequestSchema, profileUpdateSchema } from './profile.ts';
import {
  readingStartedSchema,
  readingStreamEvents,
  readingStreamQuerySchema,
} from './readingStream.ts';
import {
  libraryPageSchema,
  libraryQuerySchema,
  placeAtQuerySchema,
  placesQuerySchema,
  type ReadingKind,
  readingCreatedSchema,
  readingKinds,
  readingViewSchema,
} from './readings.ts';
import {
  adminCreditResultSchema,
  adminUnlockResponseSchema,
  balanceChangedErrorSchema,
  feedbackCreatedSchema,
  healthSchema,
  healthStartingSchema,
  insufficientCreditsErrorSchema,
  okMessageSchema,
  okSchema,
  placeAtResponseSchema,
  placesResponseSchema,
  refreshNotDueErrorSchema,
  stripeWebhookReceivedSchema,
  subscriptionActiveErrorSchema,
} from './responses.ts';
import { siteInfoSchema } from './site.ts';
import {
  voiceSessionActiveErrorSchema,
  voiceSessionEndedSchema,
  voiceSessionEndRequestSchema,
  voiceSessionRequestSchema,
  voiceSessionStartedSchema,
  voiceStatusSchema,
} from './voice.ts';

/**
 * The HTTP API's route table: every route the server mounts under `/api`, with its request and
 * response schemas and the error codes it answers. `openapi.ts` builds the OpenAPI document from
 * it, and the API tests check the server against it (every mounted route is here and every route
 * here is mounted; answers parse with their schema; error codes are the documented ones).
 * `docs/api.md` stays the reference for people.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call: `none`; `user` (a session of a user who is not deleted); `unlocked_admin` (an
 * admin whose session was unlocked with the admin password); `stripe_signature` (the webhook).
 */
export type RouteAuth = 'none' | 'user' | 'unlocked_admin' | 'stripe_signature';

export interface RouteError {
  status: number;
  /** The body's `error`. */
  code: string;
  /** When it is answered. */
  when: string;
  /** The body, when it has more than `{error, message, fields?}`. */
  schema?: z.ZodType;
  /**
   * Derived from the route's traits (auth, method, body, rate limit) and answered by shared
   * middleware, not by the route's own code: a test of one route answering it covers them all.
   */
  common?: boolean;
}

export interface RouteResponse {
  description: string;
  /** The JSON body; absent for a redirect or a body that is not JSON. */
  schema?: z.ZodType;
  /** Not JSON: e.g. `text/html`, `image/*`, `text/event-stream`. */
  contentType?: string;
  /** Server-sent events: each event's JSON `data` by its `event` name. */
  events?: Record<string, z.ZodType>;
}

export interface ApiRoute {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI style: `/api/readings/{id}`. */
  path: string;
  tag: 'System' | 'Sign-in' | 'Account' | 'Readings' | 'Payments' | 'Admin';
  summary: string;
  auth: RouteAuth;
  body?: {
    contentType:
      | 'application/json'
      | 'application/octet-stream'
      | 'application/x-www-form-urlencoded';
    schema?: z.ZodType;
    required: boolean;
  };
  query?: z.ZodObject;
  /** Success answers by status. */
  responses: Record<number, RouteResponse>;
  /** The route's own error answers; `errorsOf` adds the common ones. */
  errors: RouteError[];
  /** It appends events: a stream that keeps changing is `409 conflict`. */
  command?: boolean;
  /** Limited per client IP and minute (`429 rate_limited`). */
  rateLimited?: number;
  /** Mounted only in some configurations. */
  onlyWhen?: string;
  /** It reads the event log to its end (`503 log_horizon_stalled` when a transaction holds it). */
  readsLog?: boolean;
}

const json = (schema: z.ZodType, required = true) =>
  ({ contentType: 'application/json', schema, required }) as const;
const ok = (schema: z.ZodType, description = 'OK') => ({ 200: { description, schema } });
const redirect = { 302: { description: 'A redirect (`Location`); failures too are redirects.' } };
const notFound = (when: string): RouteError => ({ status: 404, code: 'not_found', when });

const readingTitles: Record<ReadingKind, string> = {
  'natal-chart': 'A natal chart reading',
  'tarot-celtic-cross': 'A Tarot Celtic Cross reading',
  'tarot-traditional': 'A Tarot Traditional reading',
  compatibility: 'A compatibility reading',
  'life-path': 'A Life Path Number reading',
};

const readingErrors: RouteError[] = [
  {
    status: 400,
    code: 'invalid_request',
    when: 'A bad body, or input the engines refuse (an unknown place)',
  },
  {
    status: 402,
    code: 'insufficient_credits',
    when: 'The balance does not cover the cost; nothing is spent',
    schema: insufficientCreditsErrorSchema,
  },
  { status: 403, code: 'account_blocked', when: 'The account is blocked; nothing is written' },
];
const readingKindList = Object.keys(readingKinds) as ReadingKind[];

const readingRoutes: ApiRoute[] = readingKindList.map((kind) => ({
  operationId: `createReading_${kind.replaceAll('-', '_')}`,
  method: 'post',
  path: `/api/readings/${kind}`,
  tag: 'Readings',
  summary: `${readingTitles[kind]}: spends the app's credit cost`,
  auth: 'user',
  body: json(readingKinds[kind].schema),
  responses: { 201: { description: 'The reading, delivered', schema: readingCreatedSchema } },
  errors: [
    ...readingErrors,
    {
      status: 502,
      code: 'generation_failed',
      when: 'The writer failed; the credits were given back',
    },
  ],
  command: true,
}));

/** The same readings, answered at once with their facts; the text follows on the reading's stream. */
const readingStartRoutes: ApiRoute[] = readingKindList.map((kind) => ({
  operationId: `startReading_${kind.replaceAll('-', '_')}`,
  method: 'post',
  path: `/api/readings/${kind}/start`,
  tag: 'Readings',
  summary: `${readingTitles[kind]}, its text streamed: spends the app's credit cost and answers at once with the facts; the text follows on \`GET /api/readings/{id}/stream\``,
  auth: 'user',
  body: json(readingKinds[kind].schema),
  responses: {
    202: {
      description: 'The reading with its facts; its text is being written',
      schema: readingStartedSchema,
    },
  },
  // A writer's failure comes later, as the stream's `failed` event (refunded as the 502 is).
  errors: readingErrors,
  command: true,
}));

export const apiRoutes: ApiRoute[] = [
  // System
  {
    operationId: 'health',
    method: 'get',
    path: '/api/health',
    tag: 'System',
    summary: 'Health: ok, degraded (a projection is stuck) or starting',
    auth: 'none',
    responses: {
      200: {
        description: '`ok`, or `degraded` naming the failed projections',
        schema: healthSchema,
      },
      503: {
        description: '`starting`: the read models do not answer yet',
        schema: healthStartingSchema,
      },
    },
    errors: [],
  },
  {
    operationId: 'openApiDocument',
    method: 'get',
    path: '/api/openapi.json',
    tag: 'System',
    summary: 'This OpenAPI 3.1 document',
    auth: 'none',
    responses: { 200: { description: 'The OpenAPI document', contentType: 'application/json' } },
    errors: [],
  },
  {
    operationId: 'apiReference',
    method: 'get',
    path: '/api/docs',
    tag: 'System',
    summary: 'A page listing the routes of this document (development only)',
    auth: 'none',
    responses: { 200: { description: 'An HTML page', contentType: 'text/html' } },
    errors: [],
    onlyWhen: 'NODE_ENV is not production',
  },
  {
    operationId: 'siteInfo',
    method: 'get',
    path: '/api/site',
    tag: 'System',
    summary: 'The operator’s details, the support address and the social links (configuration)',
    auth: 'none',
    responses: ok(siteInfoSchema),
    errors: [],
  },
  {
    operationId: 'devMailbox',
    method: 'get',
    path: '/api/dev/mail',
    tag: 'System',
    summary:
      'The development mailbox: every message of the outbox, newest first (404 in production)',
    auth: 'none',
    responses: ok(devMailboxSchema),
    errors: [notFound('NODE_ENV=production')],
    onlyWhen: 'NODE_ENV is not production',
  },
  {
    operationId: 'devMailPreviews',
    method: 'get',
    path: '/api/dev/mail/previews',
    tag: 'System',
    summary: 'Every e-mail template rendered with sample data (404 in production)',
    auth: 'none',
    responses: ok(mailPreviewsSchema),
    errors: [notFound('NODE_ENV=production')],
    onlyWhen: 'NODE_ENV is not production',
  },

  // Sign-in
  {
    operationId: 'authProviders',
    method: 'get',
    path: '/api/auth/providers',
    tag: 'Sign-in',
    summary: 'Which sign-in buttons to show',
    auth: 'none',
    responses: ok(authProvidersSchema),
    errors: [],
  },
  {
    operationId: 'googleSignIn',
    method: 'get',
    path: '/api/auth/google',
    tag: 'Sign-in',
    summary: "Starts Google sign-in: redirects to Google's authorization page",
    auth: 'none',
    responses: redirect,
    errors: [notFound('Google sign-in is not configured')],
  },
  {
    operationId: 'googleCallback',
    method: 'get',
    path: '/api/auth/google/callback',
    tag: 'Sign-in',
    summary: 'Google sends the browser here; redirects to `/auth/callback`',
    auth: 'none',
    responses: redirect,
    errors: [notFound('Google sign-in is not configured')],
    command: true,
  },
  {
    operationId: 'appleSignIn',
    method: 'get',
    path: '/api/auth/apple',
    tag: 'Sign-in',
    summary: "Starts Sign in with Apple: redirects to Apple's authorization page",
    auth: 'none',
    responses: redirect,
    errors: [notFound('Sign in with Apple is not configured')],
  },
  {
    operationId: 'appleCallback',
    method: 'post',
    path: '/api/auth/apple/callback',
    tag: 'Sign-in',
    summary: "Apple's form post (from Apple's site); redirects to `/auth/callback`",
    auth: 'none',
    body: { contentType: 'application/x-www-form-urlencoded', required: false },
    responses: redirect,
    errors: [notFound('Sign in with Apple is not configured')],
    command: true,
  },
  {
    operationId: 'devLogin',
    method: 'post',
    path: '/api/auth/dev-login',
    tag: 'Sign-in',
    summary: 'Development and test sign-in (404 in production)',
    auth: 'none',
    body: json(devLoginRequestSchema),
    responses: ok(meSchema, 'Signed in: the Me object, with `Set-Cookie`'),
    errors: [
      notFound('NODE_ENV=production'),
      {
        status: 503,
        code: 'not_ready',
        when: 'The new profile is not readable after READ_YOUR_WRITES_TIMEOUT_MS',
      },
    ],
    command: true,
    rateLimited: 60,
  },
  {
    operationId: 'logout',
    method: 'post',
    path: '/api/auth/logout',
    tag: 'Sign-in',
    summary: 'Ends every session of the user',
    auth: 'none',
    responses: ok(okSchema),
    errors: [],
  },

  // Account
  {
    operationId: 'me',
    method: 'get',
    path: '/api/me',
    tag: 'Account',
    summary: 'The signed-in user, balance, credit lots and subscription',
    auth: 'user',
    responses: ok(meSchema),
    errors: [],
  },
  {
    operationId: 'session',
    method: 'get',
    path: '/api/session',
    tag: 'Account',
    summary: 'Who is signed in: the `Me` object, or null for a visitor (always 200)',
    auth: 'none',
    responses: ok(sessionSchema),
    errors: [],
  },
  {
    operationId: 'updateProfile',
    method: 'patch',
    path: '/api/me',
    tag: 'Account',
    summary: 'Changes profile fields',
    auth: 'user',
    body: json(profileUpdateSchema),
    responses: ok(meSchema),
    errors: [],
    command: true,
  },
  {
    operationId: 'deleteAccount',
    method: 'delete',
    path: '/api/me',
    tag: 'Account',
    summary: 'Deletes the account',
    auth: 'user',
    responses: ok(okMessageSchema),
    errors: [],
    command: true,
  },
  {
    operationId: 'myLedger',
    method: 'get',
    path: '/api/me/ledger',
    tag: 'Account',
    summary:
      "The user's own credit history, newest first, 50 a page; `changesOnly=true` leaves out entries of 0 credits",
    auth: 'user',
    query: myLedgerQuerySchema,
    responses: ok(ledgerPageSchema),
    errors: [{ status: 400, code: 'invalid_request', when: 'A bad `page` or `changesOnly`' }],
  },
  {
    operationId: 'exportMyData',
    method: 'get',
    path: '/api/me/export',
    tag: 'Account',
    summary:
      'Everything held about the signed-in user, as a JSON download (`Content-Disposition: attachment`), streamed: profile, credit events with their money, payments, readings with inputs, texts and voice sessions, feedback',
    auth: 'user',
    responses: ok(
      personalDataExportSchema,
      'The file `astra-data-<date>.json` (`Cache-Control: no-store`)',
    ),
    errors: [],
  },
  {
    operationId: 'setAvatar',
    method: 'put',
    path: '/api/me/avatar',
    tag: 'Account',
    summary: "Sets the profile picture from the body's raw bytes",
    auth: 'user',
    body: { contentType: 'application/octet-stream', required: true },
    responses: ok(meSchema),
    errors: [
      { status: 413, code: 'payload_too_large', when: 'A picture above 2 MB' },
      { status: 415, code: 'unsupported_media_type', when: 'Not a PNG, JPEG, GIF or WebP image' },
    ],
    command: true,
  },
  {
    operationId: 'removeAvatar',
    method: 'delete',
    path: '/api/me/avatar',
    tag: 'Account',
    summary: 'Removes the profile picture',
    auth: 'user',
    responses: ok(meSchema),
    errors: [],
    command: true,
  },
  {
    operationId: 'avatar',
    method: 'get',
    path: '/api/avatars/{id}',
    tag: 'Account',
    summary: "A stored picture's bytes (immutable, cached for a year)",
    auth: 'none',
    responses: { 200: { description: 'The picture', contentType: 'image/*' } },
    errors: [notFound('No such picture')],
  },
  {
    operationId: 'submitFeedback',
    method: 'post',
    path: '/api/feedback',
    tag: 'Account',
    summary: 'Feedback from the About page',
    auth: 'user',
    body: json(feedbackRequestSchema),
    responses: { 201: { description: 'Received', schema: feedbackCreatedSchema } },
    errors: [],
    command: true,
  },

  // Readings
  {
    operationId: 'apps',
    method: 'get',
    path: '/api/apps',
    tag: 'Readings',
    summary: 'The five reading apps with their credit cost',
    auth: 'none',
    responses: ok(appsResponseSchema),
    errors: [],
  },
  ...readingRoutes,
  ...readingStartRoutes,
  {
    operationId: 'readingStream',
    method: 'get',
    path: '/api/readings/{id}/stream',
    tag: 'Readings',
    summary:
      "A reading's text as server-sent events while it is written: the reading with its facts, the text so far, then each new piece, and its end (done or failed); resumable from `from` / `Last-Event-ID`",
    auth: 'user',
    query: readingStreamQuerySchema,
    responses: {
      200: {
        description:
          'An event stream: `reading`, then `text` pieces (`id`: the characters so far), then `done` or `failed`',
        contentType: 'text/event-stream',
        events: readingStreamEvents,
      },
    },
    errors: [
      { status: 400, code: 'invalid_request', when: 'A `from` that is not a whole number' },
      notFound("Unknown, someone else's, or deleted"),
    ],
  },
  {
    operationId: 'reading',
    method: 'get',
    path: '/api/readings/{id}',
    tag: 'Readings',
    summary: "One of the user's own completed readings",
    auth: 'user',
    responses: ok(readingViewSchema),
    errors: [notFound("Unknown, someone else's, not completed, or deleted")],
  },
  {
    operationId: 'deleteReading',
    method: 'delete',
    path: '/api/readings/{id}',
    tag: 'Readings',
    summary: 'Removes a completed reading from the library (no refund)',
    auth: 'user',
    responses: ok(okMessageSchema),
    errors: [notFound("Unknown, someone else's, not completed, or already deleted")],
    command: true,
  },
  {
    operationId: 'readingVoice',
    method: 'get',
    path: '/api/readings/{id}/voice',
    tag: 'Readings',
    summary:
      "The reading's voice guide: used, the running session with its seconds left, reactivations, credits charged (a session past its end is ended now)",
    auth: 'user',
    responses: ok(voiceStatusSchema),
    errors: [notFound("Unknown, someone else's, not completed, or deleted")],
  },
  {
    operationId: 'startVoiceSession',
    method: 'post',
    path: '/api/readings/{id}/voice/sessions',
    tag: 'Readings',
    summary:
      'Starts a voice session: the first is included in the reading, a later one is a reactivation that spends its price',
    auth: 'user',
    body: json(voiceSessionRequestSchema, false),
    responses: {
      201: {
        description: 'The session and how to connect to it',
        schema: voiceSessionStartedSchema,
      },
    },
    errors: [
      { status: 400, code: 'invalid_request', when: 'A body with fields' },
      {
        status: 402,
        code: 'insufficient_credits',
        when: 'A reactivation the balance does not cover; nothing is spent',
        schema: insufficientCreditsErrorSchema,
      },
      { status: 403, code: 'account_blocked', when: 'The account is blocked; nothing is written' },
      notFound("Unknown, someone else's, not completed, or deleted"),
      {
        status: 409,
        code: 'voice_session_active',
        when: 'A session of this reading runs (or is being started); it is named',
        schema: voiceSessionActiveErrorSchema,
      },
      {
        status: 409,
        code: 'voice_session_failed',
        when: 'The same Idempotency-Key again, for a session that failed or is over',
      },
      {
        status: 502,
        code: 'voice_unavailable',
        when: 'The voice service failed or timed out; a reactivation was given back',
      },
    ],
    command: true,
  },
  {
    operationId: 'endVoiceSession',
    method: 'post',
    path: '/api/readings/{id}/voice/sessions/{sessionId}/end',
    tag: 'Readings',
    summary:
      'Ends a voice session (early, on leaving, at the timer, or never connected: a reactivation is then given back); ending twice is answered as the first end',
    auth: 'user',
    body: json(voiceSessionEndRequestSchema),
    responses: ok(voiceSessionEndedSchema),
    errors: [
      { status: 400, code: 'invalid_request', when: 'A missing or unknown `reason`' },
      notFound("Unknown reading or session, someone else's, or deleted"),
      {
        status: 409,
        code: 'voice_session_starting',
        when: 'The session is still being started; the clock ends it if it is never ended',
      },
    ],
    command: true,
  },
  {
    operationId: 'library',
    method: 'get',
    path: '/api/library',
    tag: 'Readings',
    summary: "The user's completed readings, newest first, 25 a page",
    auth: 'user',
    query: libraryQuerySchema,
    responses: ok(libraryPageSchema),
    errors: [{ status: 400, code: 'invalid_request', when: 'A bad `search`, `appId` or `page`' }],
  },
  {
    operationId: 'places',
    method: 'get',
    path: '/api/places',
    tag: 'Readings',
    summary: 'Place suggestions for the birthplace fields',
    auth: 'none',
    query: placesQuerySchema,
    responses: ok(placesResponseSchema),
    errors: [{ status: 400, code: 'invalid_request', when: 'No `q`, or one above 120 characters' }],
  },
  {
    operationId: 'placeAt',
    method: 'get',
    path: '/api/places/at',
    tag: 'Readings',
    summary:
      'A birthplace the suggestions lack, by its coordinates: its time zone (found there by the server) and country',
    auth: 'none',
    query: placeAtQuerySchema,
    responses: ok(placeAtResponseSchema),
    errors: [
      {
        status: 400,
        code: 'invalid_request',
        when: 'A `latitude` or `longitude` missing, not a decimal number or out of range; a `label` above 120 characters',
      },
    ],
  },

  // Payments
  {
    operationId: 'pricing',
    method: 'get',
    path: '/api/pricing',
    tag: 'Payments',
    summary: 'The tiers, each with its monthly and one-time rows',
    auth: 'none',
    responses: ok(pricingResponseSchema),
    errors: [],
  },
  {
    operationId: 'checkout',
    method: 'post',
    path: '/api/checkout',
    tag: 'Payments',
    summary: 'Starts paying for a tier: a checkout session to send the browser to',
    auth: 'user',
    body: json(checkoutRequestSchema),
    responses: ok(checkoutResponseSchema),
    errors: [
      {
        status: 400,
        code: 'invalid_request',
        when: 'A bad body, or no such tier and billing type',
      },
      { status: 403, code: 'account_blocked', when: 'The account is blocked' },
      {
        status: 409,
        code: 'subscription_active',
        when: 'A subscription runs already; change the plan instead',
        schema: subscriptionActiveErrorSchema,
      },
      {
        status: 409,
        code: 'checkout_in_progress',
        when: 'A subscription checkout of the account is still open (its `url` and `sessionId`)',
        schema: checkoutConflictSchema,
      },
    ],
    command: true,
  },
  {
    operationId: 'checkoutStatus',
    method: 'get',
    path: '/api/checkout/sessions/{id}',
    tag: 'Payments',
    summary: 'Has the payment landed? (the success page polls this)',
    auth: 'user',
    responses: ok(checkoutStatusSchema),
    errors: [notFound("Unknown, or another user's, checkout session")],
  },
  {
    operationId: 'localCheckoutSession',
    method: 'get',
    path: '/api/checkout/local/{id}',
    tag: 'Payments',
    summary: 'The local checkout page: its session (development, without Stripe)',
    auth: 'user',
    responses: ok(localCheckoutSessionSchema),
    errors: [notFound('No such checkout session')],
    onlyWhen: 'STRIPE_SECRET_KEY is unset (never in production)',
  },
  {
    operationId: 'localCheckoutPay',
    method: 'post',
    path: '/api/checkout/local/{id}/pay',
    tag: 'Payments',
    summary: 'The local checkout page: pays (sends our webhook what Stripe would)',
    auth: 'user',
    responses: ok(localCheckoutResultSchema),
    errors: [
      notFound('No open checkout session (unknown, already paid or cancelled)'),
      { status: 409, code: 'payment_in_progress', when: 'This checkout is being paid already' },
    ],
    command: true,
    onlyWhen: 'STRIPE_SECRET_KEY is unset (never in production)',
  },
  {
    operationId: 'localCheckoutCancel',
    method: 'post',
    path: '/api/checkout/local/{id}/cancel',
    tag: 'Payments',
    summary: 'The local checkout page: cancels an open session',
    auth: 'user',
    responses: ok(localCheckoutResultSchema),
    errors: [],
    onlyWhen: 'STRIPE_SECRET_KEY is unset (never in production)',
  },
  {
    operationId: 'stripeWebhook',
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
  {
    operationId: 'subscription',
    method: 'get',
    path: '/api/subscription',
    tag: 'Payments',
    summary: "The spec's subscription view",
    auth: 'user',
    responses: ok(subscriptionStatusSchema),
    errors: [],
  },
  {
    operationId: 'refreshSubscription',
    method: 'post',
    path: '/api/subscription/refresh',
    tag: 'Payments',
    summary: 'Refresh Monthly Credits: grants a month that is due (without Stripe)',
    auth: 'user',
    responses: ok(subscriptionActionSchema),
    errors: [
      { status: 404, code: 'user_not_found', when: 'No credit account' },
      {
        status: 409,
        code: 'no_active_subscription',
        when: 'No subscription, or a cancelled one',
      },
      {
        status: 409,
        code: 'subscription_missing_tier',
        when: 'The subscription has no tier information',
      },
      {
        status: 409,
        code: 'refresh_not_due',
        when: 'The renewal date has not come, or its month was granted already',
        schema: refreshNotDueErrorSchema,
      },
      {
        status: 409,
        code: 'renewal_pending',
        when: 'With Stripe: months come with their paid invoice, never ahead of it',
      },
      { status: 422, code: 'invalid_tier', when: 'Our table has no such monthly tier' },
      { status: 500, code: 'refresh_failed', when: 'Anything else (logged)' },
    ],
    command: true,
  },
  {
    operationId: 'cancelSubscription',
    method: 'post',
    path: '/api/subscription/cancel',
    tag: 'Payments',
    summary: 'Cancels at the end of the paid period',
    auth: 'user',
    body: json(cancelSubscriptionRequestSchema, false),
    responses: ok(subscriptionActionSchema),
    errors: [
      {
        status: 409,
        code: 'no_active_subscription',
        when: 'No active subscription (a second cancel included)',
      },
    ],
    command: true,
  },
  {
    operationId: 'changePlan',
    method: 'post',
    path: '/api/subscription/change',
    tag: 'Payments',
    summary: 'Another plan from the next renewal; no money moves now',
    auth: 'user',
    body: json(changePlanRequestSchema),
    responses: ok(subscriptionActionSchema),
    errors: [
      { status: 400, code: 'invalid_request', when: 'A bad body, or no tier with a monthly price' },
      { status: 409, code: 'no_active_subscription', when: 'No running active subscription' },
      { status: 409, code: 'same_plan', when: 'The tier of the running subscription' },
    ],
    command: true,
  },

  // Admin
  {
    operationId: 'adminUnlock',
    method: 'post',
    path: '/api/admin/unlock',
    tag: 'Admin',
    summary: 'Unlocks the admin routes for this session (8 hours) with ADMIN_PASSWORD',
    auth: 'user',
    body: json(adminUnlockRequestSchema),
    responses: ok(adminUnlockResponseSchema),
    errors: [
      { status: 403, code: 'admin_required', when: 'The user is not an admin' },
      { status: 403, code: 'incorrect_password', when: 'A wrong password' },
      {
        status: 503,
        code: 'admin_password_not_configured',
        when: 'ADMIN_PASSWORD is not set',
      },
    ],
    command: true,
    rateLimited: 10,
  },
  {
    operationId: 'adminAdjustCredits',
    method: 'post',
    path: '/api/admin/users/{id}/credits',
    tag: 'Admin',
    summary: "Adds credits to, or deducts them from, a user's balance",
    auth: 'unlocked_admin',
    body: json(adminCreditRequestSchema),
    responses: ok(adminCreditResultSchema),
    errors: [
      {
        status: 409,
        code: 'self_action',
        when: "The admin's own account: another admin must adjust it",
      },
      { status: 404, code: 'user_not_found', when: 'No credit account with that id' },
      {
        status: 409,
        code: 'insufficient_credits',
        when: 'A deduction larger than the balance',
        schema: insufficientCreditsErrorSchema,
      },
      {
        status: 409,
        code: 'balance_changed',
        when: 'The balance is no longer `expectedBalance`, the one the admin saw',
        schema: balanceChangedErrorSchema,
      },
      { status: 409, code: 'account_closed', when: 'The account was deleted' },
      {
        status: 409,
        code: 'balance_limit',
        when: 'The balance or total granted would pass 1,000,000,000 credits',
      },
    ],
    command: true,
  },
  {
    operationId: 'adminUserLedger',
    method: 'get',
    path: '/api/admin/users/{id}/ledger',
    tag: 'Admin',
    summary: "A user's full credit history with actors, newest first",
    auth: 'unlocked_admin',
    responses: ok(adminUserLedgerSchema),
    errors: [notFound('No such user')],
  },
  {
    operationId: 'adminStats',
    method: 'get',
    path: '/api/admin/stats',
    tag: 'Admin',
    summary:
      "The dashboard's figures and their last 30 UTC days, from the read models, with the moment they are as of",
    auth: 'unlocked_admin',
    responses: ok(adminStatsSchema),
    errors: [],
  },
  {
    operationId: 'adminStatsMoney',
    method: 'get',
    path: '/api/admin/stats/money',
    tag: 'Admin',
    summary:
      "This month's recognized revenue and cash in every currency, as the month report counts them",
    auth: 'unlocked_admin',
    responses: ok(adminStatsMoneySchema),
    errors: [],
  },
  {
    operationId: 'adminSession',
    method: 'get',
    path: '/api/admin/session',
    tag: 'Admin',
    summary: "Whether this admin's session is unlocked, and until when",
    auth: 'user',
    responses: ok(adminSessionSchema),
    errors: [{ status: 403, code: 'admin_required', when: 'The user is not an admin' }],
  },
  {
    operationId: 'adminLock',
    method: 'post',
    path: '/api/admin/lock',
    tag: 'Admin',
    summary: 'Locks the admin routes of this session again',
    auth: 'user',
    responses: ok(okMessageSchema),
    errors: [{ status: 403, code: 'admin_required', when: 'The user is not an admin' }],
  },
  {
    operationId: 'adminUsers',
    method: 'get',
    path: '/api/admin/users',
    tag: 'Admin',
    summary:
      'Users, newest first, 20 a page; `search` is a case-insensitive substring of first, last or full name or e-mail',
    auth: 'unlocked_admin',
    query: adminUsersQuerySchema,
    responses: ok(adminUsersPageSchema),
    errors: [{ status: 400, code: 'invalid_request', when: 'A bad `search` or `page`' }],
  },
  {
    operationId: 'adminUser',
    method: 'get',
    path: '/api/admin/users/{id}',
    tag: 'Admin',
    summary: 'One user as the admin panel shows it',
    auth: 'unlocked_admin',
    responses: ok(adminUserSchema),
    errors: [notFound('No such user')],
  },
  ...(['block', 'unblock'] as const).map(
    (action): ApiRoute => ({
      operationId: action === 'block' ? 'adminBlockUser' : 'adminUnblockUser',
      method: 'post',
      path: `/api/admin/users/{id}/${action}`,
      tag: 'Admin',
      summary:
        action === 'block'
          ? 'Blocks a user: their spends and checkouts are refused (403 account_blocked)'
          : 'Unblocks a user',
      auth: 'unlocked_admin',
      responses: ok(adminUserActionSchema),
      errors: [
        { status: 404, code: 'user_not_found', when: 'No user with that id' },
        { status: 409, code: 'account_deleted', when: 'The account was deleted' },
        { status: 409, code: 'self_action', when: `The admin would ${action} themselves` },
      ],
      command: true,
    }),
  ),
  {
    operationId: 'adminChangeRole',
    method: 'post',
    path: '/api/admin/users/{id}/role',
    tag: 'Admin',
    summary: 'Promotes a user to admin or demotes an admin to user (the role stays at sign-in)',
    auth: 'unlocked_admin',
    body: json(adminRoleRequestSchema),
    responses: ok(adminUserActionSchema),
    errors: [
      { status: 404, code: 'user_not_found', when: 'No user with that id' },
      { status: 409, code: 'account_deleted', when: 'The account was deleted' },
      { status: 409, code: 'self_action', when: 'The admin would change their own role' },
      { status: 409, code: 'last_admin', when: 'The demotion would leave no admin' },
    ],
    command: true,
  },
  {
    operationId: 'adminDeleteUser',
    method: 'delete',
    path: '/api/admin/users/{id}',
    tag: 'Admin',
    summary:
      'Deletes a user as their own deletion does (subscription cancelled, credits forfeited, e-mail released)',
    auth: 'unlocked_admin',
    responses: ok(adminUserActionSchema),
    errors: [
      { status: 404, code: 'user_not_found', when: 'No user with that id' },
      { status: 409, code: 'self_action', when: 'The admin would delete themselves' },
      { status: 409, code: 'last_admin', when: 'The user is the last admin' },
    ],
    command: true,
  },
  ...financeRoutes(),
];

/** Audit and finance: built by replaying the event log, never from the read models. */
function financeRoutes(): ApiRoute[] {
  const badQuery = (when: string): RouteError => ({ status: 400, code: 'invalid_request', when });
  return [
    {
      operationId: 'adminLedgerExplorer',
      method: 'get',
      path: '/api/admin/ledger',
      tag: 'Admin',
      summary:
        'Credit events from the log, oldest first, filtered by type, actor, user and time, paged by position',
      auth: 'unlocked_admin',
      query: ledgerExplorerQuerySchema,
      responses: ok(ledgerExplorerPageSchema),
      readsLog: true,
      errors: [badQuery('A bad filter, position or limit')],
    },
    {
      operationId: 'adminActivity',
      method: 'get',
      path: '/api/admin/activity',
      tag: 'Admin',
      summary:
        'What admins did (unlock attempts, locks, downloads, verify runs, rebuilds and admin commands), newest first, from the log',
      auth: 'unlocked_admin',
      query: adminActivityQuerySchema,
      responses: ok(adminActivityPageSchema),
      readsLog: true,
      errors: [badQuery('A bad position, type or limit')],
    },
    {
      operationId: 'adminUserBalanceAt',
      method: 'get',
      path: '/api/admin/users/{id}/balance',
      tag: 'Admin',
      summary: "A user's balance at an instant, by replaying their credit stream up to it",
      auth: 'unlocked_admin',
      query: balanceAtQuerySchema,
      responses: ok(userBalanceAtSchema),
      readsLog: true,
      errors: [notFound('No such user'), badQuery('`at` is not an ISO instant')],
    },
    {
      operationId: 'adminTotalBalanceAt',
      method: 'get',
      path: '/api/admin/balance',
      tag: 'Admin',
      summary: 'Every account’s balance at an instant, summed, by replaying the log up to it',
      auth: 'unlocked_admin',
      query: balanceAtQuerySchema,
      responses: ok(totalBalanceAtSchema),
      readsLog: true,
      errors: [badQuery('`at` is not an ISO instant')],
    },
    {
      operationId: 'adminLedgerExport',
      method: 'get',
      path: '/api/admin/exports/ledger',
      tag: 'Admin',
      summary:
        'One row per credit event in log order (CSV or JSON lines), streamed from the log; the body’s SHA-256 follows in the `X-Content-SHA256` trailer',
      auth: 'unlocked_admin',
      query: ledgerExportQuerySchema,
      responses: {
        200: {
          description: 'The export (text/csv or application/x-ndjson)',
          contentType: 'text/csv',
        },
      },
      readsLog: true,
      errors: [badQuery('A bad format or range')],
    },
    {
      operationId: 'adminLedgerExportChecksum',
      method: 'get',
      path: '/api/admin/exports/ledger/checksum',
      tag: 'Admin',
      summary: 'The SHA-256, rows and bytes of the export of the same range, without the body',
      auth: 'unlocked_admin',
      query: ledgerExportQuerySchema,
      responses: ok(ledgerExportChecksumSchema),
      readsLog: true,
      errors: [badQuery('A bad format or range')],
    },
    {
      operationId: 'adminMonthlyReport',
      method: 'get',
      path: '/api/admin/reports/monthly',
      tag: 'Admin',
      summary:
        'The month’s credit and money roll-forward by replaying the log (`format=csv` for a CSV)',
      auth: 'unlocked_admin',
      query: monthlyReportQuerySchema,
      responses: ok(monthlyReportSchema),
      readsLog: true,
      errors: [badQuery('`month` is not YYYY-MM')],
    },
    {
      operationId: 'adminProjections',
      method: 'get',
      path: '/api/admin/projections',
      tag: 'Admin',
      summary:
        'Each projection against the log’s head, the last ledger:verify result and the rebuild’s progress',
      auth: 'unlocked_admin',
      responses: ok(projectionsOverviewSchema),
      errors: [],
    },
    {
      operationId: 'adminRebuildProjections',
      method: 'post',
      path: '/api/admin/projections/rebuild',
      tag: 'Admin',
      summary:
        'Rebuilds the read models beside the live ones and swaps them in once caught up (progress in GET /api/admin/projections)',
      auth: 'unlocked_admin',
      responses: { 202: { description: 'Started', schema: rebuildStatusSchema } },
      errors: [{ status: 409, code: 'rebuild_running', when: 'A rebuild is running already' }],
    },
    {
      operationId: 'adminVerifyLedger',
      method: 'post',
      path: '/api/admin/projections/verify',
      tag: 'Admin',
      summary: 'Runs ledger:verify now (the log against the read models) and keeps its result',
      auth: 'unlocked_admin',
      responses: ok(verifyResultSchema),
      readsLog: true,
      errors: [],
    },
    {
      operationId: 'adminRetryReactorMessage',
      method: 'post',
      path: '/api/admin/reactors/{reactor}/messages/{id}/retry',
      tag: 'Admin',
      summary:
        'Tries a failing or parked message again now (its attempts start over); a sent one is left as it is',
      auth: 'unlocked_admin',
      responses: ok(reactorMessageSchema),
      errors: [notFound('No such reactor, or no such message of it')],
    },
  ];
}

/** The error answers of a route: its own, and those that its traits bring (`common`). */
export function errorsOf(route: ApiRoute): RouteError[] {
  const common: RouteError[] = [];
  const add = (status: number, code: string, when: string) => {
    if (!route.errors.some((e) => e.status === status && e.code === code))
      common.push({ status, code, when, common: true });
  };
  const viaApiRouter = route.auth !== 'stripe_signature';
  const mutating = route.method !== 'get';
  // The JSON parser runs before every route of the API's router, whatever the method.
  if (route.body?.contentType === 'application/json')
    add(400, 'invalid_request', 'The body is not valid (`fields`), or not JSON');
  if (viaApiRouter) {
    add(400, 'invalid_request', 'A JSON body that does not parse');
    add(413, 'invalid_request', 'A JSON body above 100 kB');
  }
  if (route.auth === 'user' || route.auth === 'unlocked_admin')
    add(401, 'unauthenticated', 'No session, or the user was deleted');
  if (route.auth === 'unlocked_admin') {
    add(403, 'admin_required', 'The user is not an admin');
    add(403, 'admin_locked', 'The session was not unlocked with the admin password (8 hours)');
  }
  if (viaApiRouter && mutating && route.path !== '/api/auth/apple/callback')
    add(403, 'cross_site_request', 'A browser request from another site');
  if (viaApiRouter && mutating && !route.path.startsWith('/api/auth/')) {
    add(400, 'invalid_request', 'A malformed Idempotency-Key');
    add(409, 'request_in_progress', 'The first request with this Idempotency-Key still runs');
    add(422, 'idempotency_key_reused', 'The Idempotency-Key was used for another request');
  }
  // Path ids are checked for their shape before anything reads them.
  if (route.path.includes('{'))
    add(404, 'not_found', 'A path id of the wrong shape, or one that names nothing of yours');
  if (route.command) add(409, 'conflict', 'The stream kept changing through 20 retries');
  if (route.rateLimited) add(429, 'rate_limited', `More than ${route.rateLimited} a minute`);
  if (route.readsLog)
    add(
      503,
      'log_horizon_stalled',
      'A database transaction left open holds the log back (`Retry-After`); see docs/operations.md',
    );
  add(500, 'internal_error', 'Anything unexpected; no details leave the server');
  return [...route.errors, ...common];
}

const specificity = (route: ApiRoute) => (route.path.match(/\{/g) ?? []).length;
const matchers = [...apiRoutes]
  .sort((a, b) => specificity(a) - specificity(b))
  .map((route) => ({
    route,
    pattern: new RegExp(`^${route.path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
  }));

/** The route of a request (`GET`, `/api/readings/abc?x=1`), literal paths before `{param}` ones. */
export function findRoute(method: string, url: string): ApiRoute | undefined {
  const path = url.split('?')[0] ?? '';
  const lower = method.toLowerCase();
  return matchers.find((m) => m.route.method === lower && m.pattern.test(path))?.route;
}
