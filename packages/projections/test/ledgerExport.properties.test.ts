import { type CreditEvent, ledgerExportRowSchema } from '@astra/contracts';
import { auditEntryOf, bookMoney, initialAccountMoney } from '@astra/ledger';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvOf, csvRecordOf, jsonLineOf, LEDGER_EXPORT_COLUMNS } from '../src/index.ts';
import { parseCsv } from './csv.ts';

/**
 * The export's cause is typed columns, never text to parse: whatever an admin (or anyone who
 * writes a reason) types, it lands in `reason` alone, and the Stripe ids columns hold the event's
 * own ids, in CSV and JSON lines alike.
 */

/** A cell as csv-stringify defused it (a leading `'` before what a spreadsheet would run). */
const formula = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const defused = (text: string) => (formula.test(text) ? `'${text}` : text);

/** Text that looks like the old `key=value; …` cause, or anything else. */
const forgery = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc
    .array(
      fc.tuple(
        fc.constantFrom(
          'paymentIntentId',
          'chargeId',
          'checkoutSessionId',
          'invoiceId',
          'reason',
          'grantId',
        ),
        fc.string(),
      ),
      { maxLength: 4 },
    )
    .chain((pairs) =>
      fc
        .constantFrom('', 'Goodwill', '=SUM(A1)', '"quoted", with a comma')
        .map((head) => [head, ...pairs.map(([k, v]) => `${k}=${v}`)].join('; ')),
    ),
);
const id = (prefix: string) =>
  fc.stringMatching(/^[A-Za-z0-9_]{1,24}$/).map((rest) => `${prefix}_${rest}`);
/** The id columns an event must fill, by name (the others are empty). */
const columns = (ids: Record<string, string>) => ids;
const nonEmpty = (reason: string) => (reason.trim() ? reason : `x${reason}`);

/** An event whose cause holds free text and Stripe ids, with the ids it must export. */
const caused = fc.oneof(
  fc
    .record({ reason: forgery, amount: fc.integer({ min: -50, max: 50 }) })
    .map(({ reason, amount }) => ({
      event: {
        type: 'CreditsAdjusted',
        data: { amount: amount || 1, reason: nonEmpty(reason), adminId: 'admin' },
      } as CreditEvent,
      ids: columns({}),
      reason: nonEmpty(reason),
    })),
  fc.record({ reason: forgery, pi: id('pi'), cs: id('cs') }).map(({ reason, pi, cs }) => ({
    event: {
      type: 'CreditsGranted',
      data: {
        grantId: `checkout:${cs}`,
        kind: 'purchase',
        amount: 10,
        reason,
        tierId: 2,
        reference: { checkoutSessionId: cs, paymentIntentId: pi },
        payment: { amountMinor: 999, currency: 'usd' },
      },
    } as CreditEvent,
    ids: columns({ checkout_session_id: cs, payment_intent_id: pi, grant_id: `checkout:${cs}` }),
    reason: null,
  })),
  fc
    .record({ pi: id('pi'), ch: id('ch'), inv: fc.option(id('in'), { nil: undefined }) })
    .map(({ pi, ch, inv }) => ({
      event: {
        type: 'PaymentRefunded',
        data: {
          paymentIntentId: pi,
          chargeId: ch,
          amountMinor: 100,
          refundedMinor: 100,
          currency: 'usd',
          ...(inv ? { invoiceId: inv } : {}),
        },
      } as CreditEvent,
      ids: columns({
        payment_intent_id: pi,
        charge_id: ch,
        ...(inv ? { invoice_id: inv } : {}),
      }),
      reason: null,
    })),
  fc.record({ reason: forgery }).map(({ reason }) => ({
    event: {
      type: 'SpendRefunded',
      data: { spendId: 's1', amount: 1, reason },
    } as CreditEvent,
    ids: columns({ spend_id: 's1' }),
    reason,
  })),
);

