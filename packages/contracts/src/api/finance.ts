import { z } from 'zod';
import { uuidIdSchema } from './common.ts';

/**
 * Audit and finance, by replaying the event log (never the read models). Money is in minor units
 * of its currency (lower-case ISO code as Stripe writes it: `eur`), credits are whole credits.
 */

/** Money in one currency, in minor units. */
export const moneyAmountSchema = z.object({ currency: z.string(), minor: z.number().int() });
export type MoneyAmount = z.infer<typeof moneyAmountSchema>;

/**
 * One credit event as the audit sees it (an export row, the ledger explorer's and a user's audit
 * ledger's line). `money`: a payment (+) or a refund (−) the event records; `lotValue`: the value
 * of paid credits the event moved out of the held lots (+, spent, forfeited, deducted or reversed)
 * or back into them (−, a refunded spend), by currency.
 */
export const auditEntrySchema = z.object({
  position: z.string(),
  occurredAt: z.string(),
  userId: z.string(),
  /** The user's e-mail when the event happened (null once nothing on the log names one). */
  email: z.string().nullable(),
  type: z.string(),
  /** Signed change of the balance. */
  credits: z.number().int(),
  balanceAfter: z.number().int(),
  money: moneyAmountSchema.nullable(),
  lotValue: z.array(moneyAmountSchema),
  /** `user:{id}`, `admin:{e-mail}`, `system` or `stripe`. */
  actor: z.string(),
  /** What caused it: a reading, Stripe ids, an admin's reason (`key=value` pairs, `; ` apart). */
  cause: z.string(),
  correlationId: z.string(),
  /** The line a person reads: 'Tarot Traditional reading', 'Payment refunded: €5.00'. */
  description: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const instant = z.iso.datetime({ offset: true });

/** Ranges of time are half open: `from` ≤ occurredAt < `to`, so `to` must come after `from`. */
const rangeInOrder = (range: { from?: string | undefined; to?: string | undefined }) =>
  range.from === undefined ||
  range.to === undefined ||
  Date.parse(range.from) < Date.parse(range.to);
const rangeOutOfOrder = { path: ['to'], message: 'must be after `from`' };

export const exportFormatSchema = z.enum(['csv', 'jsonl']);
export type ExportFormat = z.infer<typeof exportFormatSchema>;

/** `GET /api/admin/exports/ledger?format=&from=&to=` (and its checksum). */
export const ledgerExportQuerySchema = z
  .object({
    format: exportFormatSchema.default('csv'),
    from: instant.optional(),
    to: instant.optional(),
  })
  .refine(rangeInOrder, rangeOutOfOrder);
export type LedgerExportQuery = z.infer<typeof ledgerExportQuerySchema>;

/** `GET /api/admin/exports/ledger/checksum`: the SHA-256 of the export's body, without the body. */
export const ledgerExportChecksumSchema = z.object({
  format: exportFormatSchema,
  from: z.string().nullable(),
  to: z.string().nullable(),
  sha256: z.string(),
  rows: z.number().int(),
  bytes: z.number().int(),
});
export type LedgerExportChecksum = z.infer<typeof ledgerExportChecksumSchema>;

/** `YYYY-MM`, a month of UTC. */
export const monthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month, YYYY-MM');

export const monthlyReportQuerySchema = z.object({
  month: monthSchema,
  format: z.enum(['json', 'csv']).default('json'),
});

/** The credit roll-forward of one month: opening + the month's movements = closing. */
export const creditRollForwardSchema = z.object({
  opening: z.number().int(),
  purchased: z.number().int(),
  subscriptionGrants: z.number().int(),
  /** The free allotment and promotional grants. */
  free: z.number().int(),
  /** Admin adjustments, signed. */
  adminAdjustments: z.number().int(),
  spentReadings: z.number().int(),
  spentVoice: z.number().int(),
  /** Spends given back (a failed reading or voice start): credits back into the balance. */
  spendsRefunded: z.number().int(),
  forfeitedRollover: z.number().int(),
  forfeitedDeletion: z.number().int(),
  /** Credits of refunded purchases taken back. */
  reversed: z.number().int(),
  closing: z.number().int(),
  /** Every account's balance at the month's end, summed (by replaying each account). */
  balancesAtClose: z.number().int(),
  /** `balancesAtClose − closing`: anything but 0 is flagged. */
  difference: z.number().int(),
});
export type CreditRollForward = z.infer<typeof creditRollForwardSchema>;

/** The money of one month in one currency (minor units). */
export const moneyRollForwardSchema = z.object({
  currency: z.string(),
  deferredOpening: z.number().int(),
  cashIn: z.number().int(),
  refunds: z.number().int(),
  recognized: z.number().int(),
  deferredClosing: z.number().int(),
  /** Since the log began: cash in − refunds, and the check cash = recognized + deferred. */
  cashToDate: z.number().int(),
  recognizedToDate: z.number().int(),
});
export type MoneyRollForward = z.infer<typeof moneyRollForwardSchema>;

/** `GET /api/admin/reports/monthly?month=YYYY-MM`. */
export const monthlyReportSchema = z.object({
  month: z.string(),
  from: z.string(),
  to: z.string(),
  credits: creditRollForwardSchema,
  money: z.array(moneyRollForwardSchema),
  /** Problems a reader must see: a roll-forward that does not meet the balances, a broken money invariant. */
  flags: z.array(z.string()),
  /** Credit events replayed (the whole log up to the month's end). */
  eventsReplayed: z.number().int(),
  /** The log position the report was made through. */
  through: z.string(),
});
export type MonthlyReport = z.infer<typeof monthlyReportSchema>;

/** `?at=` an instant (default: now). */
export const balanceAtQuerySchema = z.object({ at: instant.optional() });

/** `GET /api/admin/users/:id/balance?at=`: one account replayed up to an instant. */
export const userBalanceAtSchema = z.object({
  userId: z.string(),
  at: z.string(),
  balance: z.number().int(),
  /** The balance by source at that instant. */
  lots: z.object({
    subscription: z.number().int(),
    free: z.number().int(),
    purchased: z.number().int(),
    promotional: z.number().int(),
  }),
  /** Value of the paid credits held (deferred revenue of this account). */
  deferred: z.array(moneyAmountSchema),
  /** The last event applied (null: the account had no event yet). */
  position: z.string().nullable(),
  events: z.number().int(),
});
export type UserBalanceAt = z.infer<typeof userBalanceAtSchema>;

/** `GET /api/admin/balance?at=`: every account replayed up to an instant. */
export const totalBalanceAtSchema = z.object({
  at: z.string(),
  balance: z.number().int(),
  accounts: z.number().int(),
  deferred: z.array(moneyAmountSchema),
  position: z.string().nullable(),
});
export type TotalBalanceAt = z.infer<typeof totalBalanceAtSchema>;

/** Who acted, as the explorer filters it. */
export const actorKindSchema = z.enum(['user', 'admin', 'system', 'stripe']);

/** Event type names, comma separated. */
const eventTypeList = z
  .string()
  .transform((value) => value.split(',').filter(Boolean))
  .pipe(
    z
      .array(z.string().regex(/^[A-Za-z]{1,60}$/, 'must be event type names'))
      .max(30, 'must name at most 30 types'),
  );

/** `GET /api/admin/ledger?…`: credit events from the log, oldest first, after a position. */
export const ledgerExplorerQuerySchema = z
  .object({
    /** Event types, comma separated (`CreditsSpent,SpendRefunded`). */
    type: eventTypeList.optional(),
    actor: actorKindSchema.optional(),
    userId: uuidIdSchema.optional(),
    from: instant.optional(),
    to: instant.optional(),
    /** A position: the page starts after it. */
    after: z
      .string()
      .regex(/^\d{1,19}$/, 'must be a log position')
      .optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .refine(rangeInOrder, rangeOutOfOrder);
export type LedgerExplorerQuery = z.infer<typeof ledgerExplorerQuerySchema>;

export const ledgerExplorerPageSchema = z.object({
  items: z.array(auditEntrySchema),
  /** The `after` of the next page; null at the log's end. */
  next: z.string().nullable(),
});
export type LedgerExplorerPage = z.infer<typeof ledgerExplorerPageSchema>;

/** `GET /api/admin/activity?after=&limit=`: what admins did, newest first. */
export const adminActivityQuerySchema = z.object({
  /** A position: the page holds older entries than it. */
  before: z
    .string()
    .regex(/^\d{1,19}$/, 'must be a log position')
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const adminActivityEntrySchema = z.object({
  position: z.string(),
  occurredAt: z.string(),
  adminId: z.string(),
  adminEmail: z.string().nullable(),
  /** The event type: `AdminUnlocked`, `AdminUnlockFailed`, `CreditsAdjusted`, `UserBlocked`, … */
  action: z.string(),
  /** The user acted on (the admin themselves for unlocks). */
  targetUserId: z.string().nullable(),
  targetEmail: z.string().nullable(),
  detail: z.string(),
  correlationId: z.string(),
});
export type AdminActivityEntry = z.infer<typeof adminActivityEntrySchema>;

export const adminActivityPageSchema = z.object({
  items: z.array(adminActivityEntrySchema),
  next: z.string().nullable(),
});
export type AdminActivityPage = z.infer<typeof adminActivityPageSchema>;

/** `GET /api/admin/projections`: each read model against the log's head. */
export const projectionStatusSchema = z.object({
  name: z.string(),
  /** Its checkpoint: the last event it applied. */
  position: z.string(),
  /**
   * Events in the log after the checkpoint, up to the head (counted: positions have gaps), up to
   * 100,000 (then: at least that many).
   */
  lagEvents: z.number().int(),
  /** How long the oldest event it has not applied has been in the log (0 when caught up). */
  lagSeconds: z.number(),
  status: z.enum(['running', 'stopped', 'failing']),
  error: z.string().nullable(),
});

export const verifyResultSchema = z.object({
  at: z.string(),
  ok: z.boolean(),
  /** The lines `ledger:verify` printed (problems first). */
  lines: z.array(z.string()),
  source: z.enum(['cli', 'panel']),
});
export type VerifyResult = z.infer<typeof verifyResultSchema>;

export const rebuildStatusSchema = z.object({
  state: z.enum(['idle', 'running', 'done', 'failed']),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Events replayed into the new tables so far, and the log's events when it began (0: not counted). */
  replayed: z.number().int(),
  target: z.number().int(),
  error: z.string().nullable(),
});
export type RebuildStatus = z.infer<typeof rebuildStatusSchema>;

export const projectionsOverviewSchema = z.object({
  head: z.object({ position: z.string(), at: z.string().nullable() }),
  projections: z.array(projectionStatusSchema),
  lastVerify: verifyResultSchema.nullable(),
  rebuild: rebuildStatusSchema,
});
export type ProjectionsOverview = z.infer<typeof projectionsOverviewSchema>;
