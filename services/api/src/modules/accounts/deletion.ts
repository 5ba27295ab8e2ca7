import { streamDecoders } from '@astra/contracts';
import { isDomainError, streams, userErrors } from '@astra/ledger';
import { sql } from 'kysely';
import type { AppDeps } from '../../dependencies.ts';
import {
  type CommandContext,
  type Ledger,
  latestPosition,
  systemContext,
} from '../../ledger/ledger.ts';
import type { Logger } from '../../observability/logger.ts';
import { eraseOutboxOf } from '../../reactors/outbox.ts';
import { releaseAvatars } from '../../storage/avatarStore.ts';
import { accountDeletedEffect } from '../mail/mailReactor.ts';

/** What deleting and erasing an account works with. */
export type DeletionDeps = Pick<
  AppDeps,
  'ledger' | 'keyring' | 'appDb' | 'read' | 'db' | 'mail' | 'clock'
> & {
  payments: Pick<AppDeps['payments'], 'gateway'>;
};

/** Why the account was deleted, and by which admin (none: by its owner). */
interface Deletion {
  reason: string;
  adminId?: string;
}

/**
 * Deletes an account (accounts spec §4): the balance is forfeited and the credit account closed
 * (ending any subscription), the user is marked deleted, the e-mail address is released for a
 * new registration (which gets no free credits: the address's mailbox claimed them once,
 * forever), and the user's personal data is erased (`eraseAccount`). Usage logs stay, without
 * anything personal. Every step is idempotent and the order matters: the subscription is
 * cancelled at the payment gateway first (nothing is billed after the account is gone; if the
 * gateway refuses, nothing is deleted), then until `DeleteUser` the user can simply retry; after
 * it, the next sign-in with the address finishes an unfinished release, and the erasure sweep
 * (`finishErasures`) an unfinished erasure.
 * Returns the latest position written, for read-your-writes.
 *
 * An admin deleting a user (`by.adminId`) runs the same sequence, with the admin as the actor in
 * `context` and reason `deleted_by_admin`; an admin cannot delete themselves (`self_action`,
 * checked before anything is cancelled).
 */
export async function deleteAccount(
  deps: DeletionDeps,
  userId: string,
  context: CommandContext,
  by: { adminId?: string } = {},
) {
  const { ledger } = deps;
  const adminId = by.adminId;
  const deletion: Deletion = {
    reason: adminId ? 'deleted_by_admin' : 'user_requested',
    ...(adminId ? { adminId } : {}),
  };
  if (adminId === userId) throw userErrors.selfAction('delete');
  // Which subscription bills this account: the credit stream's (write side), not a read model.
  const subscriptionId = (await ledger.load('credits', userId)).state.subscription?.subscriptionId;
  if (subscriptionId) await deps.payments.gateway.cancelNow(subscriptionId);
  let closed: bigint | null = null;
  try {
    closed = (await ledger.handle('credits', userId, { type: 'CloseAccount' }, context)).position;
  } catch (error) {
    // An account that was never opened has nothing to forfeit or close.
    if (!isDomainError(error) || error.code !== 'user_not_found') throw error;
  }
  const deleted = await ledger.handle('user', userId, { type: 'DeleteUser', ...deletion }, context);
  // Released before the erasure: the address is read from the user's stream, which the erasure
  // makes unreadable.
  const email = deleted.state.email;
  const released = email
    ? (await ledger.handle('email', email, { type: 'ReleaseEmail', userId }, context)).position
    : null;
  const erased = await eraseAccount(deps, userId, context, deletion);
  return latestPosition(closed, deleted.position, released, erased);
}

/**
 * Erases a deleted user's personal data (issue "Forget on request"). First the account-deleted
 * message is recorded, to the address on record while it can still be read (it is sent, then
 * erased too). Then their data key is destroyed
 * (every personal field of their events reads as erased from then on, here and in every other
 * process within the keyring's cache time), then what the API's own tables hold of them goes
 * (`forgetAppData`), and last `PersonalDataErased` records it; the projections then blank their
 * rows. Each step is idempotent, and the event comes last: a user whose stream says deleted but
 * not erased has an erasure to finish (`finishErasures`). The position of the event (null when it
 * was recorded already).
 */
