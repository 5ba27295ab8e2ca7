import { isDomainError, userErrors } from '@astra/ledger';
import { type CommandContext, type Ledger, latestPosition } from '../../ledger/ledger.ts';
import type { PaymentGateway } from '../payments/gateway.ts';

/**
 * Deletes an account (accounts spec §4): the balance is forfeited and the credit account closed
 * (ending any subscription), the user is marked deleted, and the e-mail address is released for
 * a new registration (which gets no free credits: the address claimed them once, forever).
 * Usage logs stay. Every step is idempotent and the order matters: the subscription is cancelled
 * at the payment gateway first (nothing is billed after the account is gone; if the gateway
 * refuses, nothing is deleted), then until `DeleteUser` the user can simply retry; after it, the
 * next sign-in with the address finishes an unfinished release.
 * Returns the latest position written, for read-your-writes.
 *
 * An admin deleting a user (`by.adminId`) runs the same sequence, with the admin as the actor in
 * `context` and reason `deleted_by_admin`; an admin cannot delete themselves (`self_action`,
 * checked before anything is cancelled).
 */
export async function deleteAccount(
  ledger: Ledger,
  gateway: Pick<PaymentGateway, 'cancelNow'>,
  userId: string,
  context: CommandContext,
  by: { adminId?: string } = {},
) {
  const adminId = by.adminId;
  const reason = adminId ? 'deleted_by_admin' : 'user_requested';
  if (adminId === userId) throw userErrors.selfAction('delete');
  // Which subscription bills this account: the credit stream's (write side), not a read model.
  const subscriptionId = (await ledger.creditAccountOf(userId)).state.subscription?.subscriptionId;
  if (subscriptionId) await gateway.cancelNow(subscriptionId);
  let closed: bigint | null = null;
  try {
    closed = (await ledger.credits(userId, { type: 'CloseAccount' }, context)).position;
  } catch (error) {
    // An account that was never opened has nothing to forfeit or close.
    if (!isDomainError(error) || error.code !== 'user_not_found') throw error;
  }
  const deleted = await ledger.user(
    userId,
    { type: 'DeleteUser', reason, ...(adminId ? { adminId } : {}) },
    context,
  );
  const email = deleted.state.email;
  const released = email
    ? (await ledger.email(email, { type: 'ReleaseEmail', userId }, context)).position
    : null;
  return latestPosition(closed, deleted.position, released);
}
