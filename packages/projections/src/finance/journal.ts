import type {
  AuditEntry,
  MoneyAmount,
  RevenueLine,
  StripeBalanceEvent,
  TaxAmount,
} from '@astra/contracts';
import type { MoneyEffect } from '@astra/ledger';
import type { FinanceCalendar } from './calendar.ts';
import type { ExportRange } from './ledgerExport.ts';

/**
 * The ledger as a double-entry journal (hledger / ledger-cli text): one balanced transaction per
 * credit event that moves money, and per payout and dispute (`stripe-balance`), its postings read
 * off the money fold's effect (`MoneyEffect`), so the rules live in one place and the journal
 * cannot disagree with the report. In each currency an event's cash − fees − paid out − disputes
 * = recognized + admin deductions + deferred change + tax payable change − fees − paid out −
 * disputes, so every transaction balances by construction (and is checked here before it is
 * written).
 *
 * The chart of accounts (docs/finance.md):
 * - `assets:stripe:clearing`: Stripe's balance: payments +, refunds −, fees −, payouts −,
 *   disputes − (withdrawn) and + (returned);
 * - `assets:bank`: what payouts brought to the bank (a failed one takes it back);
 * - `expenses:stripe fees`: Stripe's fees of the balance transactions booked (dispute fees too);
 * - `expenses:disputes`: money disputes withdrew, less what won ones returned;
 * - `liabilities:deferred revenue`: the value of paid credits customers hold (net of tax);
 * - `liabilities:tax payable:{country}:{rate}`: tax collected with payments, less refunds';
 * - `revenue:readings:{kind}`, `revenue:voice`: paid credits used;
 * - `revenue:breakage:rollover`, `revenue:breakage:deletion`: paid credits forfeited;
 * - `revenue:refunds`: the value of refunded credits taken back, less the money refunded;
 * - `revenue:disputes`: the value of credits a lost dispute took back;
 * - `revenue:admin deductions`: paid credits admins took away (not revenue from use);
 * - `equity:opening balances`: what the periods before the range left (with `from` only).
 */

export const JOURNAL_ACCOUNTS = {
  clearing: 'assets:stripe:clearing',
  bank: 'assets:bank',
  fees: 'expenses:stripe fees',
  disputes: 'expenses:disputes',
  deferred: 'liabilities:deferred revenue',
  adminDeductions: 'revenue:admin deductions',
  opening: 'equity:opening balances',
} as const;

/** The account a revenue line is booked to: `reading:natal-chart` → `revenue:readings:natal-chart`. */
export const revenueAccount = (line: RevenueLine) =>
  line.startsWith('reading:') ? `revenue:readings:${line.slice(8)}` : `revenue:${line}`;

/** Where tax is owed: `liabilities:tax payable:DE:19%` (`unknown` where Stripe named none). */
export const taxAccount = ({ country, ratePercent }: TaxAmount) =>
  `liabilities:tax payable:${country ?? 'unknown'}:${ratePercent === null ? 'unknown' : `${ratePercent}%`}`;

/** The journal's account types (hledger's `type:` tag), by the account's first part. */
const ACCOUNT_TYPES: Record<string, 'A' | 'L' | 'E' | 'R' | 'X'> = {
  assets: 'A',
  liabilities: 'L',
  equity: 'E',
  revenue: 'R',
  expenses: 'X',
};
const accountType = (account: string) => ACCOUNT_TYPES[account.split(':')[0]!] ?? 'R';

/** Balance-sheet accounts carry their balance into a range; revenue and expenses start at 0. */
const carriesOver = (account: string) => !['R', 'X'].includes(accountType(account));

const fractionDigits = new Map<string, number>();
/** The digits of a currency's minor unit (2 for EUR, 0 for JPY), as Intl knows them. */
const digitsOf = (currency: string) => {
  let digits = fractionDigits.get(currency);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits!;
    } catch {
      digits = 2;
    }
    fractionDigits.set(currency, digits);
  }
  return digits;
};

