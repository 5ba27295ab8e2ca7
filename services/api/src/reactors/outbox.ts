import { randomUUID } from 'node:crypto';
import { type Selectable, sql } from 'kysely';
import { PROCESS_GONE_SECONDS } from '../http/apiProcess.ts';
import type { AppDb } from '../storage/appDatabase.ts';
import type { AppTables } from '../storage/schema.ts';

export type OutboxRow = Selectable<AppTables['outbox']>;

/** A side effect an event calls for, as a reactor asks for it. */
export interface Effect {
  /** Unique within the reactor (the event's id, say): the same key is recorded once. */
  key: string;
  kind: string;
  /** Whose it is: their erasure erases it (null: nobody's). */
  userId: string | null;
  /** Personal: who it goes to. */
  recipient: string | null;
  /** Personal: what the reactor needs to perform it (a rendered message). */
  payload: unknown;
  /** When the event it answers was recorded. */
  eventAt: Date | null;
  /** Erase its recipient and payload once it is performed (the owner is being erased). */
  eraseAfterSend?: boolean;
}

/** How long a claim holds before another sender may take the message over. */
const CLAIM_SECONDS = 120;

/** Records effects; an effect whose key is recorded already is left as it is. */
export async function recordEffects(db: AppDb, reactor: string, effects: readonly Effect[]) {
  if (effects.length === 0) return;
  await db
    .insertInto('outbox')
    .values(
      effects.map((effect) => ({
        id: randomUUID(),
        reactor,
        key: effect.key,
        kind: effect.kind,
        user_id: effect.userId,
        recipient: effect.recipient,
        payload: JSON.stringify(effect.payload),
        status: 'pending' as const,
        erase_after_send: effect.eraseAfterSend ?? false,
        event_at: effect.eventAt,
      })),
    )
    .onConflict((oc) => oc.columns(['reactor', 'key']).doNothing())
    .execute();
}

/**
 * Claims up to `limit` messages of `reactor` that are due: pending ones whose time has come, and
 * ones being sent by a process that is gone (it stopped beating, or its claim ran out). Each
 * claim counts as an attempt.
 */
export async function claimDue(db: AppDb, reactor: string, processId: string, limit: number) {
  const { rows } = await sql<OutboxRow>`
    UPDATE app.outbox SET status = 'sending', claimed_by = ${processId},
      claimed_until = now() + make_interval(secs => ${CLAIM_SECONDS}), attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM app.outbox o
      WHERE o.reactor = ${reactor} AND (
        (o.status = 'pending' AND o.next_attempt_at <= now())
        OR (o.status = 'sending' AND (o.claimed_until < now() OR NOT EXISTS (
          SELECT 1 FROM app.api_processes p WHERE p.id = o.claimed_by
            AND p.heartbeat_at > now() - make_interval(secs => ${PROCESS_GONE_SECONDS})))))
      ORDER BY o.next_attempt_at, o.created_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING *`.execute(db);
  return rows;
}

/** When the next pending message of `reactor` is due (null: none waits). */
export async function nextDue(db: AppDb, reactor: string) {
  const row = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.min('next_attempt_at').as('due'))
    .where('reactor', '=', reactor)
    .where('status', 'in', ['pending', 'sending'])
    .executeTakeFirst();
  return row?.due ? new Date(row.due as Date) : null;
}

/** The provider accepted it: sent, for good. */
export async function recordSent(db: AppDb, row: OutboxRow, providerId: string) {
  await db
    .updateTable('outbox')
    .set({
      status: 'sent',
      provider_id: providerId,
      sent_at: sql<Date>`now()`,
      claimed_by: null,
      claimed_until: null,
      last_error: null,
      ...(row.erase_after_send ? { recipient: null, payload: null } : {}),
    })
    .where('id', '=', row.id)
    .execute();
}

/**
 * It failed: tried again after a wait that doubles from `retryBaseMs` (at most an hour, with a
 * little jitter so a crowd of failures does not return at once), or parked when the failure is
 * permanent or the attempts are used up. An erased message stays erased.
 */
export async function recordFailure(
  db: AppDb,
  row: OutboxRow,
  reason: string,
  options: { permanent: boolean; maxAttempts: number; retryBaseMs: number },
) {
  const park = options.permanent || row.attempts >= options.maxAttempts;
  const waitMs = Math.min(
    options.retryBaseMs * 2 ** Math.max(0, row.attempts - 1) * (1 + Math.random() * 0.2),
    3_600_000,
  );
  await db
    .updateTable('outbox')
    .set({
      status: sql`CASE WHEN status = 'erased' THEN 'erased' ELSE ${park ? 'parked' : 'pending'} END`,
      last_error: reason.slice(0, 1000),
      next_attempt_at: sql<Date>`now() + make_interval(secs => ${waitMs / 1000})`,
      claimed_by: null,
      claimed_until: null,
    })
    .where('id', '=', row.id)
    .execute();
  return park;
}

/** An admin's retry: a failing or parked message is due now, its attempts start over. */
export async function retryNow(db: AppDb, reactor: string, id: string) {
  return db
    .updateTable('outbox')
    .set({ status: 'pending', attempts: 0, next_attempt_at: sql<Date>`now()` })
    .where('reactor', '=', reactor)
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'parked'])
    .returningAll()
    .executeTakeFirst() as Promise<OutboxRow | undefined>;
}

/**
 * Forgets what the outbox holds of a user whose personal data is erased: recipients and payloads
 * go, and a message not sent yet never will be; only a message meant to outlive the erasure (the
 * account-deleted message) waits to be sent, and is erased then.
 */
export async function eraseOutboxOf(db: AppDb, userId: string) {
  await db
    .updateTable('outbox')
    .set({
      recipient: null,
      payload: null,
      last_error: null,
      status: sql`CASE WHEN status = 'sent' THEN 'sent' ELSE 'erased' END`,
    })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('erase_after_send', '=', false), eb('status', '=', 'sent')]))
    .execute();
}

/** Sent messages keep their recipient and payload this long (what went out, for support). */
const SENT_KEPT_DAYS = 30;

/** Erases the recipient and payload of messages sent more than `SENT_KEPT_DAYS` ago. */
export const purgeSentOutbox = (db: AppDb) =>
  db
    .updateTable('outbox')
    .set({ recipient: null, payload: null })
    .where('status', '=', 'sent')
    .where('payload', 'is not', null)
    .where('sent_at', '<', sql<Date>`now() - make_interval(days => ${SENT_KEPT_DAYS})`)
    .execute();
