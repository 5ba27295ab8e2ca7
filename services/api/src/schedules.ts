import type { AppDeps } from './dependencies.ts';
import { purgeApiProcesses } from './http/apiProcess.ts';
import { purgeIdempotencyKeys } from './http/idempotency.ts';
import { finishErasures } from './modules/accounts/deletion.ts';
import { grantDueMonths } from './modules/payments/renewals.ts';
import { recoverInterruptedReadings } from './modules/readings/recovery.ts';
import { recoverVoiceSessions, voiceStartCutOffMs } from './modules/voice/recovery.ts';
import { purgeSentOutbox } from './reactors/outbox.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Work an API process does on its own clock, in every process (each job is idempotent). */
interface Schedule {
  /** What it does, as the log says it failed: "<name> failed". */
  name: string;
  /** The first run this long after start; none: after `everyMs`. */
  firstAfterMs?: number;
  everyMs: number;
  run(): Promise<unknown>;
}

const schedulesOf = (deps: AppDeps): Schedule[] => {
  const { ledger, read, appDb, clock, logger, config } = deps;
  return [
    {
      // Quietly: what fails is tried again in an hour.
      name: 'Purging expired sessions, keys, processes, sent mail and drafts',
      everyMs: HOUR,
      run: () =>
        Promise.allSettled([
          deps.sessions.purgeExpired(),
          purgeIdempotencyKeys(appDb),
          purgeApiProcesses(appDb),
          purgeSentOutbox(appDb),
          deps.drafts.purgeStale(),
        ]),
    },
    // Without Stripe there are no invoices: the app grants due months itself.
    ...(deps.payments.localCheckout
      ? [
          {
            name: 'Granting due months',
            firstAfterMs: 10_000,
            everyMs: HOUR,
            run: () => grantDueMonths(ledger, read, clock(), logger),
          },
        ]
      : []),
    {
      name: 'Recovering interrupted readings',
      firstAfterMs: 5_000,
      everyMs: 5 * MINUTE,
      run: () => recoverInterruptedReadings(ledger, read, logger),
    },
    {
      // Erasures a crash cut short (a user deleted, not yet erased).
      name: 'Finishing unfinished erasures',
      firstAfterMs: 5_000,
      everyMs: HOUR,
      run: () => finishErasures(deps, logger),
    },
    {
      // Sessions end by the clock (also lazily when read); a cut-off start is failed and refunded.
      name: 'Sweeping voice sessions',
      everyMs: 30_000,
      run: () => recoverVoiceSessions(ledger, read, clock(), logger, voiceStartCutOffMs(config)),
    },
  ];
};

/**
 * Starts the API process's timers (docs/architecture.md: renewals, recovery, the voice sweep…);
 * answers the function that stops them. The timers never keep the process alive.
 */
export function startSchedules(deps: AppDeps): () => void {
  const timers = schedulesOf(deps).flatMap((schedule) => {
    const run = () =>
      void schedule
        .run()
        .catch((error) => deps.logger.error({ err: error }, `${schedule.name} failed`));
    const timers = [setInterval(run, schedule.everyMs)];
    if (schedule.firstAfterMs !== undefined) timers.push(setTimeout(run, schedule.firstAfterMs));
    for (const timer of timers) timer.unref();
    return timers;
  });
  return () => {
    for (const timer of timers) clearInterval(timer);
  };
}