const ID_COLUMNS = [
  'checkout_session_id',
  'payment_intent_id',
  'charge_id',
  'invoice_id',
  'subscription_id',
  'customer_id',
  'stripe_event_id',
  'grant_id',
  'spend_id',
  'adjustment_id',
] as const;
const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

const entryOf = (event: CreditEvent) => {
  const account = initialAccountMoney();
  account.balance = 100;
  account.lots = [{ id: 'promotional', source: 'promotional', remaining: 100 }];
  const effect = bookMoney(account, event);
  return auditEntryOf(
    { position: 42n, occurredAt: '2026-01-31T23:59:59.999Z', actor: null, correlationId: 'c' },
    'u1',
    event,
    effect,
    { credits: 0, balanceAfter: account.balance },
    () => 'u1@example.com',
  );
};

describe('the ledger export’s cause columns over random reasons and ids', () => {
  it('puts a reason in `reason` alone and each Stripe id in its own column, in CSV', () => {
    fc.assert(
      fc.property(caused, ({ event, ids, reason }) => {
        const text = csvOf([[...LEDGER_EXPORT_COLUMNS], csvRecordOf(entryOf(event))]);
        const [header, record, ...rest] = parseCsv(text);
        expect(rest).toEqual([]);
        expect(header).toEqual([...LEDGER_EXPORT_COLUMNS]);
        expect(record).toHaveLength(header!.length);
        const cell = (column: string) => {
          const at = header!.indexOf(column);
          expect(at, column).toBeGreaterThanOrEqual(0);
          return record![at];
        };
        // The reason comes back whole (defused when a spreadsheet would run it), nowhere else.
        expect(cell('reason')).toBe(reason === null ? '' : defused(reason));
        for (const column of ID_COLUMNS) expect(cell(column), column).toBe(ids[column] ?? '');
        expect(cell('other_ids')).toBe('');
      }),
      { numRuns: 400 },
    );
  });

  it('gives the same typed fields in JSON lines, the reason untouched', () => {
    fc.assert(
      fc.property(caused, ({ event, ids, reason }) => {
        const line = jsonLineOf(entryOf(event));
        expect(line.endsWith('\n')).toBe(true);
        expect(line.slice(0, -1)).not.toContain('\n');
        const parsed = JSON.parse(line);
        // Every field of the schema, in the CSV's column order, and nothing else.
        expect(Object.keys(parsed)).toEqual(Object.keys(ledgerExportRowSchema.shape));
        const row = ledgerExportRowSchema.parse(parsed);
        expect(row.reason).toBe(reason);
        for (const column of ID_COLUMNS)
          expect(row[camel(column) as keyof typeof row], column).toBe(ids[column] ?? null);
        expect(row.otherIds).toBeNull();
      }),
      { numRuns: 400 },
    );
  });

  it('names the columns after the JSON fields, money and lot values spelled out', () => {
    expect([...LEDGER_EXPORT_COLUMNS]).toEqual(
      Object.keys(ledgerExportRowSchema.shape).flatMap((key) =>
        key === 'money'
          ? ['money_minor', 'currency']
          : key === 'lotValue'
            ? ['lot_values']
            : [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)],
      ),
    );
  });

  it('keeps ids without a column of their own in `other_ids`, as JSON', () => {
    const event: CreditEvent = {
      type: 'CreditsGranted',
      data: {
        grantId: 'g1',
        kind: 'promotional',
        amount: 5,
        reason: 'Partner promotion',
        tierId: null,
        reference: { partnerId: 'p_1', 'odd,key': 'a "b"' },
      },
    };
    const [header, record] = parseCsv(
      csvOf([[...LEDGER_EXPORT_COLUMNS], csvRecordOf(entryOf(event))]),
    );
    expect(JSON.parse(record![header!.indexOf('other_ids')]!)).toEqual({
      partnerId: 'p_1',
      'odd,key': 'a "b"',
    });
    expect(ledgerExportRowSchema.parse(JSON.parse(jsonLineOf(entryOf(event)))).otherIds).toEqual({
      partnerId: 'p_1',
      'odd,key': 'a "b"',
    });
  });
});
