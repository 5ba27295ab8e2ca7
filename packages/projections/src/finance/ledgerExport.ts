import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  type AuditEntry,
  type ExportFormat,
  type LedgerExportRow,
  type MoneyAmount,
  streamDecoders,
} from '@astra/contracts';
import type { EventStore } from '@astra/event-store';
import { bookBalance, streams } from '@astra/ledger';
import { stringify } from 'csv-stringify/sync';
import { financeCalendar } from './calendar.ts';
import {
  BOOKS_STREAMS,
  booksEventOf,
  CreditBooks,
  JOURNAL_STREAMS,
  occurredAtOf,
  READ_BATCH,
} from './creditLog.ts';
import { JournalWriter } from './journal.ts';

/**
 * The ledger export: one row per credit event of the log, in global position order, whose
 * `occurredAt` is in [from, to). The whole log is replayed from its first event (every earlier
 * event is folded, so the balance after and the lot values are right), and the body is produced
 * in chunks as the log is read: nothing holds the body, only each account's books.
 *
 * The bytes depend on nothing but the log and the range: no read model, no wall clock, no
 * iteration over something unordered. The same range gives the same bytes every time, through
 * HTTP or the command line.
 */

/**
 * The columns, in the order of `ledgerExportRowSchema`'s fields (money and lot values spelled
 * out): the audit entry's, with its cause as one typed column each (docs/finance.md).
 */
export const LEDGER_EXPORT_COLUMNS = [
  'position',
  'occurred_at',
  'user_id',
  'email',
  'type',
  'credits',
  'balance_after',
  'money_minor',
  'currency',
  'lot_values',
  'admin_deducted',
  'actor',
  'checkout_session_id',
  'payment_intent_id',
  'charge_id',
  'invoice_id',
  'subscription_id',
  'customer_id',
  'stripe_event_id',
  'reading_id',
  'purpose',
  'app_id',
  'grant_id',
  'spend_id',
  'adjustment_id',
  'period',
  'trigger',
  'reason',
  'other_ids',
  'correlation_id',
  'description',
] as const;

/** A range of the export: instants in canonical UTC ISO form (`…T00:00:00.000Z`), null = open. */
export interface ExportRange {
  from: string | null;
  to: string | null;
}

export interface LedgerExportOptions extends ExportRange {
  format: ExportFormat;
  /** The finance time zone (IANA): the journal's dates are days there (default UTC). */
  timeZone?: string;
  /** Events read from the log per query (default `READ_BATCH`). */
  batch?: number;
  /** Rows per chunk of the body (default 1,000). */
  rowsPerChunk?: number;
}

/** `2026-01-01T00:00:00+02:00` → `2025-12-31T22:00:00.000Z`; absent → null. */
export const canonicalInstant = (instant: string | null | undefined): string | null =>
  instant ? new Date(instant).toISOString() : null;

/** The range of a query (`from`/`to` as given, any offset), in canonical form. */
export const exportRangeOf = (query: {
  from?: string | null;
  to?: string | null;
}): ExportRange => ({
  from: canonicalInstant(query.from),
  to: canonicalInstant(query.to),
});

/** `2026-01-01T00:00:00.000Z` → `20260101T000000.000Z`: a file name's part, without colons. */
const filePart = (instant: string | null, open: string) =>
  instant ? instant.replaceAll('-', '').replaceAll(':', '') : open;

/** `ledger_20260101T000000.000Z_20260201T000000.000Z.csv`: the file an export is saved as. */
export const ledgerExportFilename = ({
  format,
  from,
  to,
}: ExportRange & { format: ExportFormat }) =>
  `ledger_${filePart(from, 'beginning')}_${filePart(to, 'end')}.${format}`;

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
  journal: 'text/plain; charset=utf-8',
};

export const ledgerExportContentType = (format: ExportFormat) => CONTENT_TYPES[format];

/** Lot values as `currency:minor` pairs joined by `;` (empty when the event moved none). */
export const lotValuesText = (amounts: readonly MoneyAmount[]) => {
  if (amounts.length === 0) return '';
  if (amounts.length === 1) return `${amounts[0]!.currency}:${amounts[0]!.minor}`;
  return amounts.map((a) => `${a.currency}:${a.minor}`).join(';');
};

