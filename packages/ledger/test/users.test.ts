import {
  type EmailEvent,
  streamDecoders,
  type UserEvent,
  userEventSchemas,
} from '@astra/contracts';
import { describe, expect, it } from 'vitest';
import {
  adminRegistryDecider,
  emailRegistryDecider,
  feedbackDecider,
  fold,
  freeAllotmentDecider,
  splitFullName,
  userDecider,
} from '../src/index.ts';
import { deciderSpecification } from './deciderSpecification.ts';

const givenUser = deciderSpecification(userDecider);
const registered: UserEvent = {
  type: 'UserRegistered',
  data: {
    userId: 'u1',
    email: 'ada@example.com',
    fullName: 'Ada Lovelace',
    firstName: 'Ada',
    lastName: 'Lovelace',
    avatarUrl: null,
    provider: 'google',
  },
};

describe('user', () => {
  it('registers once', () => {
    const { type: _t, ...rest } = { type: 'RegisterUser' as const, ...registered.data };
    givenUser([])
      .when({ type: 'RegisterUser', ...rest })
      .then([registered]);
    givenUser([registered])
      .when({ type: 'RegisterUser', ...rest })
      .thenNothingHappens();
  });
  it('records only the profile fields that change, and keeps the full name in step', () => {
    givenUser([registered])
      .when({
        type: 'UpdateProfile',
        changes: { firstName: 'Ada', birthCity: 'London', birthDate: '1815-12-10' },
      })
      .then([
        { type: 'UserProfileUpdated', data: { birthCity: 'London', birthDate: '1815-12-10' } },
      ]);
    const renamed = fold(userDecider, [
      registered,
      { type: 'UserProfileUpdated', data: { firstName: 'Augusta Ada' } },
    ]);
    expect(renamed.fullName).toBe('Augusta Ada Lovelace');
    givenUser([registered])
      .when({ type: 'UpdateProfile', changes: { firstName: 'Ada' } })
      .thenNothingHappens();
  });
  it('records the birthplace found, only when it changes; null when none was found', () => {
    const ulm = {
      name: 'Ulm',
      country: 'DE',
      countryName: 'Germany',
      latitude: 48.39841,
      longitude: 9.99155,
      timezone: 'Europe/Berlin',
      label: 'Ulm, Germany',
    };
    const placed = { type: 'UserBirthPlaceChanged' as const, data: { birthPlace: ulm } };
    givenUser([registered])
      .when({ type: 'UpdateProfile', changes: { birthCity: 'Ulm' }, birthPlace: ulm })
      .then([{ type: 'UserProfileUpdated', data: { birthCity: 'Ulm' } }, placed]);
    givenUser([registered, placed])
      .when({ type: 'UpdateProfile', changes: {}, birthPlace: { ...ulm } })
      .thenNothingHappens();
    givenUser([registered, placed])
      .when({ type: 'UpdateProfile', changes: { birthCity: 'Zur' }, birthPlace: null })
      .then([
        { type: 'UserProfileUpdated', data: { birthCity: 'Zur' } },
        { type: 'UserBirthPlaceChanged', data: { birthPlace: null } },
      ]);
    givenUser([registered, placed])
      .when({ type: 'UpdateProfile', changes: {} })
      .thenNothingHappens();
    expect(fold(userDecider, [registered, placed]).birthPlace).toEqual(ulm);
  });
  it('blocks, unblocks, changes role and avatar', () => {
    givenUser([registered])
      .when({ type: 'BlockUser' })
      .then([{ type: 'UserBlocked', data: {} }]);
    givenUser([registered, { type: 'UserBlocked', data: {} }])
      .when({ type: 'UnblockUser' })
      .then([{ type: 'UserUnblocked', data: {} }]);
    givenUser([registered])
      .when({ type: 'ChangeRole', role: 'admin', source: 'admin', adminId: 'a1' })
      .then([{ type: 'UserRoleChanged', data: { role: 'admin', source: 'admin', adminId: 'a1' } }]);
    givenUser([registered])
      .when({ type: 'ChangeAvatar', avatarUrl: '/api/avatars/x' })
      .then([{ type: 'UserAvatarChanged', data: { avatarUrl: '/api/avatars/x' } }]);
  });
  describe('roles: why a role was given decides who may take it back', () => {
    const listedAdmin: UserEvent = {
      type: 'UserRoleChanged',
      data: { role: 'admin', source: 'admin_emails' },
    };
    const adminGave = (role: 'user' | 'admin'): UserEvent => ({
      type: 'UserRoleChanged',
      data: { role, source: 'admin', adminId: 'a1' },
    });

    it('gives the role of ADMIN_EMAILS at sign-in, and takes it back once the address is not listed', () => {
      givenUser([registered]).when({ type: 'ApplyAdminEmails', listed: true }).then([listedAdmin]);
      givenUser([registered, listedAdmin])
        .when({ type: 'ApplyAdminEmails', listed: true })
        .thenNothingHappens();
      givenUser([registered, listedAdmin])
        .when({ type: 'ApplyAdminEmails', listed: false })
        .then([{ type: 'UserRoleChanged', data: { role: 'user', source: 'admin_emails' } }]);
      givenUser([registered])
        .when({ type: 'ApplyAdminEmails', listed: false })
        .thenNothingHappens();
      givenUser([]).when({ type: 'ApplyAdminEmails', listed: true }).thenThrows('user_not_found');
    });

    it('leaves a role an admin gave (or took) to admins, whatever the list says', () => {
      givenUser([registered, adminGave('admin')])
        .when({ type: 'ApplyAdminEmails', listed: false })
        .thenNothingHappens();
      givenUser([registered, listedAdmin, adminGave('user')])
        .when({ type: 'ApplyAdminEmails', listed: true })
        .thenNothingHappens();
      // An admin confirming a role the list gave makes it the admin's.
      givenUser([registered, listedAdmin])
        .when({ type: 'ChangeRole', role: 'admin', source: 'admin', adminId: 'a1' })
        .then([adminGave('admin')]);
      givenUser([registered, adminGave('admin')])
        .when({ type: 'ChangeRole', role: 'admin', source: 'admin', adminId: 'a2' })
        .thenNothingHappens();
      givenUser([registered, adminGave('admin')])
        .when({ type: 'ChangeRole', role: 'user', source: 'admin', adminId: 'a2' })
        .then([
          { type: 'UserRoleChanged', data: { role: 'user', source: 'admin', adminId: 'a2' } },
        ]);
      expect(fold(userDecider, [registered, adminGave('admin')])).toMatchObject({
        role: 'admin',
        roleSource: 'admin',
      });
    });

    it('reads an old UserRoleChanged without a source as given by ADMIN_EMAILS (all of them were)', () => {
      // As the log holds it (schema version 1): the log is never rewritten, the read upcasts it.
      const stored = {
        id: 'e1',
        stream: 'user-u1',
        revision: 1n,
        position: 7n,
        type: 'UserRoleChanged',
        data: { role: 'admin' },
        metadata: { schemaVersion: 1 },
        recordedAt: new Date(),
      };
      expect(() => userEventSchemas.UserRoleChanged.parse(stored.data)).toThrow();
      const before = streamDecoders.user(stored);
      expect(before.data).toEqual({ role: 'admin', source: 'admin_emails' });
      expect(fold(userDecider, [registered, before])).toMatchObject({
        role: 'admin',
        roleSource: 'admin_emails',
      });
      givenUser([registered, before])
        .when({ type: 'ApplyAdminEmails', listed: false })
        .then([{ type: 'UserRoleChanged', data: { role: 'user', source: 'admin_emails' } }]);
      givenUser([registered, before])
        .when({ type: 'ApplyAdminEmails', listed: true })
        .thenNothingHappens();
    });
  });

  it('deletes once; a deleted account cannot be edited', () => {
    const deleted: UserEvent = { type: 'UserDeleted', data: { reason: 'user_requested' } };
    givenUser([registered]).when({ type: 'DeleteUser', reason: 'user_requested' }).then([deleted]);
    givenUser([registered, deleted])
      .when({ type: 'DeleteUser', reason: 'user_requested' })
      .thenNothingHappens();
    givenUser([registered, deleted])
      .when({ type: 'UpdateProfile', changes: { firstName: 'X' } })
      .thenThrows('account_deleted');
    givenUser([]).when({ type: 'BlockUser' }).thenThrows('user_not_found', 'User not found');
  });
  describe('admin actions (the admin as actor; never on their own account)', () => {
    const self = 'u1'; // `registered` is u1
    it('blocks and unblocks with the admin named, and refuses an admin blocking themselves', () => {
      givenUser([registered])
        .when({ type: 'BlockUser', adminId: 'a1' })
        .then([{ type: 'UserBlocked', data: { adminId: 'a1' } }]);
      givenUser([registered, { type: 'UserBlocked', data: { adminId: 'a1' } }])
        .when({ type: 'BlockUser', adminId: 'a1' })
        .thenNothingHappens();
      givenUser([registered, { type: 'UserBlocked', data: { adminId: 'a1' } }])
        .when({ type: 'UnblockUser', adminId: 'a2' })
        .then([{ type: 'UserUnblocked', data: { adminId: 'a2' } }]);
      givenUser([registered])
        .when({ type: 'BlockUser', adminId: self })
        .thenThrows('self_action', 'You cannot block your own account');
      givenUser([registered, { type: 'UserBlocked', data: {} }])
        .when({ type: 'UnblockUser', adminId: self })
        .thenThrows('self_action', 'You cannot unblock your own account');
      expect(
        fold(userDecider, [registered, { type: 'UserBlocked', data: { adminId: 'a1' } }]).status,
      ).toBe('blocked');
    });
    it('refuses an admin demoting (or re-roling) themselves', () => {
      const admin: UserEvent = {
        type: 'UserRoleChanged',
        data: { role: 'admin', source: 'admin_emails' },
      };
      givenUser([registered, admin])
        .when({ type: 'ChangeRole', role: 'user', source: 'admin', adminId: self })
        .thenThrows('self_action', 'You cannot demote your own account');
      givenUser([registered, admin])
        .when({ type: 'ChangeRole', role: 'admin', source: 'admin', adminId: self })
        .thenThrows('self_action');
    });
    it('deletes by an admin with reason deleted_by_admin, never the admin themselves', () => {
      givenUser([registered])
        .when({ type: 'DeleteUser', reason: 'deleted_by_admin', adminId: 'a1' })
        .then([{ type: 'UserDeleted', data: { reason: 'deleted_by_admin', adminId: 'a1' } }]);
      givenUser([registered])
        .when({ type: 'DeleteUser', reason: 'deleted_by_admin', adminId: self })
        .thenThrows('self_action', 'You cannot delete your own account');
      givenUser([])
        .when({ type: 'DeleteUser', reason: 'deleted_by_admin', adminId: 'a1' })
        .thenThrows('user_not_found');
    });
    it('records admin unlocks, right and wrong, on the admin stream (admins only)', () => {
      const admin: UserEvent = {
        type: 'UserRoleChanged',
        data: { role: 'admin', source: 'admin_emails' },
      };
      givenUser([registered, admin])
        .when({ type: 'RecordAdminUnlock', succeeded: false })
        .then([{ type: 'AdminUnlockFailed', data: {} }]);
      givenUser([registered, admin])
        .when({ type: 'RecordAdminUnlock', succeeded: true, until: '2030-01-01T00:00:00.000Z' })
        .then([{ type: 'AdminUnlocked', data: { until: '2030-01-01T00:00:00.000Z' } }]);
      givenUser([registered])
        .when({ type: 'RecordAdminUnlock', succeeded: false })
        .thenThrows('admin_required');
      const before = fold(userDecider, [registered, admin]);
      expect(
        fold(userDecider, [registered, admin, { type: 'AdminUnlockFailed', data: {} }]),
      ).toEqual(before);
    });
  });

  it('splits a provider full name into first and last name', () => {
    expect(splitFullName('Ada King Lovelace')).toEqual({
      firstName: 'Ada King',
      lastName: 'Lovelace',
    });
    expect(splitFullName('Plato')).toEqual({ firstName: 'Plato', lastName: null });
    expect(splitFullName('  ')).toEqual({ firstName: null, lastName: null });
  });
});

