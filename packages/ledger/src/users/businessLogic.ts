import type {
  AdminRecordType,
  BirthPlaceRecord,
  ProfileFields,
  Role,
  UserEvent,
} from '@astra/contracts';
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
  /** `birthPlace`: the place found for the birthplace (null: none); absent: unchanged. */
  | {
      type: 'UpdateProfile';
      changes: Partial<ProfileFields>;
      birthPlace?: BirthPlaceRecord | null;
    }
  | { type: 'ChangeAvatar'; avatarUrl: string | null }
  /** An admin's decision (`source` is `admin`, the default): it stays until an admin changes it. */
  | { type: 'ChangeRole'; role: Role; source?: 'admin'; adminId?: string }
  /** At each sign-in: whether the address is listed in `ADMIN_EMAILS` now. */
  | { type: 'ApplyAdminEmails'; listed: boolean }
  /** `adminId`: the admin who blocks; an admin cannot block (or unblock) themselves. */
  | { type: 'BlockUser'; adminId?: string }
  | { type: 'UnblockUser'; adminId?: string }
  /** `reason` `user_requested` (the user's own) or `deleted_by_admin` (with `adminId`). */
  | { type: 'DeleteUser'; reason: string; adminId?: string }
  /**
   * After `DeleteUser`, once the user's data key is destroyed: records that their personal data
   * is erased (as the deletion: `reason`, `adminId`). Refused before the deletion.
   */
  | { type: 'ErasePersonalData'; reason: string; adminId?: string }
  /** `POST /api/admin/unlock` by this admin: the right password (until when) or a wrong one. */
  | { type: 'RecordAdminUnlock'; succeeded: boolean; until?: string }
  /**
   * What this admin did that the audit trail keeps (a download, a verify run, a rebuild, a lock,
   * a refused unlock): recorded as it is, on their own stream, with the admin as actor.
   */
  | { type: 'RecordAdminAction'; action: AdminRecord };

/** The events `RecordAdminAction` records (`ADMIN_RECORD_TYPES`). */
export type AdminRecord = Extract<UserEvent, { type: AdminRecordType }>;

export const userErrors = {
  notFound: () => new DomainError('user_not_found', 'User not found'),
  deleted: () => new DomainError('account_deleted', 'This account has been deleted'),
  selfAction: (what: 'block' | 'unblock' | 'demote' | 'change the role of' | 'delete') =>
    new DomainError('self_action', `You cannot ${what} your own account`),
  adminRequired: () =>
    new DomainError('admin_required', 'Access denied: Admin privileges required'),
};

/** An admin acting on their own account is refused (`self_action`). */
const refuseSelf = (
  state: User,
  adminId: string | undefined,
  what: Parameters<typeof userErrors.selfAction>[0],
) => {
  if (adminId !== undefined && adminId === state.userId) throw userErrors.selfAction(what);
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

const samePlace = (a: BirthPlaceRecord | null, b: BirthPlaceRecord | null) =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.name === b.name &&
    a.country === b.country &&
    a.latitude === b.latitude &&
    a.longitude === b.longitude &&
    a.timezone === b.timezone &&
    a.label === b.label &&
    a.countryName === b.countryName);

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
      const events: UserEvent[] = Object.keys(changes).length
        ? [{ type: 'UserProfileUpdated', data: changes }]
        : [];
      const { birthPlace } = command;
      if (birthPlace !== undefined && !samePlace(state.birthPlace, birthPlace)) {
        events.push({ type: 'UserBirthPlaceChanged', data: { birthPlace } });
      }
      return events;
    }
    case 'ChangeAvatar':
      requireLive(state);
      if (state.avatarUrl === command.avatarUrl) return [];
      return [{ type: 'UserAvatarChanged', data: { avatarUrl: command.avatarUrl } }];
    case 'ChangeRole': {
      requireLive(state);
      refuseSelf(state, command.adminId, command.role === 'user' ? 'demote' : 'change the role of');
      // The same role from a source other than an admin is recorded too: the admin now owns it.
      if (state.role === command.role && state.roleSource === 'admin') return [];
      const adminId = command.adminId;
      return [
        {
          type: 'UserRoleChanged',
          data: { role: command.role, source: 'admin', ...(adminId ? { adminId } : {}) },
        },
      ];
    }
    case 'ApplyAdminEmails': {
      requireLive(state);
      // What an admin decided is not the list's to change.
      if (state.roleSource === 'admin') return [];
      if (command.listed) {
        return state.role === 'admin'
          ? []
          : [{ type: 'UserRoleChanged', data: { role: 'admin', source: 'admin_emails' } }];
      }
      // Not listed (any more): a role the list gave is taken back.
      return state.role === 'admin' && state.roleSource === 'admin_emails'
        ? [{ type: 'UserRoleChanged', data: { role: 'user', source: 'admin_emails' } }]
        : [];
    }
    case 'BlockUser':
      requireLive(state);
      refuseSelf(state, command.adminId, 'block');
      return state.status === 'blocked'
        ? []
        : [{ type: 'UserBlocked', data: command.adminId ? { adminId: command.adminId } : {} }];
    case 'UnblockUser':
      requireLive(state);
      refuseSelf(state, command.adminId, 'unblock');
      return state.status === 'active'
        ? []
        : [{ type: 'UserUnblocked', data: command.adminId ? { adminId: command.adminId } : {} }];
    case 'DeleteUser': {
      if (state.status === 'unregistered') throw userErrors.notFound();
      refuseSelf(state, command.adminId, 'delete');
      if (state.status === 'deleted') return [];
      const adminId = command.adminId;
      return [
        { type: 'UserDeleted', data: { reason: command.reason, ...(adminId ? { adminId } : {}) } },
      ];
    }
    case 'ErasePersonalData': {
      if (state.status === 'unregistered') throw userErrors.notFound();
      if (state.status !== 'deleted') {
        throw new Error('Personal data is erased only after the account is deleted');
      }
      if (state.erased) return [];
      const adminId = command.adminId;
      return [
        {
          type: 'PersonalDataErased',
          data: { reason: command.reason, ...(adminId ? { adminId } : {}) },
        },
      ];
    }
    case 'RecordAdminUnlock':
      requireLive(state);
      if (state.role !== 'admin') throw userErrors.adminRequired();
      return command.succeeded
        ? [{ type: 'AdminUnlocked', data: command.until ? { until: command.until } : {} }]
        : [{ type: 'AdminUnlockFailed', data: {} }];
    case 'RecordAdminAction':
      requireLive(state);
      if (state.role !== 'admin') throw userErrors.adminRequired();
      return [command.action];
    default: {
      const exhaustive: never = command;
      throw new Error(`Unknown user command ${JSON.stringify(exhaustive)}`);
    }
  }
};