/** Ids without a column of their own, as a JSON object (null when there are none). */
const otherIdsText = (ids: Record<string, string> | null) => (ids ? JSON.stringify(ids) : null);

/** An entry as a CSV record, in `LEDGER_EXPORT_COLUMNS` order (null is an empty cell). */
export const csvRecordOf = (entry: AuditEntry): (string | number | null)[] => {
  const c = entry.causeFields;
  return [
    entry.position,
    entry.occurredAt,
    entry.userId,
    entry.email,
    entry.type,
    entry.credits,
    entry.balanceAfter,
    entry.money ? entry.money.minor : null,
    entry.money ? entry.money.currency : null,
    lotValuesText(entry.lotValue),
    lotValuesText(entry.adminDeducted),
    entry.actor,
    c.checkoutSessionId,
    c.paymentIntentId,
    c.chargeId,
    c.invoiceId,
    c.subscriptionId,
    c.customerId,
    c.stripeEventId,
    c.readingId,
    c.purpose,
    c.appId,
    c.grantId,
    c.spendId,
    c.adjustmentId,
    c.period,
    c.trigger,
    c.reason,
    otherIdsText(c.otherIds),
    entry.correlationId,
    entry.description,
  ];
};

const money = (amount: MoneyAmount) => ({ currency: amount.currency, minor: amount.minor });

/**
 * An entry as one JSON line (a `LedgerExportRow`): its fields in the schema's order, whatever
 * order built it, the cause's fields in place of its display text.
 */
export const jsonLineOf = (entry: AuditEntry) => {
  const c = entry.causeFields;
  const row: LedgerExportRow = {
    position: entry.position,
    occurredAt: entry.occurredAt,
    userId: entry.userId,
    email: entry.email,
    type: entry.type,
    credits: entry.credits,
    balanceAfter: entry.balanceAfter,
    money: entry.money ? money(entry.money) : null,
    lotValue: entry.lotValue.map(money),
    adminDeducted: entry.adminDeducted.map(money),
    actor: entry.actor,
    checkoutSessionId: c.checkoutSessionId,
    paymentIntentId: c.paymentIntentId,
    chargeId: c.chargeId,
    invoiceId: c.invoiceId,
    subscriptionId: c.subscriptionId,
    customerId: c.customerId,
    stripeEventId: c.stripeEventId,
    readingId: c.readingId,
    purpose: c.purpose,
    appId: c.appId,
    grantId: c.grantId,
    spendId: c.spendId,
    adjustmentId: c.adjustmentId,
    period: c.period,
    trigger: c.trigger,
    reason: c.reason,
    otherIds: c.otherIds ? { ...c.otherIds } : null,
    correlationId: entry.correlationId,
    description: entry.description,
  };
  return `${JSON.stringify(row)}
`;
};

/**
 * csv-stringify's settings: `\n` after every record (the last one too), quotes only where a cell
 * needs them, and a text cell that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab
 * or a carriage return first) prefixed with `'` (numbers are left alone).
 */
const CSV_OPTIONS = { eof: true, record_delimiter: 'unix', escape_formulas: true } as const;

export const csvOf = (records: unknown[][]) => stringify(records, CSV_OPTIONS);

/**
 * `from ≤ occurredAt < to` for an event's `occurredAt`: as strings when it is in the canonical
 * form the ledger writes (`toISOString`, compared as text in that form), else as instants.
 */
export const rangeTest = ({ from, to }: ExportRange) => {
  const fromMs = from === null ? -Infinity : Date.parse(from);
  const toMs = to === null ? Infinity : Date.parse(to);
  return (occurredAt: string) => {
    if (occurredAt.length === 24 && occurredAt.charCodeAt(23) === 90 /* Z */) {
      return (from === null || occurredAt >= from) && (to === null || occurredAt < to);
    }
    const at = Date.parse(occurredAt);
    return at >= fromMs && at < toMs;
  };
};

