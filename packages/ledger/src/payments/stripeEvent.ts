import type { StripeEvent } from '@astra/contracts';
import type { Decider } from '../decider.ts';

/** A Stripe event id seen once: the first record wins, a redelivery records nothing. */
export interface StripeEventRecord {
  processed: boolean;
  outcome: string | null;
}

export type StripeEventCommand = { type: 'RecordStripeEvent' } & StripeEvent['data'];

export const stripeEventDecider: Decider<StripeEventRecord, StripeEventCommand, StripeEvent> = {
  initialState: () => ({ processed: false, outcome: null }),
  evolve: (_state, event) => ({ processed: true, outcome: event.data.outcome }),
  decide: (command, state) => {
    if (state.processed) return [];
    const { type: _type, ...data } = command;
    return [{ type: 'StripeEventProcessed', data }];
  },
};
