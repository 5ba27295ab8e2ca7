import { type EmailEvent, type UserEvent, userEventSchemas } from '@astra/contracts';
import { describe, expect, it } from 'vitest';
import {
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
      const old = { role: 'admin' };
      // The schema still accepts what the log holds; the log is never rewritten.
      expect(userEventSchemas.UserRoleChanged.parse(old)).toEqual(old);
      const before: UserEvent = { type: 'UserRoleChanged', data: { role: 'admin' } };
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
