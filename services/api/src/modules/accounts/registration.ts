import { randomUUID } from 'node:crypto';
import { type FreeAllotmentEvent, streamDecoders } from '@astra/contracts';
import {
  fold,
  freeAllotmentDecider,
  freeAllotmentKeys,
  isDomainError,
  splitFullName,
  streams,
} from '@astra/ledger';
import { type CommandContext, type Ledger, latestPosition } from '../../ledger/ledger.ts';

export interface Identity {
  email: string;
  fullName: string | null;
  avatarUrl?: string | null;
  provider: 'dev' | 'google' | 'apple';
}

export interface RegistrationPolicy {
  freeCredits: number;
  adminEmails: readonly string[];
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * Signs an identity in: finds or registers its user, opens the credit account, claims the
 * mailbox's free allotment (once ever, even across deletion and re-registration) and gives or
 * takes back the role of `ADMIN_EMAILS`. Every step is idempotent, so a sign-in that failed half
 * way is completed by the next one, and simultaneous first sign-ins of one address all end on
 * the one user the e-mail registry names.
 *
 * The position returned is that of the latest event of the user's and credit streams, whoever
 * appended it: a sign-in that lost the race to register appends nothing, and must still wait
 * until the read models show the account the winner registered.
 */
export async function signIn(
  ledger: Ledger,
  identity: Identity,
  policy: RegistrationPolicy,
  context: CommandContext,
) {
  const email = normalizeEmail(identity.email);
  const userId = await holderOf(ledger, email, context);
  const system = { ...context, actor: { kind: 'system' } as const };
  const { firstName, lastName } = splitFullName(identity.fullName);

  await ledger.handle(
    'user',
    userId,
    {
      type: 'RegisterUser',
      userId,
      email,
      fullName: identity.fullName?.trim() || null,
      firstName,
      lastName,
      avatarUrl: identity.avatarUrl ?? null,
      provider: identity.provider,
    },
    system,
  );
  let credits = await ledger.handle('credits', userId, { type: 'OpenAccount', userId }, system);

  if (policy.freeCredits > 0) {
    const claim = await claimFreeAllotment(ledger, email, userId, policy.freeCredits, system);
    if (claim.claimedBy === userId) {
      credits = await ledger.handle(
        'credits',
        userId,
        { type: 'GrantFreeAllotment', amount: claim.amount },
        system,
      );
    }
  }

  const role = await ledger.handle(
    'user',
    userId,
    { type: 'ApplyAdminEmails', listed: policy.adminEmails.includes(email) },
    system,
  );

  return {
    userId,
    position: latestPosition(
      await lastPositionOf(ledger, streams.user(userId), role),
      await lastPositionOf(ledger, streams.credits(userId), credits),
    ),
  };
}

/**
 * The free allotment of the address's mailbox (see `freeAllotmentKeys`), claimed for this user
 * unless someone claimed it first. A claim recorded under the address itself before mailboxes
 * were counted is carried over to the mailbox's stream first, so that it holds for every
 * spelling of the mailbox from then on.
 */
async function claimFreeAllotment(
  ledger: Ledger,
  email: string,
  userId: string,
  amount: number,
  context: CommandContext,
) {
  const { mailbox, legacy } = freeAllotmentKeys(email);
  if (legacy) {
    const earlier = await readAllotment(ledger, legacy);
    if (earlier.claimedBy) {
      const carried = await ledger.handle(
        'freeAllotment',
        mailbox,
        { type: 'ClaimFreeAllotment', userId: earlier.claimedBy, amount: earlier.amount },
        context,
      );
      return carried.state;
    }
  }
  return (
    await ledger.handle(
      'freeAllotment',
      mailbox,
      { type: 'ClaimFreeAllotment', userId, amount },
      context,
    )
  ).state;
}

/** A free-allotment stream's state, read from the event store (never a read model). */
async function readAllotment(ledger: Ledger, address: string) {
  const events: FreeAllotmentEvent[] = [];
  for await (const event of ledger.store.readStream(
    streams.freeAllotment(ledger.mailboxId(address)),
  )) {
    events.push(streamDecoders.freeAllotment(event));
  }
  return fold(freeAllotmentDecider, events);
}

/**
 * The global position of a stream's latest event: the command's own append, or, when the
 * command appended nothing, the event at the revision it found (read from the event store).
 */
async function lastPositionOf(
  ledger: Ledger,
  stream: string,
  handled: { position: bigint | null; revision: bigint | null },
) {
  if (handled.position !== null || handled.revision === null) return handled.position;
  for await (const event of ledger.store.readStream(stream, { from: handled.revision })) {
    return event.position;
  }
  return null;
}

/** The user holding this e-mail, claiming it for a new user when nobody (alive) does. */
async function holderOf(ledger: Ledger, email: string, context: CommandContext): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const { holder } = (await ledger.load('email', email)).state;
    if (holder) {
      const user = (await ledger.load('user', holder)).state;
      if (user.status !== 'deleted') return holder;
      // A deletion that stopped before releasing the address: finish it.
      await ledger.handle('email', email, { type: 'ReleaseEmail', userId: holder }, context);
      continue;
    }
    const userId = randomUUID();
    try {
      await ledger.handle('email', email, { type: 'ClaimEmail', userId }, context);
      return userId;
    } catch (error) {
      if (!isDomainError(error) || error.code !== 'email_taken') throw error;
    }
  }
  throw new Error(`Could not settle who holds ${email}`);
}
