import type { AdminRegistryEvent } from '@astra/contracts';
import type { Decider } from '../decider.ts';
import { DomainError } from '../decider.ts';

export type { AdminRegistryEvent } from '@astra/contracts';

/** The one stream that holds who is an admin (see docs/events.md, "the last-admin rule"). */
export const ADMINS_STREAM = 'admins';

/**
 * Each user the registry knows: `admin`, or `revoked` by an admin (a demotion or a deletion; it
 * stays revoked until an admin promotes the user again, whatever a stale user stream shows).
 * A user it does not know is unknown: learnt from their user stream when they act or are acted on.
 */
export interface AdminRegistry {
  members: Readonly<Record<string, 'admin' | 'revoked'>>;
}

/**
 * `verified`: whether each user the command flow looked at (the acting admin, the target, every
 * registered admin) holds the admin role on their own user stream now (live, role `admin`).
 * The flow reads them just before the command; the registry's own order decides the rest.
 */
export type AdminRegistryCommand =
  | {
      type: 'RevokeAdmin';
      actorId: string;
      targetId: string;
      reason: 'demoted' | 'deleted';
      verified: Readonly<Record<string, boolean>>;
    }
  | {
      type: 'GrantAdmin';
      actorId: string;
      targetId: string;
      verified: Readonly<Record<string, boolean>>;
    };

export const adminRegistryErrors = {
  lastAdmin: () =>
    new DomainError('last_admin', 'You cannot remove the last admin: at least one must remain'),
  selfAction: (what: string) =>
    new DomainError('self_action', `You cannot ${what} your own account`),
};

export const initialAdminRegistry = (): AdminRegistry => ({ members: {} });

export const evolveAdminRegistry = (
  state: AdminRegistry,
  event: AdminRegistryEvent,
): AdminRegistry => {
  switch (event.type) {
    case 'AdminRegistered':
      return { members: { ...state.members, [event.data.userId]: 'admin' } };
    case 'AdminRevoked': {
      const { [event.data.userId]: _gone, ...rest } = state.members;
      // Revoked by an admin: final until a promotion. Found not to be an admin: simply unknown.
      return {
        members: event.data.by === 'admin' ? { ...rest, [event.data.userId]: 'revoked' } : rest,
      };
    }
    default: {
      const exhaustive: never = event;
      throw new Error(`Unknown admin registry event ${JSON.stringify(exhaustive)}`);
    }
  }
};

/** The admins the registry counts. */
export const registeredAdmins = (state: AdminRegistry) =>
  Object.entries(state.members)
    .filter(([, membership]) => membership === 'admin')
    .map(([userId]) => userId);

/**
 * Brings the registry in line with what the user streams showed: a verified admin it does not
 * know is registered; a registered admin whose stream no longer shows the role leaves it. A user
 * revoked by an admin is never registered again from a stream (that stream may lag the revoke).
 */
const reconcile = (state: AdminRegistry, verified: Readonly<Record<string, boolean>>) => {
  const events: AdminRegistryEvent[] = [];
  for (const [userId, isAdmin] of Object.entries(verified)) {
    const membership = state.members[userId];
    if (isAdmin && membership === undefined) {
      events.push({ type: 'AdminRegistered', data: { userId } });
    } else if (!isAdmin && membership === 'admin') {
      events.push({ type: 'AdminRevoked', data: { userId, by: 'reconcile' } });
    }
  }
  return events;
};

export const decideAdminRegistry = (
  command: AdminRegistryCommand,
  state: AdminRegistry,
): AdminRegistryEvent[] => {
  if (command.actorId === command.targetId) {
    throw adminRegistryErrors.selfAction(
      command.type === 'GrantAdmin'
        ? 'change the role of'
        : command.reason === 'deleted'
          ? 'delete'
          : 'demote',
    );
  }
  const synced = reconcile(state, command.verified);
  const current = synced.reduce(evolveAdminRegistry, state);
  switch (command.type) {
    case 'GrantAdmin':
      return current.members[command.targetId] === 'admin'
        ? synced
        : [...synced, { type: 'AdminRegistered', data: { userId: command.targetId } }];
    case 'RevokeAdmin': {
      // Not an admin (any more): nothing to revoke, and nothing to protect.
      if (current.members[command.targetId] !== 'admin') return synced;
      const remaining = registeredAdmins(current).filter((id) => id !== command.targetId);
      if (remaining.length === 0) throw adminRegistryErrors.lastAdmin();
      return [
        ...synced,
        {
          type: 'AdminRevoked',
          data: { userId: command.targetId, by: 'admin', reason: command.reason },
        },
      ];
    }
    default: {
      const exhaustive: never = command;
      throw new Error(`Unknown admin registry command ${JSON.stringify(exhaustive)}`);
    }
  }
};

export const adminRegistryDecider: Decider<
  AdminRegistry,
  AdminRegistryCommand,
  AdminRegistryEvent
> = {
  initialState: initialAdminRegistry,
  evolve: evolveAdminRegistry,
  decide: decideAdminRegistry,
};
