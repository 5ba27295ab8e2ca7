import { timeZoneSchema } from '@astra/contracts';

/**
 * The finance calendar's time zone of a command line: `--time-zone`, else `FINANCE_TIME_ZONE`,
 * else UTC, as the API's. A zone the runtime does not know is an invalid argument.
 */
export function financeTimeZoneOf(argument: string | undefined): string {
  const timeZone = timeZoneSchema.safeParse(argument ?? (process.env.FINANCE_TIME_ZONE || 'UTC'));
  if (!timeZone.success)
    throw new Error(
      `Invalid arguments: ${argument === undefined ? 'FINANCE_TIME_ZONE' : '--time-zone'} must be an IANA time zone, such as UTC or Europe/Berlin`,
    );
  return timeZone.data;
}
