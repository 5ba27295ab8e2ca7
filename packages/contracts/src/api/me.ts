import { z } from 'zod';
import { LEDGER_KINDS, ledgerDetailsSchema } from '../events/ledgerLabels.ts';
import { roleSchema, userStatusSchema } from '../events/users.ts';
import { placeViewSchema } from './readings.ts';

/**
 * What the balance is made of, by where the credits came from. Only subscription credits are
 * capped at a renewal; free, purchased and promotional credits never expire.
 */
export const creditLotsSchema = z.object({
  subscription: z.number().int(),
  free: z.number().int(),
  purchased: z.number().int(),
  promotional: z.number().int(),
});
export type CreditLots = z.infer<typeof creditLotsSchema>;

export const subscriptionViewSchema = z.object({
  tierId: z.number().int(),
  tierName: z.string(),
  status: z.enum(['active', 'cancelled']),
  creditsPerMonth: z.number().int(),
  nextRenewalDate: z.string().nullable(),
  lastRefreshDate: z.string().nullable(),
  /** Subscription credits that will carry over at the next renewal (at most one month's). */
  rolloverCredits: z.number().int().nullable(),
  /** Subscription credits above one month's that the next renewal takes away. */
  forfeitAtRenewal: z.number().int(),
  /** The renewal date has come: a manual refresh would grant the month. */
  needsRefresh: z.boolean(),
});
export type SubscriptionView = z.infer<typeof subscriptionViewSchema>;

export const meSchema = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  birthDate: z.string().nullable(),
  birthTime: z.string().nullable(),
  /** The person said they do not know their birth time. */
  birthTimeUnknown: z.boolean(),
  birthCity: z.string().nullable(),
  birthCountry: z.string().nullable(),
  /**
   * The birthplace found for `birthCity` and `birthCountry` (chosen from the suggestions, or
   * found by name), with coordinates and zone; null while they are free text nobody found.
   */
  birthPlace: placeViewSchema.nullable(),
  language: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  role: roleSchema,
  status: userStatusSchema,
  remainingCredits: z.number().int(),
  totalCredits: z.number().int(),
  creditLots: creditLotsSchema,
  subscription: subscriptionViewSchema.nullable(),
  createdAt: z.string(),
});
export type Me = z.infer<typeof meSchema>;

export const actorViewSchema = z.object({
  kind: z.enum(['user', 'system', 'stripe']),
  id: z.string().nullable(),
  role: z.string().nullable(),
});

export const ledgerEntryViewSchema = z.object({
  eventId: z.string(),
  type: z.string(),
  /** Signed change of the balance. */
  amount: z.number().int(),
  balanceAfter: z.number().int(),
  totalAfter: z.number().int(),
  occurredAt: z.string(),
  /** The line a person reads (`ledgerEntryDescription`), built from `type` and `details`. */
  reason: z.string(),
  actor: actorViewSchema,
  reference: z.record(z.string(), z.string()).nullable(),
  position: z.string(),
  revision: z.number().int(),
  /** The type's group (`CREDIT_EVENT_LABELS`). */
  kind: z.enum(LEDGER_KINDS),
  /** The parameters the entry's words are built from (`ledgerEntryLabel`). */
  details: ledgerDetailsSchema,
});
export type LedgerEntryView = z.infer<typeof ledgerEntryViewSchema>;

export const ledgerPageSchema = z.object({
  items: z.array(ledgerEntryViewSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type LedgerPage = z.infer<typeof ledgerPageSchema>;

/**
 * `GET /api/session`: who is signed in, for the web app. Always `200`: `user` is null for a
 * visitor (the web asks on every page; `GET /api/me` keeps its `401` for API clients).
 */
export const sessionSchema = z.object({ user: meSchema.nullable() });
export type Session = z.infer<typeof sessionSchema>;