/**
 * One export: iterate it (once) for the body's chunks (UTF-8 bytes); read to its end, `rows`,
 * `bytes` and `sha256()` describe the body. Each chunk is produced when the reader asks for it, so
 * a slow reader slows the replay down (backpressure) and nothing piles up.
 */
export class LedgerExport implements AsyncIterable<Buffer> {
  rows = 0;
  bytes = 0;
  /** Credit events replayed (in the range or before it). */
  events = 0;
  private readonly hash = createHash('sha256');
  private digest: string | null = null;
  readonly filename: string;
  readonly contentType: string;

  constructor(
    private readonly store: EventStore,
    readonly options: LedgerExportOptions,
  ) {
    this.filename = ledgerExportFilename(options);
    this.contentType = ledgerExportContentType(options.format);
  }

  /** The body's SHA-256 (hex); only once the body was read to its end. */
  sha256(): string {
    if (this.digest === null) throw new Error('The export has not been read to its end');
    return this.digest;
  }

  private chunk(text: string) {
    const bytes = Buffer.from(text, 'utf8');
    this.hash.update(bytes);
    this.bytes += bytes.length;
    return bytes;
  }

  private started = false;

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    if (this.started) throw new Error('An export is read once: make another for another read');
    this.started = true;
    const { format, batch = READ_BATCH, rowsPerChunk = 1_000 } = this.options;
    const csv = format === 'csv';
    const journal =
      format === 'journal'
        ? new JournalWriter(this.options, financeCalendar(this.options.timeZone))
        : null;
    if (csv) yield this.chunk(csvOf([[...LEDGER_EXPORT_COLUMNS]]));
    if (journal) yield this.chunk(journal.header());
    const books = await CreditBooks.forLog(this.store);
    const inRange = rangeTest(this.options);
    const beforeRange = rangeTest({ from: null, to: this.options.from });
    const records: unknown[][] = [];
    let lines = '';
    let pending = 0;
    // The journal books Stripe's payouts and disputes too; the rows of CSV and JSON lines are credit events.
    const filter = journal ? JOURNAL_STREAMS : BOOKS_STREAMS;
    for await (const recorded of this.store.readAll({ batch, filter })) {
      const at = occurredAtOf(recorded);
      if (journal && recorded.stream === streams.stripeBalance(null)) {
        const moved = streamDecoders.stripeBalance(recorded);
        const effect = bookBalance(moved);
        if (!inRange(at)) {
          if (this.options.from !== null && beforeRange(at)) journal.carry(effect);
          continue;
        }
        const transaction = journal.balance(
          { position: recorded.position, occurredAt: at },
          moved,
          effect,
        );
        if (!transaction) continue;
        lines += transaction;
      } else {
        const event = booksEventOf(recorded);
        if (!event) continue;
        if (books.missesSpend(event)) await books.restoreSpend(event);
        const replayed = books.apply(event);
        if (!replayed) continue;
        this.events++;
        if (!inRange(at)) {
          if (journal && this.options.from !== null && beforeRange(at))
            journal.carry(replayed.effect);
          continue;
        }
        const entry = books.entryOf(replayed);
        if (csv) records.push(csvRecordOf(entry));
        else if (journal) {
          const transaction = journal.transaction(entry, replayed.effect);
          if (!transaction) continue;
          lines += transaction;
        } else lines += jsonLineOf(entry);
      }
      this.rows++;
      if (++pending === rowsPerChunk) {
        yield this.chunk(csv ? csvOf(records.splice(0)) : lines);
        lines = '';
        pending = 0;
      }
    }
    if (pending > 0) yield this.chunk(csv ? csvOf(records.splice(0)) : lines);
    if (journal) yield this.chunk(journal.trailer());
    this.digest = this.hash.digest('hex');
  }

  /** The body as a byte stream (for `pipeline` into a response or a file). */
  readable(): Readable {
    return Readable.from(this, { objectMode: false });
  }
}

/** The export's SHA-256, rows and bytes, reading it to its end and keeping none of it. */
export async function ledgerExportChecksum(store: EventStore, options: LedgerExportOptions) {
  const exported = new LedgerExport(store, options);
  for await (const _chunk of exported);
  return { sha256: exported.sha256(), rows: exported.rows, bytes: exported.bytes };
}
