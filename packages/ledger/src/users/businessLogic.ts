import type { ProfileFields, Role, UserEvent } from '@astra/contracts';
import { DomainError } from '../decider.ts';
import type { User } from './user.ts';

export type UserCommand =
  | {
      type: 'RegisterUser';
      userId: string;
      email: string;
      fullName: string | null;
      firstName: string | null;
      lastName: string | null;
      avatarUrl: string | null;
      provider: 'dev' | 'google' | 'apple';
    }
  | { type: 'UpdateProfile'; changes: Partial<ProfileFields> }
  | { type: 'ChangeAvatar'; avatarUrl: string | null }
  | { type: 'ChangeRole'; role: Role }
  | { type: 'BlockUser' }
  | { type: 'UnblockUser' }
  | { type: 'DeleteUser'; reason: string };

export const userErrors = {
  notFound: () => new DomainError('user_not_found', 'User not found'),
  deleted: () => new DomainError('account_deleted', 'This account has been deleted'),
};

const requireLive = (state: User) => {
  if (state.status === 'unregistered') throw userErrors.notFound();
  if (state.status === 'deleted') throw userErrors.deleted();
};

/** First and last name from a provider's full name: the last word is the last name. */
export const splitFullName = (fullName: string | null) => {
  const words = fullName?.trim().split(/\s+/).filter(Boolean) ?? [];
  if (words.length === 0) return { firstName: null, lastName: null };
  if (words.length === 1) return { firstName: words[0]!, lastName: null };
  return { firstName: words.slice(0, -1).join(' '), lastName: words.at(-1)! };
};

export const decide = (command: UserCommand, state: User): UserEvent[] => {
  switch (command.type) {
    case 'RegisterUser': {
      if (state.status !== 'unregistered') return []; // registering is idempotent
      const { type: _type, ...data } = command;
      return [{ type: 'UserRegistered', data }];
    }
    case 'UpdateProfile': {
      requireLive(state);
      // Only what really changes becomes the event.
      const changes = Object.fromEntries(
        Object.entries(command.changes).filter(
          ([field, value]) => value !== undefined && state[field as keyof ProfileFields] !== value,
        ),
      );
      return Object.keys(changes).length ? [{ type: 'UserProfileUpdated', data: changes }] : [];
    }
    case 'ChangeAvatar':
      requireLive(state);
      if (state.avatarUrl === command.avatarUrl) return [];
      return [{ type: 'UserAvatarChanged', data: { avatarUrl: command.avatarUrl } }];
    case 'ChangeRole':
      requireLive(state);
      if (state.role === command.role) return [];
      return [{ type: 'UserRoleChanged', data: { role: command.role } }];
    case 'BlockUser':
      requireLive(state);
      return state.status === 'blocked' ? [] : [{ type: 'UserBlocked', data: {} }];
    case 'UnblockUser':
      requireLive(state);
      return state.status === 'active' ? [] : [{ type: 'UserUnblocked', data: {} }];
    case 'DeleteUser':
      if (state.status === 'unregistered') throw userErrors.notFound();
      if (state.status === 'deleted') return [];
      return [{ type: 'UserDeleted', data: { reason: command.reason } }];
    default: {
      const exhaustive: never = command;
      throw new Error(`Unknown user command ${JSON.stringify(exhaustive)}`);
    }
  }
};
