import { expect } from 'vitest';
import { type Decider, DomainError, fold } from '../src/index.ts';

/**
 * given / when / then for a decider: given past events, when a command, then these new events
 * (or this refusal). The same shape as Emmett's DeciderSpecification.
 */
export const deciderSpecification =
  <State, Command, Event>(decider: Decider<State, Command, Event>) =>
  (given: Event[]) => ({
    when: (command: Command) => {
      const run = () => decider.decide(command, fold(decider, given));
      return {
        // biome-ignore lint/suspicious/noThenProperty: given / when / then is the spec's vocabulary
        then: (expected: Event[]) => expect(run()).toEqual(expected),
        thenNothingHappens: () => expect(run()).toEqual([]),
        thenThrows: (code: string, message?: string, details?: Record<string, unknown>) => {
          let thrown: unknown;
          try {
            run();
          } catch (error) {
            thrown = error;
          }
          expect(thrown, `expected ${code}`).toBeInstanceOf(DomainError);
          const error = thrown as DomainError;
          expect(error.code).toBe(code);
          if (message !== undefined) expect(error.message).toBe(message);
          if (details !== undefined) expect(error.details).toMatchObject(details);
        },
      };
    },
  });