/** Minor units as the journal writes them: `-1234`, `eur` → `-12.34 EUR`. */
export const journalAmount = (minor: number, currency: string) => {
  const digits = digitsOf(currency);
  const units = String(Math.abs(minor)).padStart(digits + 1, '0');
  const whole = digits ? `${units.slice(0, -digits)}.${units.slice(-digits)}` : units;
  return `${minor < 0 ? '-' : ''}${whole} ${currency.toUpperCase()}`;
};

/** One line of text: no line breaks, no `;` (which would start a comment). */
const oneLine = (text: string) => text.replace(/[\r\n;]+/g, ' ').trim();

/** The ids of an entry's cause, as hledger tags (`paymentIntentId:pi_1`). */
const tagsOf = (entry: AuditEntry) => {
  const tags = [`type:${entry.type}`, `user:${entry.userId}`];
  const { reason: _words, otherIds, ...ids } = entry.causeFields;
  for (const [name, value] of Object.entries(ids))
    if (value !== null) tags.push(`${name}:${oneLine(String(value)).replaceAll(',', ' ')}`);
  for (const [name, value] of Object.entries(otherIds ?? {}))
    tags.push(`${name}:${oneLine(value).replaceAll(',', ' ')}`);
  return tags.join(', ');
};

type Posting = [account: string, amount: MoneyAmount];

/** An event's postings, by account and currency, zeros left out (hledger's sign: debits +). */
export function postingsOf(effect: MoneyEffect): Posting[] {
  const sums = new Map<string, Posting>();
  const post = (account: string, { currency, minor }: MoneyAmount, sign: 1 | -1) => {
    const key = `${account}\u0000${currency}`;
    const posting = sums.get(key);
    if (posting) posting[1].minor += sign * minor;
    else sums.set(key, [account, { currency, minor: sign * minor }]);
  };
  if (effect.cash) post(JOURNAL_ACCOUNTS.clearing, effect.cash, 1);
  for (const amount of effect.deferred) post(JOURNAL_ACCOUNTS.deferred, amount, -1);
  for (const { line, ...amount } of effect.revenue) post(revenueAccount(line), amount, -1);
  for (const amount of effect.adminDeducted) post(JOURNAL_ACCOUNTS.adminDeductions, amount, -1);
  for (const tax of effect.taxPayable) post(taxAccount(tax), tax, -1);
  for (const fee of effect.fees) {
    post(JOURNAL_ACCOUNTS.fees, fee, 1);
    post(JOURNAL_ACCOUNTS.clearing, fee, -1);
  }
  for (const paid of effect.paidOut) {
    post(JOURNAL_ACCOUNTS.bank, paid, 1);
    post(JOURNAL_ACCOUNTS.clearing, paid, -1);
  }
  for (const disputed of effect.disputes) {
    post(JOURNAL_ACCOUNTS.disputes, disputed, 1);
    post(JOURNAL_ACCOUNTS.clearing, disputed, -1);
  }
  return [...sums.values()].filter(([, amount]) => amount.minor !== 0);
}

const postingLine = ([account, { currency, minor }]: Posting) =>
  `    ${account.padEnd(44)}  ${journalAmount(minor, currency).padStart(16)}\n`;

/**
 * Writes a range's journal: `header()`, then `transaction(…)` for every replayed credit event in
 * the range (`carry(…)` for each event before it: they make the opening balances), then
 * `trailer()`. Dates are the day an event happened in the finance calendar's time zone.
 */
export class JournalWriter {
  /** Balance-sheet totals before the range (account → currency → minor). */
  private readonly before = new Map<string, Map<string, number>>();
  private readonly accounts = new Set<string>();
  private readonly currencies = new Set<string>();

  constructor(
    private readonly range: ExportRange,
    private readonly calendar: FinanceCalendar,
  ) {}

  header(): string {
    const { from, to } = this.range;
    return [
      '; Astra ledger journal: a balanced transaction for every credit event that moves money,',
      '; made by replaying the event log (docs/finance.md has the chart of accounts).',
      `; Events from ${from ?? 'the beginning'} (included) to ${to ?? 'the end'} (excluded); dates are days in ${this.calendar.timeZone}.`,
      "; Amounts are in each currency's major unit; Stripe's fees are booked with its payouts.",
      '',
      '',
    ].join('\n');
  }

