import type {
  BirthPlaceRecord,
  ProfileFields,
  Role,
  RoleSource,
  UserEvent,
} from '@astra/contracts';

export type { UserEvent } from '@astra/contracts';

export interface User extends ProfileFields {
  status: 'unregistered' | 'active' | 'blocked' | 'deleted';
  userId: string | null;
  email: string | null;
  fullName: string | null;
  avatarUrl: string | null;
  /** The birthplace found for `birthCity` / `birthCountry`; null while they are free text. */
  birthPlace: BirthPlaceRecord | null;
  role: Role;
  /** Why the user has `role`; null while it is the default `user` nobody gave. */
  roleSource: RoleSource | null;
  /** Their personal data is erased (`PersonalDataErased`, after `UserDeleted`). */
  erased: boolean;
}

export const initialUser = (): User => ({
  status: 'unregistered',
  userId: null,
  email: null,
  fullName: null,
  firstName: null,
  lastName: null,
  birthDate: null,
  birthTime: null,
  birthTimeUnknown: null,
  birthCity: null,
  birthCountry: null,
  language: null,
  avatarUrl: null,
  birthPlace: null,
  role: 'user',
  roleSource: null,
  erased: false,
});

export const joinName = (first: string | null, last: string | null) =>
  [first, last].filter(Boolean).join(' ') || null;

export const evolve = (state: User, event: UserEvent): User => {
  switch (event.type) {
    case 'UserRegistered':
      return {
        ...state,
        status: 'active',
        userId: event.data.userId,
        email: event.data.email,
        fullName: event.data.fullName,
        firstName: event.data.firstName,
        lastName: event.data.lastName,
        avatarUrl: event.data.avatarUrl,
      };
    case 'UserProfileUpdated': {
      const next = { ...state, ...event.data };
      const nameChanged = 'firstName' in event.data || 'lastName' in event.data;
      return nameChanged ? { ...next, fullName: joinName(next.firstName, next.lastName) } : next;
    }
    case 'UserBirthPlaceChanged':
      return { ...state, birthPlace: event.data.birthPlace };
    case 'UserAvatarChanged':
      return { ...state, avatarUrl: event.data.avatarUrl };
    case 'UserRoleChanged':
      return { ...state, role: event.data.role, roleSource: event.data.source };
    case 'UserBlocked':
      return { ...state, status: 'blocked' };
    case 'UserUnblocked':
      return { ...state, status: 'active' };
    case 'UserDeleted':
      return { ...state, status: 'deleted' };
    case 'PersonalDataErased': {
      // Nothing personal stays in the state either: the ids, status and role are what remain.
      const { userId, role, roleSource } = state;
      return { ...initialUser(), status: 'deleted', userId, role, roleSource, erased: true };
    }
    case 'AdminUnlocked':
    case 'AdminUnlockFailed':
      return state; // a record of the attempt: no change to the user
    case 'AdminUnlockRefused':
    case 'AdminLocked':
    case 'AdminExportStarted':
    case 'AdminDataExported':
    case 'AdminVerifyRun':
    case 'AdminRebuildStarted':
      return state; // a record of what the admin did (the audit trail): no change to the user
    default: {
      const exhaustive: never = event;
      throw new Error(`Unknown user event ${JSON.stringify(exhaustive)}`);
    }
  }
};
