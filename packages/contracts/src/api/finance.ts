import { z } from 'zod';
import { creditEventTypes } from '../events/credits.ts';
import { financeMonthEventSchemas } from '../events/finance.ts';
import { ADMIN_RECORD_TYPES } from '../events/users.ts';
import { isTimeZone, uuidIdSchema } from './common.ts';
import { reactorStatusSchema } from './mail.ts';
import { readingKindRecords } from './readingKinds.ts';
import { projectorRunSchema } from './responses.ts';

/**
 * Audit and finance, by replaying the event log (never the read models). Money is in minor units
 * of its currency (lower-case ISO code as Stripe writes it: `eur`), credits are whole credits.
 */

/** Money in one currency, in minor units. */
export const moneyAmountSchema = z.object({ currency: z.string(), minor: z.number().int() });
export type MoneyAmount = z.infer<typeof moneyAmountSchema>;

/** Tax in one currency at one country and rate (`PaymentTax`'s; null: Stripe named none). */
export const taxAmountSchema = moneyAmountSchema.extend({
  country: z.string().nullable(),
  ratePercent: z.number().nullable(),
});
export type TaxAmount = z.infer<typeof taxAmountSchema>;

/**
 * The line of the books recognized revenue goes to: a reading's kind (`reading:natal-chart`;
 * `reading:app-7` for an app id no shipped kind has, `reading:unknown` for old spends naming none),
 * voice reactivations, breakage (paid credits forfeited above the rollover cap or at an account's
 * deletion), refunds (the value of refunded credits taken back, less the money refunded), and
 * disputes (the value of a lost dispute's credits taken back; its money is an expense).
 */
/** The lines that are not a reading's, in the order reports list them (after the readings). */
export const OTHER_REVENUE_LINES = [
  'voice',
  'breakage:rollover',
  'breakage:deletion',
  'refunds',
  'disputes',
] as const;

export const revenueLineSchema = z.union([
  z.templateLiteral(['reading:', z.string()]),
  z.enum(OTHER_REVENUE_LINES),
]);
export type RevenueLine = z.infer<typeof revenueLineSchema>;

const REVENUE_LINE_LABELS: Record<(typeof OTHER_REVENUE_LINES)[number], string> = {
  voice: 'Voice reactivations',
  'breakage:rollover': 'Breakage: forfeited at rollover',
  'breakage:deletion': 'Breakage: forfeited at deletion',
  refunds: 'Refunds (credits taken back less money refunded)',
  disputes: 'Disputes lost (credits taken back)',
};

/** A revenue line as a person reads it: `Natal Birth Chart readings`, `Voice reactivations`. */
export const revenueLineLabel = (line: RevenueLine): string => {
  if (!line.startsWith('reading:'))
    return REVENUE_LINE_LABELS[line as keyof typeof REVENUE_LINE_LABELS];
  const slug = line.slice('reading:'.length);
  const kind = readingKindRecords.find((record) => record.slug === slug);
  return `${kind?.name ?? slug} readings`;
};

/**
 * What caused a credit event, one typed field each (null: the event names none), never parsed out
 * of text: Stripe's ids, the reading a spend paid for, the ledger's own ids, and the reason (an
 * admin's words, why a spend was given back or a subscription ended). `otherIds`: ids of an
 * event's `reference` that have no field of their own (none that the app writes today).
 */
export const auditCauseSchema = z.object({
  checkoutSessionId: z.string().nullable(),
  paymentIntentId: z.string().nullable(),
  chargeId: z.string().nullable(),
  invoiceId: z.string().nullable(),
  subscriptionId: z.string().nullable(),
  customerId: z.string().nullable(),
  stripeEventId: z.string().nullable(),
  readingId: z.string().nullable(),
  /** What a spend paid for: `reading` or `voice_reactivation`. */
  purpose: z.string().nullable(),
  appId: z.number().int().nullable(),
  grantId: z.string().nullable(),
  spendId: z.string().nullable(),
  adjustmentId: z.string().nullable(),
  /** A subscription month, `YYYY-MM`. */
  period: z.string().nullable(),
  /** What granted a subscription month: `renewal`, `scheduler`, `manual_refresh`. */
  trigger: z.string().nullable(),
  reason: z.string().nullable(),
  otherIds: z.record(z.string(), z.string()).nullable(),
});
export type AuditCause = z.infer<typeof auditCauseSchema>;

