/** Calendar helpers in UTC; dates travel as `YYYY-MM-DD`. */
export const isoDay = (instant: Date) => instant.toISOString().slice(0, 10);

export const firstDayOfNextMonth = (instant: Date) =>
  isoDay(new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth() + 1, 1)));

/** `YYYY-MM` of a date or an ISO day. */
export const monthOf = (day: string) => day.slice(0, 7);

/** Whole days from `now` until the start of `day` (UTC), rounded up. */
export const daysUntil = (day: string, now: Date) =>
  Math.ceil((Date.parse(`${day}T00:00:00Z`) - now.getTime()) / 86_400_000);

export const addDays = (instant: Date, days: number) =>
  new Date(instant.getTime() + days * 86_400_000);

/** The month after a `YYYY-MM` month. */
export const nextMonth = (month: string) => {
  const next = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7));
  return `${String(Math.floor(next / 12)).padStart(4, '0')}-${String((next % 12) + 1).padStart(2, '0')}`;
};
