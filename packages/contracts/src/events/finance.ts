import { z } from 'zod';

/**
 * `finance-months`: the months finance has closed, one stream for the whole ledger, so the
 * closing rules (a month that has ended, once, in order) are decided on the write side.
 */
export const financeMonthEventSchemas = {
  /**
   * An admin closed a month of the finance calendar (`month`, `YYYY-MM` of `timeZone`) at
   * `closedAt`: its report is the one made through the log position `through`, whose CSV (without
   * its `closed_*` rows) has the SHA-256 `sha256` (hex). `closeId`: the request's command id (from
   * its Idempotency-Key), so a retry of the same close changes nothing.
   */
  MonthClosed: z.object({
    month: z.string(),
    timeZone: z.string(),
    through: z.string(),
    sha256: z.string(),
    adminId: z.string(),
    closedAt: z.string(),
    closeId: z.string(),
    /**
     * The report as it was closed: its JSON (without `closed`) and its CSV (without the `closed_*`
     * rows: the bytes of `sha256`). A closed month's report is these, whatever the code that
     * makes reports becomes. Absent on closes recorded before they were kept: their report is
     * made again through `through`.
     */
    reportJson: z.string().optional(),
    reportCsv: z.string().optional(),
  }),
} as const;
export type FinanceMonthEvent = {
  type: 'MonthClosed';
  data: z.infer<(typeof financeMonthEventSchemas)['MonthClosed']>;
};
export type MonthClosed = FinanceMonthEvent['data'];