/**
 * The e-mail the audit, the explorer and the exports show for a user whose personal data is
 * erased (their user id stays: the books keep every money line).
 */
export const ERASED_EMAIL = 'erased';

/**
 * One credit event as the audit sees it (the ledger explorer's and a user's audit ledger's line;
 * an export row is the same, spelled out). `money`: a payment (+) or a refund (−) the event
 * records; `lotValue`: the value of paid credits the event moved out of the held lots (+, spent,
 * forfeited, deducted or reversed) or back into them (−, a refunded spend), by currency;
 * `adminDeducted`: the part of `lotValue` an admin's deduction took (its own line of the books,
 * never revenue from use).
 */
export const auditEntrySchema = z.object({
  position: z.string(),
  occurredAt: z.string(),
  userId: z.string(),
  /**
   * The user's e-mail when the event happened (null once nothing on the log names one;
   * `ERASED_EMAIL` once their personal data is erased).
   */
  email: z.string().nullable(),
  type: z.string(),
  /** Signed change of the balance. */
  credits: z.number().int(),
  balanceAfter: z.number().int(),
  money: moneyAmountSchema.nullable(),
  lotValue: z.array(moneyAmountSchema),
  adminDeducted: z.array(moneyAmountSchema),
  /** `user:{id}`, `admin:{e-mail}`, `system` or `stripe`. */
  actor: z.string(),
  /** What caused it: Stripe's and the ledger's ids and a reason, each in its own field. */
  causeFields: auditCauseSchema,
  correlationId: z.string(),
  /** The line a person reads: 'Tarot Traditional reading', 'Payment refunded: €5.00'. */
  description: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/**
 * One line of the ledger export's JSON lines: an audit entry with its cause's fields in place of
 * the display text, in the CSV's column order (docs/finance.md).
 */
export const ledgerExportRowSchema = z.object({
  ...auditEntrySchema.omit({
    causeFields: true,
    correlationId: true,
    description: true,
  }).shape,
  ...auditCauseSchema.shape,
  correlationId: z.string(),
  description: z.string(),
});
export type LedgerExportRow = z.infer<typeof ledgerExportRowSchema>;

const instant = z.iso.datetime({ offset: true });

/** Ranges of time are half open: `from` ≤ occurredAt < `to`, so `to` must come after `from`. */
const rangeInOrder = (range: { from?: string | undefined; to?: string | undefined }) =>
  range.from === undefined ||
  range.to === undefined ||
  Date.parse(range.from) < Date.parse(range.to);
const rangeOutOfOrder = { path: ['to'], message: 'must be after `from`' };

export const exportFormatSchema = z.enum(['csv', 'jsonl', 'journal']);
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

/** `YYYY-MM`, a month since the ledger's epoch (1970: nothing is older). */
export const monthSchema = z
  .string()
  .regex(/^(19[7-9]\d|[2-9]\d{3})-(0[1-9]|1[0-2])$/, 'must be a month, YYYY-MM, from 1970-01');

/** An IANA time zone: the finance calendar's (`FINANCE_TIME_ZONE`). */
export const timeZoneSchema = z
  .string()
  .trim()
  .refine(isTimeZone, 'must be an IANA time zone, such as UTC or Europe/Berlin');

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
  /** Revenue from use: paid credits spent, forfeited or reversed, less refunds. */
  recognized: z.number().int(),
  /** Value of paid credits admins deducted: a line of its own, not revenue from use. */
  adminDeductions: z.number().int(),
  deferredClosing: z.number().int(),
  /**
   * Since the log began: cash in − refunds, and the check Stripe's balance (cash − fees − paid
   * out) = recognized + admin deductions + deferred + tax payable − fees − paid out.
   */
  cashToDate: z.number().int(),
  recognizedToDate: z.number().int(),
  adminDeductionsToDate: z.number().int(),
  /**
   * Tax collected for the authorities (the tax part of payments, less that of refunds): owed at
   * the month's start, collected in the month, given back by its refunds, owed at its end. Since
   * the log began, cash = recognized + admin deductions + deferred + tax payable.
   */
  taxPayableOpening: z.number().int(),
  taxIn: z.number().int(),
  taxOut: z.number().int(),
  taxPayableClosing: z.number().int(),
  /**
   * Stripe's fees booked in the month and what its payouts took to the bank (a failed one gives
   * it back), and both since the log began: Stripe's balance = cash to date − fees to date − paid
   * out to date.
   */
  fees: z.number().int(),
  paidOut: z.number().int(),
  feesToDate: z.number().int(),
  paidOutToDate: z.number().int(),
  /**
   * What disputes withdrew from Stripe's balance in the month (returned money of won ones taken
   * off), and since the log began: an expense, like the fees. Stripe's balance = cash to date −
   * fees − paid out − disputes to date. Absent on reports closed before disputes were booked.
   */
  disputes: z.number().int().optional(),
  disputesToDate: z.number().int().optional(),
  /** The month's tax (collected less refunded) by the customer's country and the rate. */
  taxByCountry: z.array(
    z.object({
      country: z.string().nullable(),
      ratePercent: z.number().nullable(),
      minor: z.number().int(),
    }),
  ),
  /** The month's `recognized` by line of the books (they add up to it). */
  revenue: z.array(z.object({ line: revenueLineSchema, minor: z.number().int() })),
  /**
   * Deferred revenue at the month's start and end by the month its credits were paid for
   * (`YYYY-MM`; `unknown` for lots the log gives no time): how old the revenue still owed is.
   */
  deferredByPurchaseMonth: z.array(
    z.object({ purchased: z.string(), opening: z.number().int(), closing: z.number().int() }),
  ),
});
export type MoneyRollForward = z.infer<typeof moneyRollForwardSchema>;