describe('e-mail registry', () => {
  const givenEmail = deciderSpecification(emailRegistryDecider);
  const claimed: EmailEvent = { type: 'EmailClaimed', data: { userId: 'u1' } };
  it('is held by one user at a time and freed by deletion', () => {
    givenEmail([]).when({ type: 'ClaimEmail', userId: 'u1' }).then([claimed]);
    givenEmail([claimed]).when({ type: 'ClaimEmail', userId: 'u1' }).thenNothingHappens();
    givenEmail([claimed])
      .when({ type: 'ClaimEmail', userId: 'u2' })
      .thenThrows('email_taken', undefined, { holder: 'u1' });
    givenEmail([claimed])
      .when({ type: 'ReleaseEmail', userId: 'u1' })
      .then([{ type: 'EmailReleased', data: { userId: 'u1' } }]);
    givenEmail([claimed, { type: 'EmailReleased', data: { userId: 'u1' } }])
      .when({ type: 'ClaimEmail', userId: 'u2' })
      .then([{ type: 'EmailClaimed', data: { userId: 'u2' } }]);
  });
});

describe('free allotment (accounts spec §1: it does not reset for a re-registration)', () => {
  const givenAllotment = deciderSpecification(freeAllotmentDecider);
  it('is claimed once per e-mail, ever', () => {
    givenAllotment([])
      .when({ type: 'ClaimFreeAllotment', userId: 'u1', amount: 10 })
      .then([{ type: 'FreeAllotmentClaimed', data: { userId: 'u1', amount: 10 } }]);
    // The same address registered again after deletion gets nothing.
    givenAllotment([{ type: 'FreeAllotmentClaimed', data: { userId: 'u1', amount: 10 } }])
      .when({ type: 'ClaimFreeAllotment', userId: 'u2', amount: 10 })
      .thenNothingHappens();
  });
});

