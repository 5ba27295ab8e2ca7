import type { Decider } from '../decider.ts';
import { type CreditAccount, type CreditEvent, evolve, initialCreditAccount } from './account.ts';
import { type CreditCommand, decide } from './businessLogic.ts';
import {
  CREDIT_ACCOUNT_SNAPSHOT_VERSION,
  decodeCreditAccount,
  encodeCreditAccount,
  type StoredCreditAccount,
} from './snapshot.ts';

export {
  type CreditAccount,
  type CreditEvent,
  initialCreditAccount,
  monthKey,
  type PendingCheckout,
  type Purchase,
  REFUNDABLE_SPENDS,
  type RecentSpend,
  type Subscription,
  type SubscriptionStatus,
} from './account.ts';
export {
  balanceChange,
  type CreditMovement,
  grantedBy,
  movementOf,
  OUTGOING,
} from './balance.ts';
export {
  type CreditCommand,
  errors as creditErrors,
  MAX_ADJUSTMENT,
  monthlyGrant,
  refreshSummary,
  type Tier,
} from './businessLogic.ts';
export {
  applyLotMoves,
  type CreditLot,
  type CreditLots,
  deductionLots,
  isZeroValueLot,
  type LotMoves,
  type LotTotals,
  lotMovesOf,
  lotsAfter,
  lotsBalance,
  lotsToTake,
  lotTotals,
  SPENDING_ORDER,
} from './lots.ts';
export { creditEventReference } from './reference.ts';
export {
  CREDIT_ACCOUNT_SNAPSHOT_VERSION,
  decodeCreditAccount,
  encodeCreditAccount,
  type StoredCreditAccount,
} from './snapshot.ts';

export const creditAccountDecider: Decider<CreditAccount, CreditCommand, CreditEvent> = {
  initialState: initialCreditAccount,
  evolve,
  decide,
  // An account's stream grows with every spend: a cold command starts from its snapshot.
  snapshots: {
    kind: 'credit-account',
    version: CREDIT_ACCOUNT_SNAPSHOT_VERSION,
    encode: encodeCreditAccount,
    decode: (stored) => decodeCreditAccount(stored as StoredCreditAccount),
  },
};