/** An event booked in a later month than its own, because its month was closed when it came. */
export const datedAdjustmentSchema = z.object({
  /** Its log position, and when it happened (in a closed month). */
  position: z.string(),
  occurredAt: z.string(),
  type: z.string(),
});
export type DatedAdjustment = z.infer<typeof datedAdjustmentSchema>;

/**
 * A closed month: its `MonthClosed` event but the request's id and the report's text (who closed it when, in which time
 * zone, and its report: made through the log position `through`, its CSV's SHA-256 without the
 * `closed_*` rows, see docs/finance.md).
 */
export const closedMonthSchema = financeMonthEventSchemas.MonthClosed.omit({
  closeId: true,
  reportJson: true,
  reportCsv: true,
});
export type ClosedMonth = z.infer<typeof closedMonthSchema>;

/** `POST /api/admin/finance/months/{month}/close`: the path's month. */
export const closeMonthParamsSchema = z.object({ month: monthSchema });

/** `GET /api/admin/finance/months`: the closed months, oldest first, with who closed each. */
export const closedMonthsSchema = z.object({
  items: z.array(closedMonthSchema.extend({ adminEmail: z.string().nullable() })),
  /** The month the next close must be (months close in order); null: none closed yet. */
  next: z.string().nullable(),
});
export type ClosedMonths = z.infer<typeof closedMonthsSchema>;

/** `GET /api/admin/reports/monthly?month=YYYY-MM`. */
export const monthlyReportSchema = z.object({
  month: z.string(),
  /** The finance calendar's time zone (`FINANCE_TIME_ZONE`): the month is its month. */
  timeZone: z.string(),
  /** The month's first instant and the next month's (UTC instants, half open). */
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
  /**
   * Dated adjustments: events recorded after an earlier month was closed whose time falls in a
   * closed month, booked in this month (the first one open then) and counted in its figures.
   */
  adjustments: z.array(datedAdjustmentSchema),
  /** The month's close (null: it is open): its report is then the one made through `through`. */
  closed: closedMonthSchema.nullable(),
});
export type MonthlyReport = z.infer<typeof monthlyReportSchema>;

/** `GET /api/admin/reports/payouts?month=YYYY-MM`. */
export const payoutReportQuerySchema = z.object({ month: monthSchema });

/**
 * One payout tied to the bank (minor units, in the payout's currency): what its balance
 * transactions add up to, by kind, against the amount that reached the bank.
 */
