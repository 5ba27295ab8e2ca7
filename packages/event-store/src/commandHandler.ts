import {
  type EventMetadata,
  type EventStore,
  isWrongExpectedRevision,
  type RecordedEvent,
} from './port.ts';

/** What a command handler needs of a decider: its state and how an event changes it. */
export interface Evolver<State, Event> {
  initialState(): State;
  evolve(state: State, event: Event): State;
}

export interface Handled<State, Event> {
  newEvents: Event[];
  state: State;
  /** Stream revision after the command; null when the stream does not exist. */
  revision: bigint | null;
  /** Global position of the last appended event; null when nothing was appended. */
  position: bigint | null;
}

/** Raised when a stream kept changing under a command through every retry. */
export class ConcurrencyError extends Error {
  override readonly name = 'ConcurrencyError';
  constructor(readonly stream: string) {
    super(`Stream ${stream} kept changing; the command was not applied`);
  }
}

interface Cached<State> {
  state: State;
  revision: bigint | null;
}

export interface CommandHandlerOptions<Event> {
  /**
   * Reads a stored event as the stream's event type: upcast and parsed, throwing on one it cannot
   * read (never a cast: the log outlives the code that wrote it).
   */
  decode: (recorded: RecordedEvent) => Event;
  /** Streams whose state stays in memory between commands (least recently used leave first). */
  cacheSize?: number;
  /** Attempts after a conflict with another process. */
  retries?: number;
}

/**
 * Runs commands against one kind of stream: state from the stream, `decide`, append at the
 * expected revision. Commands on one stream run one at a time in this process; a conflict with
 * another process reloads the state and decides again. State stays cached between commands and
 * the append's expected revision proves it current, so a command usually costs one round trip.
 */
export class CommandHandler<State, Event extends { type: string; data: unknown }> {
  private readonly cache = new Map<string, Cached<State>>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly cacheSize: number;
  private readonly retries: number;
  private readonly decode: (recorded: RecordedEvent) => Event;

  constructor(
    private readonly store: EventStore,
    private readonly evolver: Evolver<State, Event>,
    options: CommandHandlerOptions<Event>,
  ) {
    this.decode = options.decode;
    this.cacheSize = options.cacheSize ?? 10_000;
    this.retries = options.retries ?? 20;
  }

  /** The current state of a stream, read through the cache. */
  async load(stream: string): Promise<Cached<State>> {
    return this.serialized(stream, () => this.catchUp(stream));
  }

  handle(
    stream: string,
    decide: (state: State) => Event[],
    metadata: EventMetadata,
  ): Promise<Handled<State, Event>> {
    return this.serialized(stream, async () => {
      let current = this.cache.get(stream) ?? (await this.catchUp(stream));
      for (let attempt = 0; ; attempt++) {
        let newEvents: Event[];
        try {
          newEvents = decide(current.state);
        } catch (error) {
          // A refusal must not rest on a stale cache: decide again on the latest state.
          const fresh = await this.catchUp(stream);
          if (fresh.revision === current.revision) throw error;
          current = fresh;
          continue;
        }
        if (newEvents.length === 0) {
          const fresh = await this.catchUp(stream);
          if (fresh.revision !== current.revision) {
            current = fresh;
            continue;
          }
          return { newEvents, state: current.state, revision: current.revision, position: null };
        }
        try {
          const result = await this.store.append(
            stream,
            newEvents.map((event) => ({ type: event.type, data: event.data, metadata })),
            { expected: current.revision ?? 'no_stream' },
          );
          const state = newEvents.reduce(this.evolver.evolve, current.state);
          this.remember(stream, { state, revision: result.nextRevision });
          return { newEvents, state, revision: result.nextRevision, position: result.position };
        } catch (error) {
          if (!isWrongExpectedRevision(error)) throw error;
          if (attempt >= this.retries) {
            // The cache is known stale: the next command must not start from it (with
            // `retries: 0` it would conflict on every command that follows).
            this.cache.delete(stream);
            throw new ConcurrencyError(stream);
          }
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * (attempt + 1)));
          current = await this.catchUp(stream);
        }
      }
    });
  }

  /** Reads what the stream gained since the cached revision. */
  private async catchUp(stream: string): Promise<Cached<State>> {
    const cached = this.cache.get(stream);
    let state = cached?.state ?? this.evolver.initialState();
    let revision = cached?.revision ?? null;
    const from = revision === null ? 0n : revision + 1n;
    for await (const event of this.store.readStream(stream, { from })) {
      state = this.evolver.evolve(state, this.decode(event));
      revision = event.revision;
    }
    const current = { state, revision };
    this.remember(stream, current);
    return current;
  }

  private remember(stream: string, entry: Cached<State>) {
    this.cache.delete(stream);
    this.cache.set(stream, entry);
    if (this.cache.size > this.cacheSize) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }

  /** Chains work per stream so that this process never races itself. */
  private serialized<T>(stream: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(stream) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.catch(() => {});
    this.queues.set(stream, tail);
    void tail.then(() => {
      if (this.queues.get(stream) === tail) this.queues.delete(stream);
    });
    return run;
  }
}
