import { openStorage } from '@astra/event-store';
import {
  allProjections,
  databaseFor,
  migrateReadModels,
  PolledProgress,
  READ_SCHEMA,
} from '@astra/projections';
import { Ledger, systemContext } from '../../services/api/src/ledger/ledger.ts';
import { benchSpend } from '../creditAccounts.ts';

/**
 * One API process of the cross-process benchmark: the API's write path (its `Ledger`: the credit
 * decider on the account's stream, an append at its revision) and its read-your-writes wait with
 * the projector in another process (`PolledProgress` on its own storage, built as
 * services/api/src/server.ts builds it for PROJECTOR=external). Spends at a steady rate from the
 * parent's `go`; for each one measured, the time from the append's answer to the wait's.
 */
const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const rate = Number(env('RATE'));
const warmupMs = Number(env('WARMUP_SECONDS')) * 1000;
const measureMs = Number(env('SECONDS')) * 1000;
const accounts = env('ACCOUNTS').split(',');
const timeoutMs = 5_000;

const storage = await openStorage({ databaseUrl: env('DATABASE_URL'), dataDir: null });
const db = databaseFor(storage.connection);
await migrateReadModels(db, READ_SCHEMA);
const progress = new PolledProgress(
  db,
  allProjections.map((p) => p.name),
  20,
  storage.connection.kind === 'postgres' ? storage.connection.notifications : undefined,
);
const ledger = new Ledger(storage.store);

const appendMs: number[] = [];
const visibleMs: number[] = [];
let timeouts = 0;
let failures = 0;

async function spend(account: string, measured: boolean) {
  const started = performance.now();
  const { position } = await ledger.handle('credits', account, benchSpend(), systemContext());
  const answered = performance.now();
  if (position === null) throw new Error('a spend appended nothing');
  const visible = await progress.waitFor(position, timeoutMs);
  const seen = performance.now();
  if (!measured) return;
  appendMs.push(answered - started);
  if (visible) visibleMs.push(seen - answered);
  else timeouts++;
}

process.send?.({ ready: true });
await new Promise<void>((resolve) => process.once('message', () => resolve()));

// Open loop: each spend starts on its schedule, whether or not the ones before have answered.
const interval = 1000 / rate;
const started = performance.now();
const inFlight = new Set<Promise<void>>();
let issued = 0;
let measuredSpends = 0;
for (;;) {
  const due = started + issued * interval;
  if (due >= started + warmupMs + measureMs) break;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const measured = due >= started + warmupMs;
  if (measured) measuredSpends++;
  const running: Promise<void> = spend(accounts[issued % accounts.length]!, measured)
    .catch(() => {
      failures++;
    })
    .finally(() => inFlight.delete(running));
  inFlight.add(running);
  issued++;
}
await Promise.all(inFlight);
progress.close();
await db.destroy();
await storage.close();
process.send?.({ appendMs, visibleMs, timeouts, failures, spends: measuredSpends });
process.disconnect?.();