export const payoutReconciliationSchema = z.object({
  payoutId: z.string(),
  /** Its latest status on the ledger. */
  status: z.enum(['paid', 'failed']),
  currency: z.string(),
  /** When it reaches the bank (Stripe's `arrival_date`): the month it belongs to. */
  arrivalDate: z.string(),
  /** Payments (`charge`, `payment`), their gross amounts. */
  charges: z.number().int(),
  /** Refunds (`refund`, `payment_refund`), as a positive amount. */
  refunds: z.number().int(),
  /** Stripe's fees: every transaction's `fee`, and `stripe_fee` transactions. */
  fees: z.number().int(),
  /** Disputes (`adjustment`, `dispute`, …): withdrawn (−) or returned (+). */
  disputes: z.number().int(),
  /** Any other transaction's amount. */
  other: z.number().int(),
  /** charges − refunds − fees + disputes + other. */
  expected: z.number().int(),
  /** The payout's amount: what reached the bank. */
  amount: z.number().int(),
  /** `amount − expected`: anything but 0 is flagged. */
  difference: z.number().int(),
  transactions: z.number().int(),
});
export type PayoutReconciliation = z.infer<typeof payoutReconciliationSchema>;

export const payoutReportSchema = z.object({
  month: z.string(),
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  /** The payouts arriving in the month, by arrival date, then id. */
  payouts: z.array(payoutReconciliationSchema),
  /** A payout whose transactions do not add up to its amount. */
  flags: z.array(z.string()),
});
export type PayoutReport = z.infer<typeof payoutReportSchema>;

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
      .array(
        z.enum(creditEventTypes, {
          error: (issue) =>
            `must be credit event types (${creditEventTypes.join(', ')}), not ${JSON.stringify(issue.input)}`,
        }),
      )
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

/** On an admin's own user stream: unlock attempts and what the audit trail records. */
export const ADMIN_OWN_STREAM_TYPES = [
  'AdminUnlocked',
  'AdminUnlockFailed',
  ...ADMIN_RECORD_TYPES,
] as const;
/** What only an admin does: these count whenever their actor is an admin. */
export const ADMIN_COMMAND_TYPES = [
  'CreditsAdjusted',
  'MonthClosed',
  'UserBlocked',
  'UserUnblocked',
  'UserRoleChanged',
] as const;
/** A deletion's events: an admin's when an admin deleted someone else. */
export const ADMIN_DELETION_TYPES = [
  'UserDeleted',
  'SubscriptionEnded',
  'CreditsForfeited',
  'CreditAccountClosed',
  'PersonalDataErased',
] as const;

/**
 * The event types the admin activity list shows (`action`): on an admin's own user stream, unlock
 * attempts and what the audit trail records (`ADMIN_RECORD_TYPES`); admin commands; a deletion's
 * events.
 */
export const ADMIN_ACTIVITY_TYPES = [
  ...ADMIN_OWN_STREAM_TYPES,
  ...ADMIN_COMMAND_TYPES,
  ...ADMIN_DELETION_TYPES,
] as const;
export type AdminActivityType = (typeof ADMIN_ACTIVITY_TYPES)[number];

/** `GET /api/admin/activity?before=&type=&limit=`: what admins did, newest first. */
export const adminActivityQuerySchema = z.object({
  /** A position: the page holds older entries than it. */
  before: z
    .string()
    .regex(/^\d{1,19}$/, 'must be a log position')
    .optional(),
  /** Only these actions, comma separated (`AdminDataExported,AdminVerifyRun`): types the list shows. */
  type: z
    .string()
    .transform((value) => value.split(',').filter(Boolean))
    .pipe(
      z.array(
        z.enum(ADMIN_ACTIVITY_TYPES, {
          error: (issue) =>
            `must be admin activity types (${ADMIN_ACTIVITY_TYPES.join(', ')}), not ${JSON.stringify(issue.input)}`,
        }),
      ),
    )
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
  /** Which process applies them: this API process, or the projector process that leads. */
  projector: projectorRunSchema,
  /** The reactors (e-mail), each with its lag and the messages that fail or are parked. */
  reactors: z.array(reactorStatusSchema),
  lastVerify: verifyResultSchema.nullable(),
  rebuild: rebuildStatusSchema,
});
export type ProjectionsOverview = z.infer<typeof projectionsOverviewSchema>;
