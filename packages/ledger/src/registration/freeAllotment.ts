import type { FreeAllotmentEvent } from '@astra/contracts';
import type { Decider } from '../decider.ts';

/** The free allotment of one e-mail address: claimed once, ever, by the first account. */
export interface FreeAllotment {
  claimedBy: string | null;
  amount: number;
}

export type FreeAllotmentCommand = { type: 'ClaimFreeAllotment'; userId: string; amount: number };

export const freeAllotmentDecider: Decider<
  FreeAllotment,
  FreeAllotmentCommand,
  FreeAllotmentEvent
> = {
  initialState: () => ({ claimedBy: null, amount: 0 }),
  evolve: (_state, event) => ({ claimedBy: event.data.userId, amount: event.data.amount }),
  // A second claim changes nothing: whoever claimed first keeps it (deleted accounts included).
  decide: (command, state) =>
    state.claimedBy
      ? []
      : [
          {
            type: 'FreeAllotmentClaimed',
            data: { userId: command.userId, amount: command.amount },
          },
        ],
};