describe('feedback', () => {
  const givenFeedback = deciderSpecification(feedbackDecider);
  it('is submitted once per feedback id', () => {
    const submit = {
      type: 'SubmitFeedback' as const,
      feedbackId: 'f1',
      userId: 'u1',
      message: 'Lovely readings',
    };
    const submitted = {
      type: 'FeedbackSubmitted' as const,
      data: { feedbackId: 'f1', userId: 'u1', message: 'Lovely readings' },
    };
    givenFeedback([]).when(submit).then([submitted]);
    givenFeedback([submitted]).when(submit).thenNothingHappens();
  });
});

describe('admin registry (the last-admin rule)', () => {
  const givenRegistry = deciderSpecification(adminRegistryDecider);
  const registered = (userId: string) => ({ type: 'AdminRegistered' as const, data: { userId } });
  const revoked = (userId: string, reason = 'demoted') => ({
    type: 'AdminRevoked' as const,
    data: { userId, by: 'admin' as const, reason },
  });
  const demote = (actorId: string, targetId: string, verified: Record<string, boolean>) => ({
    type: 'RevokeAdmin' as const,
    actorId,
    targetId,
    reason: 'demoted' as const,
    verified,
  });

  it('learns admins from their user streams, and demotes while another admin remains', () => {
    givenRegistry([])
      .when(demote('a', 'b', { a: true, b: true }))
      .then([registered('a'), registered('b'), revoked('b')]);
    givenRegistry([registered('a'), registered('b')])
      .when(demote('a', 'b', { a: true, b: true }))
      .then([revoked('b')]);
  });
  it('refuses to demote or delete the last admin', () => {
    // a's own role was revoked by b a moment ago (its user stream may still show admin).
    givenRegistry([registered('a'), registered('b'), revoked('a')])
      .when(demote('a', 'b', { a: true, b: true }))
      .thenThrows('last_admin');
    givenRegistry([registered('b')])
      .when({ type: 'RevokeAdmin', actorId: 'a', targetId: 'b', reason: 'deleted', verified: {} })
      .thenThrows('last_admin');
  });
  it('two demotions of the last two admins, one after the other: the second is refused', () => {
    const first = adminRegistryDecider.decide(
      demote('a', 'b', { a: true, b: true }),
      fold(adminRegistryDecider, []),
    );
    // The second was verified before the first was appended: both streams still showed admin.
    givenRegistry(first)
      .when(demote('b', 'a', { a: true, b: true }))
      .thenThrows('last_admin');
  });
  it('drops an admin whose stream lost the role, and does not count them', () => {
    givenRegistry([registered('a'), registered('b'), registered('c')])
      .when(demote('a', 'b', { a: true, b: true, c: false }))
      .then([{ type: 'AdminRevoked', data: { userId: 'c', by: 'reconcile' } }, revoked('b')]);
    givenRegistry([registered('b')])
      .when(demote('a', 'b', { a: false, b: true }))
      .thenThrows('last_admin');
  });
  it('demoting a user who is not an admin changes nothing', () => {
    givenRegistry([registered('a')])
      .when(demote('a', 'b', { a: true, b: false }))
      .thenNothingHappens();
  });
  it('promotes, even one revoked before; refuses acting on oneself', () => {
    givenRegistry([registered('a'), revoked('b')])
      .when({ type: 'GrantAdmin', actorId: 'a', targetId: 'b', verified: { a: true, b: false } })
      .then([registered('b')]);
    givenRegistry([registered('a'), registered('b')])
      .when(demote('a', 'a', { a: true }))
      .thenThrows('self_action', 'You cannot demote your own account');
  });
});
