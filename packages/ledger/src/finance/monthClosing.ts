import type { FinanceMonthEvent, MonthClosed } from '@astra/contracts';
import { nextMonth } from '../dates.ts';
import { type Decider, DomainError } from '../decider.ts';

/** The closed months, oldest first: each the month after the one before (they close in order). */
export interface FinanceMonths {
  closed: MonthClosed[];
}

export type FinanceMonthCommand = {
  type: 'CloseMonth';
  month: string;
  timeZone: string;
  /** The month's end in the finance calendar: the first instant of the next month (ISO). */
  endsAt: string;
  /** The log position its report was made through, and the SHA-256 of its CSV. */
  through: string;
  sha256: string;
  /** The report as closed: its JSON and its CSV (see `MonthClosed`). */
  reportJson: string;
  reportCsv: string;
  adminId: string;
  closeId: string;
  /** The clock, ISO. */
  now: string;
};

/**
 * Closing a month: only one that has ended, only once, and in order, so the closed months are
 * every month up to the last one closed (a late event is booked in the month after it). The first
 * close may be any month that has ended: the months before it are closed with it, without a
 * report of their own on record.
 */
export const financeMonthsDecider: Decider<FinanceMonths, FinanceMonthCommand, FinanceMonthEvent> =
  {
    initialState: () => ({ closed: [] }),
    evolve: (state, event) => ({ closed: [...state.closed, event.data] }),
    decide: (command, { closed }) => {
      const { month } = command;
      const same = closed.find((each) => each.month === month);
      // The same request again (its Idempotency-Key): it is done already.
      if (same?.closeId === command.closeId) return [];
      if (Date.parse(command.now) < Date.parse(command.endsAt))
        throw new DomainError(
          'month_not_ended',
          `${month} has not ended in ${command.timeZone}: it ends at ${command.endsAt}`,
          { month, endsAt: command.endsAt },
        );
      const last = closed.at(-1);
      if (same)
        throw new DomainError(
          'month_closed',
          `${month} is closed already (by ${same.adminId} at ${same.closedAt})`,
          { month },
        );
      if (last && month < last.month)
        throw new DomainError(
          'month_closed',
          `${month} is closed already: the books are closed through ${last.month}`,
          { month, closedThrough: last.month },
        );
      if (last && month !== nextMonth(last.month))
        throw new DomainError(
          'month_not_next',
          `Months close in order: close ${nextMonth(last.month)} first`,
          { month, next: nextMonth(last.month) },
        );
      return [
        {
          type: 'MonthClosed',
          data: {
            month,
            timeZone: command.timeZone,
            through: command.through,
            sha256: command.sha256,
            adminId: command.adminId,
            closedAt: command.now,
            closeId: command.closeId,
            reportJson: command.reportJson,
            reportCsv: command.reportCsv,
          },
        },
      ];
    },
  };
