import { randomUUID } from 'node:crypto';
import { isDomainError, splitFullName } from '@astra/ledger';
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
 * Signs an identity in: finds or registers its user, opens the credit account and claims the
 * e-mail's free allotment (once ever, even across deletion and re-registration). Every step is
 * idempotent, so a sign-in that failed half way is completed by the next one.
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

  const registered = await ledger.user(
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
  const opened = await ledger.credits(userId, { type: 'OpenAccount', userId }, system);

  let granted: bigint | null = null;
  if (policy.freeCredits > 0) {
    const claim = await ledger.freeAllotment(
      email,
      { type: 'ClaimFreeAllotment', userId, amount: policy.freeCredits },
      system,
    );
    if (claim.state.claimedBy === userId) {
      granted = (
        await ledger.credits(
          userId,
          { type: 'GrantFreeAllotment', amount: claim.state.amount },
          system,
        )
      ).position;
    }
  }

  let promoted: bigint | null = null;
  if (policy.adminEmails.includes(email)) {
    promoted = (await ledger.user(userId, { type: 'ChangeRole', role: 'admin' }, system)).position;
  }

  return {
    userId,
    position: latestPosition(registered.position, opened.position, granted, promoted),
  };
}

/** The user holding this e-mail, claiming it for a new user when nobody (alive) does. */
async function holderOf(ledger: Ledger, email: string, context: CommandContext): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const { holder } = (await ledger.emailHolder(email)).state;
    if (holder) {
      const user = (await ledger.userOf(holder)).state;
      if (user.status !== 'deleted') return holder;
      // A deletion that stopped before releasing the address: finish it.
      await ledger.email(email, { type: 'ReleaseEmail', userId: holder }, context);
      continue;
    }
    const userId = randomUUID();
    try {
      await ledger.email(email, { type: 'ClaimEmail', userId }, context);
      return userId;
    } catch (error) {
      if (!isDomainError(error) || error.code !== 'email_taken') throw error;
    }
  }
  throw new Error(`Could not settle who holds ${email}`);
}
