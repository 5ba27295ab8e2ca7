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

/** A refused command: `code` for machines, `message` for people, `details` for both. */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: string,
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
