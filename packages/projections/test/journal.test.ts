import { execFileSync, spawnSync } from 'node:child_process';
import type { MonthlyReport } from '@astra/contracts';
import type { EventStore } from '@astra/event-store';
import { requireService } from '@astra/event-store/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { financeCalendar, journalAmount, LedgerExport, monthlyReport } from '../src/index.ts';
import { openTestStorage, randomHistory } from './support.ts';

/** The real hledger (Debian's package; `.ci/run` installs it). */
const hledger = requireService(
  'hledger',
  spawnSync('hledger', ['--version']).status === 0,
  'no `hledger` on the PATH: apt-get install -y hledger',
);

const journalOf = async (store: EventStore, month: string, timeZone: string) => {
  const { from, to } = financeCalendar(timeZone).monthRange(month);
  let text = '';
  for await (const chunk of new LedgerExport(store, { format: 'journal', from, to, timeZone }))
    text += chunk.toString('utf8');
  return text;
};

const run = (args: string[], journal: string) =>
  execFileSync('hledger', ['-f', '-', ...args], { input: journal, encoding: 'utf8' });

/** `hledger balance` of the whole file: account → currency → minor units (and the accounts). */
const balancesOf = (journal: string) => {
  const csv = run(['balance', '--flat', '--layout=bare', '--no-total', '-O', 'csv'], journal);
  const balances = new Map<string, Map<string, number>>();
  for (const line of csv.trim().split('\n').slice(1)) {
    const [account, commodity, amount] = line.split(',').map((cell) => cell.replaceAll('"', ''));
    const currency = commodity!.toLowerCase();
    // hledger prints the amount as the journal wrote it: back to minor units by its digits.
    const digits = journalAmount(1, currency).split(' ')[0]!.split('.')[1]?.length ?? 0;
    const minor = Math.round(Number(amount) * 10 ** digits);
    if (!balances.has(account!)) balances.set(account!, new Map());
    balances.get(account!)!.set(currency, minor);
  }
  const balance = (account: string, currency: string) => balances.get(account)?.get(currency) ?? 0;
  return Object.assign(balance, { accounts: [...balances.keys()] });
};

/** The journal's balances are the report's figures, in each currency (`0 - x`: never −0). */
const expectJournalMeetsReport = (journal: string, report: MonthlyReport) => {
  const balance = balancesOf(journal);
  for (const m of report.money) {
    const c = m.currency;
    const disputesToDate = m.disputesToDate ?? 0;
    const disputes = m.disputes ?? 0;
    // Stripe's balance: what came in, less its fees, what it paid out and what disputes took.
    expect(balance('assets:stripe:clearing', c), c).toBe(
      m.cashToDate - m.feesToDate - m.paidOutToDate - disputesToDate,
    );
    expect(balance('assets:bank', c), c).toBe(m.paidOutToDate);
    expect(balance('expenses:stripe fees', c), c).toBe(m.fees);
    expect(balance('expenses:disputes', c), c).toBe(disputes);
    expect(balance('liabilities:deferred revenue', c), c).toBe(0 - m.deferredClosing);
    expect(balance('revenue:admin deductions', c), c).toBe(0 - m.adminDeductions);
    for (const { line, minor } of m.revenue) {
      const account = line.startsWith('reading:')
        ? `revenue:readings:${line.slice(8)}`
        : `revenue:${line}`;
      expect(balance(account, c), `${c} ${line}`).toBe(0 - minor);
    }
    // Tax owed, by country and rate: all of it is the report's closing tax payable.
    const taxAccounts = balance.accounts.filter((a) => a.startsWith('liabilities:tax payable:'));
    expect(
      taxAccounts.reduce((sum, account) => sum + balance(account, c), 0),
      c,
    ).toBe(0 - m.taxPayableClosing);
    // What the months before left: revenue and deductions to date before this month, less fees
    // and disputes.
    expect(balance('equity:opening balances', c), c).toBe(
      0 -
        (m.recognizedToDate -
          m.recognized +
          m.adminDeductionsToDate -
          m.adminDeductions -
          (m.feesToDate - m.fees) -
          (disputesToDate - disputes)),
    );
  }
};

describe.runIf(hledger)('The ledger journal, read by hledger', () => {
  it('passes `hledger check --strict`, and its balances are the month report, in UTC and in Berlin, for random histories', async () => {
    const history = async (seed: number) => {
      const storage = await openTestStorage('pglite');
      try {
        // About 40 days from 2026-01-01: money before, in and after January.
        // With Stripe's payouts and their fees, and disputes won and lost.
        await randomHistory(storage.store, {
          commands: 600,
          users: 8,
          seed,
          payouts: true,
          disputes: true,
        });
        for (const timeZone of ['UTC', 'Europe/Berlin']) {
          for (const month of ['2026-01', '2026-02']) {
            const journal = await journalOf(storage.store, month, timeZone);
            expect(journal).toContain(`dates are days in ${timeZone}`);
            // Parses, every transaction balances, every account and commodity is declared.
            run(['check', '--strict'], journal);
            const report = await monthlyReport(storage.store, month, timeZone);
            expect(report.flags).toEqual([]);
            expect(report.money.length).toBeGreaterThan(0);
            expect(journal).toContain('liabilities:tax payable:DE:19%');
            // January's payouts: their fees, and the money they took to the bank.
            // And its disputes: the money withdrawn (returned when won), lost ones' credits.
            if (month === '2026-01') {
              expect(journal).toMatch(/expenses:stripe fees[^\n]*USD/);
              expect(journal).toMatch(/expenses:disputes[^\n]*USD/);
              expect(journal).toContain('Stripe dispute won');
              expect(journal).toContain('type:DisputeClosed');
            }
            expectJournalMeetsReport(journal, report);
            // The same range gives the same bytes.
            expect(await journalOf(storage.store, month, timeZone)).toBe(journal);
          }
        }
      } finally {
        await storage.dispose();
      }
    };
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 }), history), {
      numRuns: 4,
    });
  }, 180_000);
});

describe('journal amounts', () => {
  it("writes minor units in the currency's major unit, with its code", () => {
    expect(journalAmount(1234, 'eur')).toBe('12.34 EUR');
    expect(journalAmount(-5, 'usd')).toBe('-0.05 USD');
    expect(journalAmount(0, 'usd')).toBe('0.00 USD');
    expect(journalAmount(1500, 'jpy')).toBe('1500 JPY');
    expect(journalAmount(-1001, 'bhd')).toBe('-1.001 BHD');
  });
});