  /** A replayed event before the range: it only moves the opening balances. */
  carry(effect: MoneyEffect) {
    for (const [account, { currency, minor }] of postingsOf(effect)) {
      if (!carriesOver(account)) continue;
      let totals = this.before.get(account);
      if (!totals) {
        totals = new Map();
        this.before.set(account, totals);
      }
      totals.set(currency, (totals.get(currency) ?? 0) + minor);
    }
  }

  /** An event in the range as a transaction ('' when it moves no money). */
  transaction(entry: AuditEntry, effect: MoneyEffect): string {
    return this.write(entry.occurredAt, entry.position, entry.description, tagsOf(entry), effect);
  }

  /**
   * An event of Stripe's balance in the range (`stripe-balance`) as a transaction: a payout's fees
   * and what reached the bank, a dispute's money withdrawn or returned and its fee.
   */
  balance(
    { position, occurredAt }: { position: bigint; occurredAt: string },
    event: StripeBalanceEvent,
    effect: MoneyEffect,
  ): string {
    const { eventId } = event.data;
    if (event.type === 'DisputeRecorded') {
      const { id, chargeId, status } = event.data.dispute;
      const tags = `type:DisputeRecorded, disputeId:${id}, chargeId:${chargeId}, stripeEventId:${eventId}`;
      return this.write(occurredAt, position, `Stripe dispute ${status}`, tags, effect);
    }
    const { id, status } = event.data.payout;
    const tags = `type:PayoutRecorded, payoutId:${id}, stripeEventId:${eventId}`;
    return this.write(occurredAt, position, `Stripe payout ${status}`, tags, effect);
  }

  private write(
    occurredAt: string,
    position: string | bigint,
    description: string,
    tags: string,
    effect: MoneyEffect,
  ): string {
    const postings = postingsOf(effect);
    if (postings.length === 0) return '';
    this.check(postings, position);
    let text = `${this.calendar.dayOf(occurredAt)} (${position}) ${oneLine(description)}\n    ; ${tags}\n`;
    for (const posting of postings) {
      this.accounts.add(posting[0]);
      this.currencies.add(posting[1].currency);
      text += postingLine(posting);
    }
    return `${text}\n`;
  }

  /** In each currency, the postings add up to 0: else the fold is wrong, and nothing is written. */
  private check(postings: Posting[], position: string | bigint) {
    const sums = new Map<string, number>();
    for (const [, { currency, minor }] of postings)
      sums.set(currency, (sums.get(currency) ?? 0) + minor);
    for (const [currency, sum] of sums)
      if (sum !== 0)
        throw new Error(`The event at ${position} does not balance in ${currency} (off by ${sum})`);
  }

  /**
   * The opening balances (dated the range's first day) and the declarations of every account and
   * commodity used, so `hledger check --strict` accepts the file. Written last: the journal is
   * written as the log is read, and the opening is known once all of it was.
   */
  trailer(): string {
    let text = '';
    const opening: Posting[] = [];
    const equity = new Map<string, number>();
    for (const [account, totals] of this.before)
      for (const [currency, minor] of totals) {
        if (minor === 0) continue;
        opening.push([account, { currency, minor }]);
        equity.set(currency, (equity.get(currency) ?? 0) - minor);
      }
    for (const [currency, minor] of equity)
      if (minor !== 0) opening.push([JOURNAL_ACCOUNTS.opening, { currency, minor }]);
    if (this.range.from !== null && opening.length) {
      text += `${this.calendar.dayOf(this.range.from)} Opening balances\n    ; what the events before ${this.range.from} left\n`;
      for (const posting of opening) {
        this.accounts.add(posting[0]);
        this.currencies.add(posting[1].currency);
        text += postingLine(posting);
      }
      text += '\n';
    }
    text += '; The accounts and commodities used above.\n';
    for (const account of [...this.accounts].sort())
      text += `account ${account}  ; type: ${accountType(account)}\n`;
    for (const currency of [...this.currencies].sort())
      text += `commodity ${journalAmount(10 ** digitsOf(currency) * 1000, currency)}\n`;
    return text;
  }
}
