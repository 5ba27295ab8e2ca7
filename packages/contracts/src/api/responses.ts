import { z } from 'zod';
import { adminCreditResponseSchema } from './admin.ts';
import { errorBodySchema } from './common.ts';
import { placeViewSchema } from './readings.ts';

/**
 * Response bodies that had no schema of their own yet (the route table of `routes.ts` needs one
 * for every JSON answer). The routes build these objects by hand; the API tests check them here.
 */

/** A projector process (`npm run projector`) that leads: the others with its projections wait. */
export const projectorLeaderSchema = z.object({
  /** The projections it runs. */
  projections: z.array(z.string()),
  /** Its term: one more each time another process (or a new session) takes the lead. */
  term: z.number().int(),
  pid: z.number().int(),
  host: z.string(),
  /** When it took the lead. */
  since: z.string(),
});
export type ProjectorLeader = z.infer<typeof projectorLeaderSchema>;

/**
 * Where the projections are applied: in the API process, or by projector processes, of which
 * one leads per set of projections (none listed: none runs, or a standby is taking over).
 */
export const projectorRunSchema = z.object({
  mode: z.enum(['in-process', 'external']),
  leaders: z.array(projectorLeaderSchema),
});
export type ProjectorRun = z.infer<typeof projectorRunSchema>;

/**
 * `GET /api/health` `200`: `ok`, or `degraded` naming each projection that cannot apply an event.
 * With `PROJECTOR=external`, `projector` names the processes that lead.
 */
export const healthSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), projector: projectorRunSchema.optional() }),
  z.object({
    status: z.literal('degraded'),
    projector: projectorRunSchema.optional(),
    projections: z.array(
      z.object({
        name: z.string(),
        state: z.literal('failed'),
        /** The projection's checkpoint, a decimal string. */
        position: z.string(),
        error: z.string(),
        since: z.string(),
      }),
    ),
    /**
     * A transaction open past `HORIZON_STALL_SECONDS` holds the event log's horizon: no reader
     * (the projections, exports, reports) sees events committed after it began.
     */
    horizon: z
      .object({
        heldForSeconds: z.number(),
        pid: z.number().int(),
        state: z.string().nullable(),
        database: z.string().nullable(),
        application: z.string().nullable(),
        transactionStart: z.string().nullable(),
        query: z.string().nullable(),
      })
      .optional(),
  }),
]);
/** `GET /api/health` `503`: the in-process projector does not run yet, or the read models do not answer. */
export const healthStartingSchema = z.object({ status: z.literal('starting') });

/** `POST /api/auth/logout`. */
export const okSchema = z.object({ ok: z.literal(true) });
/** `DELETE /api/me`, `DELETE /api/readings/:id`. */
export const okMessageSchema = z.object({ ok: z.literal(true), message: z.string() });

/** `POST /api/feedback` `201`. */
export const feedbackCreatedSchema = z.object({
  ok: z.literal(true),
  message: z.string(),
  feedbackId: z.string(),
});

/** `GET /api/places?q=`. */
export const placesResponseSchema = z.object({ items: z.array(placeViewSchema) });
/** `GET /api/places/at`: the place at the coordinates, its zone found there by the server. */
export const placeAtResponseSchema = z.object({ place: placeViewSchema });

/** `POST /api/admin/unlock` `200`. */
export const adminUnlockResponseSchema = z.object({
  ok: z.literal(true),
  message: z.string(),
  /** ISO date-time: the session's admin routes are unlocked until then (8 hours). */
  unlockedUntil: z.string(),
});

/** `POST /api/admin/users/:id/credits` `200`: the adjustment and the line to show. */
export const adminCreditResultSchema = adminCreditResponseSchema.extend({ message: z.string() });

/** `POST /api/webhooks/stripe` `200`: the delivery was received (applied, a duplicate, or let go). */
export const stripeWebhookReceivedSchema = z
  .object({
    received: z.literal(true),
    duplicate: z.boolean().optional(),
    /** What the event did, e.g. `granted`, `renewed`, `refused: account_closed`. */
    outcome: z.string().optional(),
    /** The global position of its last event, a decimal string. */
    position: z.string().optional(),
  })
  .loose();

/** `402 insufficient_credits` (readings) and `409 insufficient_credits` (admin deduction). */
export const insufficientCreditsErrorSchema = errorBodySchema.extend({
  error: z.literal('insufficient_credits'),
  required: z.number().int(),
  balance: z.number().int(),
  /**
   * Credits the balance holds that cannot be spent now: a disputed payment's pack, while the
   * dispute is open (`balance` is then what can be spent). Absent when none are held.
   */
  held: z.number().int().optional(),
});

/**
 * `409 balance_changed` of `POST /api/admin/users/:id/credits`: the balance is no longer the one
 * the admin saw (`expectedBalance`); `balance` is the balance now.
 */
export const balanceChangedErrorSchema = errorBodySchema.extend({
  error: z.literal('balance_changed'),
  expectedBalance: z.number().int(),
  balance: z.number().int(),
});

/** `409 refresh_not_due` of `POST /api/subscription/refresh`. */
export const refreshNotDueErrorSchema = errorBodySchema.extend({
  error: z.literal('refresh_not_due'),
  nextRenewalDate: z.string(),
  days: z.number().int().min(1),
});

/** `409 subscription_active` of `POST /api/checkout`. */
export const subscriptionActiveErrorSchema = errorBodySchema.extend({
  error: z.literal('subscription_active'),
  tierName: z.string(),
});
