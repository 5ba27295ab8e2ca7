/**
 * A decider: the pure heart of a stream. `decide` turns a command and the current state into
 * new events (or throws a DomainError); `evolve` folds one event into the state.
 */
export interface Decider<State, Command, Event> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
  /** For streams that grow long: how the state is kept in snapshots beside the log. */
  snapshots?: StateSnapshots<State>;
}

/**
 * A state's snapshots: the fold's name (`kind`), the version of its shape and a codec to and from
 * plain JSON. The command handler starts a cold stream from the latest snapshot of this kind and
 * version and replays only the events after it; any other version is ignored.
 */
export interface StateSnapshots<State> {
  kind: string;
  version: number;
  encode(state: State): unknown;
  decode(stored: unknown): State;
}

/**
 * Every refusal a decider can give. The API maps each to its HTTP status
 * (`services/api/src/http/errors.ts`), so a new code does not compile until it has one.
 */
export type DomainErrorCode =
  | 'account_blocked'
  | 'account_closed'
  | 'account_deleted'
  | 'admin_required'
  | 'balance_changed'
  | 'balance_limit'
  | 'checkout_in_progress'
  | 'email_taken'
  | 'insufficient_credits'
  | 'invalid_amount'
  | 'invalid_tier'
  | 'last_admin'
  | 'month_closed'
  | 'month_not_ended'
  | 'month_not_next'
  | 'no_active_subscription'
  | 'reading_completed'
  | 'reading_failed'
  | 'reading_not_found'
  | 'reason_required'
  | 'refresh_not_due'
  | 'same_plan'
  | 'self_action'
  | 'spend_not_refundable'
  | 'subscription_active'
  | 'subscription_missing_tier'
  | 'unknown_payment'
  | 'user_not_found'
  | 'voice_session_active'
  | 'voice_session_failed'
  | 'voice_session_not_found'
  | 'voice_session_started';

/** A refused command: `code` for machines, `message` for people, `details` for both. */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;

export const fold = <State, Event>(
  decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>,
  events: Iterable<Event>,
) => {
  let state = decider.initialState();
  for (const event of events) state = decider.evolve(state, event);
  return state;
};
