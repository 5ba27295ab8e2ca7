import { type MonthClosed, streamDecoders } from '@astra/contracts';
import type { EventStore } from '@astra/event-store';
import { streamId } from '@astra/ledger';
import { type FinanceCalendar, financeCalendar } from './calendar.ts';
import { closedMonthsOf, openMonthAt } from './closedMonths.ts';
import { CREDIT_STREAMS, CreditBooks, occurredAtOf, READ_BATCH } from './creditLog.ts';

/** One month's money in one currency (minor units), as the month report counts it. */
export interface MonthMoneyLine {
  currency: string;
  /** Revenue recognized in the month (the report's `recognized`). */
  recognized: number;
  /** Payments in the month (`cashIn`), and refunds paid out (`refunds`, positive). */
  cashIn: number;
  refunds: number;
}

/**
 * The money of every month so far, kept up to date by folding the log's new credit events into
 * the same books the month report replays (`CreditBooks`, the ledger's money fold), so a month's
 * figures here are the report's for that month (`monthlyReport`) to the minor unit, without
 * replaying the whole log for each question.
 *
 * An event belongs to a month as the report places it: each account's events are taken in their
 * stream's order, and an event's month is the latest month of `occurredAt` (in the finance
 * calendar's time zone) its account has reached so far (a clock that put a later event a moment
 * earlier does not move it back a month), and one recorded after a close whose month is closed is
 * in the first month open then (a dated adjustment).
 *
 * The first `catchUp` replays the whole log (as a report does); every later one reads only the
 * events appended since, unless a new close reaches back before what was read (a close made
 * while its month's late events were being read): then it replays the log again, once a month at
 * most. Calls that overlap share one read.
 */
export class MonthMoney {
  private books: CreditBooks | null = null;
  private position = 0n;
  /** Each account's month so far (`YYYY-MM`). */
  private readonly reached = new Map<string, string>();
  /** Month → currency → figures. */
  private readonly months = new Map<string, Map<string, MonthMoneyLine>>();
  /** Every currency the log has money in (the report names each, even at 0). */
  private readonly currencies = new Set<string>();
  private running: Promise<void> | null = null;
  private closed: MonthClosed[] = [];

  /** The finance calendar: the months are its months. */
  readonly calendar: FinanceCalendar;

  constructor(
    private readonly store: EventStore,
    timeZone = 'UTC',
  ) {
    this.calendar = financeCalendar(timeZone);
  }

  /** The log position the figures are through (0: nothing read yet). */
  get through(): bigint {
    return this.position;
  }

  /** Folds in what was appended since the last call (the whole log the first time). */
  catchUp(): Promise<void> {
    this.running ??= this.read().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private line(month: string, currency: string): MonthMoneyLine {
    let lines = this.months.get(month);
    if (!lines) {
      lines = new Map();
      this.months.set(month, lines);
    }
    let line = lines.get(currency);
    if (!line) {
      line = { currency, recognized: 0, cashIn: 0, refunds: 0 };
      lines.set(currency, line);
    }
    this.currencies.add(currency);
    return line;
  }

  private async read() {
    const closed = await closedMonthsOf(this.store);
    if (closed.slice(this.closed.length).some((close) => BigInt(close.through) < this.position)) {
      this.books = null;
      this.position = 0n;
      this.reached.clear();
      this.months.clear();
      this.currencies.clear();
    }
    this.closed = closed;
    const openAt = openMonthAt(closed);
    this.books ??= await CreditBooks.forLog(this.store);
    const books = this.books;
    for await (const recorded of this.store.readAll({
      from: this.position,
      batch: READ_BATCH,
      filter: CREDIT_STREAMS,
    })) {
      const userId = streamId(recorded.stream, 'credits');
      if (userId === null) {
        this.position = recorded.position;
        continue;
      }
      const own = this.calendar.monthOf(occurredAtOf(recorded));
      const open = openAt(recorded.position);
      const at = open !== null && open > own ? open : own;
      const was = this.reached.get(userId);
      const month = was !== undefined && was > at ? was : at;
      const event = streamDecoders.credits(recorded);
      if (books.missesSpend(event)) await books.restoreSpend(event);
      const { cash, recognized } = books.book(userId, event);
      // Only a booked event moves the figures on: one that failed is read again next time.
      this.position = recorded.position;
      if (month !== was) this.reached.set(userId, month);
      if (cash) {
        const line = this.line(month, cash.currency);
        if (cash.minor > 0) line.cashIn += cash.minor;
        else line.refunds -= cash.minor;
      }
      for (const { currency, minor } of recognized) this.line(month, currency).recognized += minor;
    }
  }

  /**
   * A month's money (`YYYY-MM`), by currency in alphabetical order: every currency the log has
   * money in by now, at 0 where the month had none.
   */
  month(month: string): MonthMoneyLine[] {
    const lines = this.months.get(month);
    return [...this.currencies]
      .sort()
      .map((currency) => lines?.get(currency) ?? { currency, recognized: 0, cashIn: 0, refunds: 0 })
      .map((line) => ({ ...line }));
  }
}
