/** The credit account's life: opened, the free allotment, its balance and ceiling, deleted. */
import type { CreditEvent } from '@astra/contracts';
import { describe, expect, it } from 'vitest';
import { MAX_BALANCE } from '../src/credits/businessLogic.ts';
import { balanceChange, type CreditCommand, creditAccountDecider, fold } from '../src/index.ts';
import {
  activated,
  free,
  given,
  granted,
  now,
  opened,
  spend,
  spent,
  starter,
} from './creditHistory.ts';

describe('open account', () => {
  it('opens an account once', () => {
    given([]).when({ type: 'OpenAccount', userId: 'u1' }).then([opened]);
    given([opened]).when({ type: 'OpenAccount', userId: 'u1' }).thenNothingHappens();
  });
});

describe('free allotment', () => {
  it('grants the allotment to an open account once', () => {
    given([opened])
      .when({ type: 'GrantFreeAllotment', amount: 10 })
      .then([free(10)]);
    given([opened, free()]).when({ type: 'GrantFreeAllotment', amount: 10 }).thenNothingHappens();
  });
  it('refuses an account that does not exist', () => {
    given([])
      .when({ type: 'GrantFreeAllotment', amount: 10 })
      .thenThrows('user_not_found', 'User not found');
  });
});

describe('balance', () => {
  it('is the sum of every event’s signed change, and total earned counts grants only', () => {
    const history: CreditEvent[] = [
      opened,
      free(10),
      granted(100),
      spent(24),
      { type: 'SpendRefunded', data: { spendId: 's-24', amount: 24, reason: 'generation_failed' } },
      { type: 'CreditsAdjusted', data: { amount: -6, reason: 'Correction', adminId: 'a' } },
      { type: 'CreditsAdjusted', data: { amount: 5, reason: 'Goodwill', adminId: 'a' } },
    ];
    const state = fold(creditAccountDecider, history);
    expect(state.balance).toBe(history.reduce((sum, e) => sum + balanceChange(e), 0));
    expect(state.balance).toBe(109);
    expect(state.totalGranted).toBe(115);
  });
});

describe('balance ceiling', () => {
  // Below the ceiling by `room` credits: balance and total granted both at MAX_BALANCE − room.
  const near = (room: number): CreditEvent[] => [opened, granted(MAX_BALANCE - room, 'big')];
  const grant = (amount: number, grantId = 'g-next'): CreditCommand => ({
    type: 'GrantCredits',
    grantId,
    kind: 'promotional',
    amount,
    reason: 'Goodwill',
    tierId: null,
    reference: null,
  });

  it('is a billion credits: far above any account, far below 2^53 and the bigint columns', () => {
    expect(MAX_BALANCE).toBe(1_000_000_000);
    expect(MAX_BALANCE * 1_000_000 < Number.MAX_SAFE_INTEGER).toBe(true);
  });

  it('grants up to the ceiling exactly, and refuses a grant past it with balance_limit', () => {
    given(near(100))
      .when(grant(100))
      .then([
        {
          type: 'CreditsGranted',
          data: {
            grantId: 'g-next',
            kind: 'promotional',
            amount: 100,
            reason: 'Goodwill',
            tierId: null,
            reference: null,
          },
        },
      ]);
    given(near(100))
      .when(grant(101))
      .thenThrows('balance_limit', undefined, { limit: MAX_BALANCE, amount: 101 });
    // A grant that was made already stays a no-op, not a refusal.
    given(near(0)).when(grant(5, 'big')).thenNothingHappens();
  });

  it('refuses the free allotment, a positive adjustment and a monthly grant past it', () => {
    given(near(5)).when({ type: 'GrantFreeAllotment', amount: 10 }).thenThrows('balance_limit');
    given(near(5))
      .when({ type: 'AdjustCredits', amount: 6, reason: 'Goodwill', adminId: 'a' })
      .thenThrows('balance_limit');
    // A deduction is always allowed, even at the ceiling.
    given(near(0))
      .when({ type: 'AdjustCredits', amount: -6, reason: 'Correction', adminId: 'a' })
      .then([
        {
          type: 'CreditsAdjusted',
          data: {
            amount: -6,
            reason: 'Correction',
            adminId: 'a',
            lots: [{ lot: 'big', source: 'purchased', amount: 6 }],
          },
        },
      ]);
    given([...near(59), activated('2026-11-01')])
      .when({
        type: 'GrantMonthlyCredits',
        tier: starter,
        period: '2026-11',
        trigger: 'renewal',
        reference: null,
        now,
      })
      .thenThrows('balance_limit');
    given([...near(59), activated('2026-11-01')])
      .when({ type: 'RefreshMonthlyCredits', tier: starter, now })
      .thenThrows('balance_limit');
  });

  it('counts the total ever granted too: spending does not make room for more grants', () => {
    const history = [...near(0), spent(500, 's-1')];
    expect(fold(creditAccountDecider, history).balance).toBe(MAX_BALANCE - 500);
    given(history).when(grant(100)).thenThrows('balance_limit');
  });

  it('refuses a refund of a spend that would take the balance past it', () => {
    // An account past the ceiling from before it existed: its history replays as recorded.
    const history: CreditEvent[] = [opened, granted(MAX_BALANCE + 50, 'old'), spent(100, 's-1')];
    expect(fold(creditAccountDecider, history).balance).toBe(MAX_BALANCE - 50);
    given(history)
      .when({ type: 'RefundSpend', spendId: 's-1', reason: 'generation_failed' })
      .thenThrows('balance_limit');
    // Spending and deducting still work on such an account.
    given(history)
      .when(spend(10, 's-2'))
      .then([spent(10, 's-2')]);
  });
});

describe('account deletion (accounts spec §4)', () => {
  it('forfeits every remaining credit by an event, ends the subscription and closes', () => {
    given([opened, free(10), activated()])
      .when({ type: 'CloseAccount' })
      .then([
        { type: 'SubscriptionEnded', data: { reason: 'account_deleted' } },
        { type: 'CreditsForfeited', data: { amount: 10, reason: 'account_deleted' } },
        { type: 'CreditAccountClosed', data: { reason: 'account_deleted' } },
      ]);
  });
  it('closes an empty account without a forfeit, once; a closed account spends nothing', () => {
    const closed: CreditEvent = {
      type: 'CreditAccountClosed',
      data: { reason: 'account_deleted' },
    };
    given([opened]).when({ type: 'CloseAccount' }).then([closed]);
    given([opened, closed]).when({ type: 'CloseAccount' }).thenNothingHappens();
    given([
      opened,
      free(10),
      { type: 'CreditsForfeited', data: { amount: 10, reason: 'account_deleted' } },
      closed,
    ])
      .when(spend(1))
      .thenThrows('account_closed');
  });
});
