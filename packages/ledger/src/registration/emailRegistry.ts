import type { EmailEvent } from '@astra/contracts';
import { type Decider, DomainError } from '../decider.ts';

/** Which user holds an e-mail address: one at a time; released when that user is deleted. */
export interface EmailRegistration {
  holder: string | null;
}

export type EmailCommand =
  | { type: 'ClaimEmail'; userId: string }
  | { type: 'ReleaseEmail'; userId: string };

export const emailRegistryDecider: Decider<EmailRegistration, EmailCommand, EmailEvent> = {
  initialState: () => ({ holder: null }),
  evolve: (_state, event) => {
    switch (event.type) {
      case 'EmailClaimed':
        return { holder: event.data.userId };
      case 'EmailReleased':
        return { holder: null };
      default: {
        const exhaustive: never = event;
        throw new Error(`Unknown e-mail event ${JSON.stringify(exhaustive)}`);
      }
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'ClaimEmail':
        if (state.holder === command.userId) return [];
        if (state.holder) {
          throw new DomainError('email_taken', 'This e-mail address belongs to another account', {
            holder: state.holder,
          });
        }
        return [{ type: 'EmailClaimed', data: { userId: command.userId } }];
      case 'ReleaseEmail':
        if (state.holder !== command.userId) return [];
        return [{ type: 'EmailReleased', data: { userId: command.userId } }];
      default: {
        const exhaustive: never = command;
        throw new Error(`Unknown e-mail command ${JSON.stringify(exhaustive)}`);
      }
    }
  },
};