export async function eraseAccount(
  deps: DeletionDeps,
  userId: string,
  context: CommandContext,
  deletion: Deletion,
) {
  const farewell = await accountDeletedEffect(
    deps.ledger,
    deps.mail.settings,
    userId,
    Boolean(deletion.adminId),
    deps.clock(),
  );
  if (farewell) await deps.mail.reactor.record([farewell]);
  await deps.keyring.destroy(userId);
  await forgetAppData(deps, userId);
  const erased = await deps.ledger.handle(
    'user',
    userId,
    { type: 'ErasePersonalData', ...deletion },
    context,
  );
  return erased.position;
}

/**
 * Removes what the API's tables (schema `app`) and the snapshots hold of a user: the outbox's
 * messages to them (but the account-deleted one, until it is sent), their sessions,
 * their pictures (unless someone else uses the same one), the drafts of their readings, the
 * answers kept for idempotent retries that are theirs or name them (an admin's answer about
 * them), and the snapshots of their credit stream. Payment rows (local checkout, refunds) hold
 * ids and amounts only, kept as the payments are.
 */
export async function forgetAppData(
  deps: Pick<DeletionDeps, 'ledger' | 'appDb' | 'read' | 'db'>,
  userId: string,
) {
  const { appDb } = deps;
  await eraseOutboxOf(appDb, userId);
  await appDb.deleteFrom('sessions').where('user_id', '=', userId).execute();
  await releaseAvatars(appDb, userId, null);
  const readings = await deps.read
    .selectFrom('usage_logs')
    .select('log_id')
    .where('user_id', '=', userId)
    .execute();
  const readingIds = readings.map((row) => row.log_id);
  if (readingIds.length > 0) {
    await appDb.deleteFrom('reading_drafts').where('reading_id', 'in', readingIds).execute();
  }
  // Answers still being made hold no body yet: only final ones can hold personal data.
  await appDb
    .deleteFrom('idempotency_keys')
    .where('status', 'is not', null)
    .where((eb) =>
      eb.or([eb('key', 'like', `${userId}:%`), eb(sql`position(${userId} in body::text)`, '>', 0)]),
    )
    .execute();
  // A snapshot being written in the background (after the account's closing) lands first.
  await deps.ledger.snapshotsSettled();
  await sql`DELETE FROM public.snapshots WHERE stream_name = ${streams.credits(userId)}`.execute(
    deps.db,
  );
}

/**
 * Finishes the erasures a crash (or a failure) left half way: users whose stream says deleted
 * but not erased. The read model names the candidates (deleted rows without `erased_at`); the
 * user's own stream decides. Returns how many it finished.
 */
export async function finishErasures(deps: DeletionDeps, logger: Logger) {
  const candidates = await deps.read
    .selectFrom('profiles')
    .select('id')
    .where('status', '=', 'deleted')
    .where('erased_at', 'is', null)
    .limit(1000)
    .execute();
  let finished = 0;
  for (const { id } of candidates) {
    try {
      const deletion = await deletionOf(deps.ledger, id);
      if (!deletion) continue;
      await eraseAccount(deps, id, systemContext(), deletion);
      finished++;
    } catch (error) {
      logger.error({ err: error, userId: id }, 'Finishing the erasure of a deleted user failed');
    }
  }
  if (finished > 0) logger.info({ finished }, 'Finished unfinished erasures of deleted users');
  return finished;
}

/** The deletion of a user whose erasure is still to do (null: not deleted, or erased already). */
async function deletionOf(ledger: Ledger, userId: string): Promise<Deletion | null> {
  let deletion: Deletion | null = null;
  for await (const recorded of ledger.store.readStream(streams.user(userId))) {
    const event = streamDecoders.user(recorded);
    if (event.type === 'UserDeleted') {
      const { reason, adminId } = event.data;
      deletion = { reason, ...(adminId ? { adminId } : {}) };
    } else if (event.type === 'PersonalDataErased') {
      return null;
    }
  }
  return deletion;
}
