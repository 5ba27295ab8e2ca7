import type { EmailEvent, UserEvent } from '@astra/contracts';
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
      .when({ type: 'ChangeRole', role: 'admin' })
      .then([{ type: 'UserRoleChanged', data: { role: 'admin' } }]);
    givenUser([registered])
      .when({ type: 'ChangeAvatar', avatarUrl: '/api/avatars/x' })
      .then([{ type: 'UserAvatarChanged', data: { avatarUrl: '/api/avatars/x' } }]);
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
