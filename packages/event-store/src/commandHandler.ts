import {
  type EventMetadata,
  type EventStore,
  isWrongExpectedRevision,
  type RecordedEvent,
} from './port.ts';
import type { SnapshotStore } from './snapshots.ts';

/**
 * How a stream's state is kept in a snapshot: the fold's name (`kind`), the version of its shape
 * and its codec to and from plain JSON (a state may hold sets, maps, dates, infinities…). A change
 * to the state's shape or to `evolve` takes a new `version`: snapshots of the old one are ignored.
 */
export interface StateSnapshots<State> {
  kind: string;
  version: number;
  encode(state: State): unknown;
  decode(stored: unknown): State;
}

/**
 * What a command handler needs of a decider: its state, how an event changes it and, for streams
 * that grow long, how its state is kept in snapshots.
 */
export interface Evolver<State, Event> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  snapshots?: StateSnapshots<State>;
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

/** A cache entry, with what a snapshot of it needs and the revision of the last one kept. */
interface Entry<State> extends Cached<State> {
  /** Global position of the event at `revision`. */
  position: bigint | null;
  /** The newest instant among the events folded in (ms; `occurredAt`, else when recorded). */
  latestAt: number;
  /** The revision of the latest snapshot known to be kept (or asked to be). */
  snapshotted: bigint | null;
  /** Whether the state was folded from a snapshot (rather than from the log's first event). */
  fromSnapshot: boolean;
}

/** How often a snapshot is kept: a cold load replays at most about this many events. */
export const SNAPSHOT_EVERY = 1_000;

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
  /**
   * Where the state of streams whose evolver declares `snapshots` is kept, every `snapshotEvery`
   * events: a cold load reads the latest snapshot and only the events after it. Absent: every
   * cold load replays the whole stream.
   */
  snapshots?: SnapshotStore | undefined;
  snapshotEvery?: number;
  /** A snapshot not read or not kept (the command goes on without it); default `console.warn`. */
  onSnapshotError?: (error: unknown, stream: string) => void;
  /**
   * Which errors of `decide` are refusals (the decision, whatever state it was made on). Any
   * other error thrown by `decide` or `evolve` on a state from a snapshot is taken for a snapshot
   * that cannot be read (a codec may decode parts of a state only when they are first read):
   * it is reported to `onSnapshotError`, and the command is decided again on the log itself.
   * Default: every error is a refusal.
   */
  isRefusal?: (error: unknown) => boolean;
}

/**
 * Runs commands against one kind of stream: state from the stream, `decide`, append at the
 * expected revision. Commands on one stream run one at a time in this process; a conflict with
 * another process reloads the state and decides again. State stays cached between commands and
 * the append's expected revision proves it current, so a command usually costs one round trip.
 * A stream not in the cache starts from its latest snapshot when the evolver declares them, and
 * a new snapshot is kept in the background every `snapshotEvery` events.
 */
export class CommandHandler<State, Event extends { type: string; data: unknown }> {
  private readonly cache = new Map<string, Entry<State>>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly cacheSize: number;
  private readonly retries: number;
  private readonly decode: (recorded: RecordedEvent) => Event;
  private readonly snapshotStore: SnapshotStore | undefined;
  private readonly snapshotEvery: number;
  private readonly onSnapshotError: (error: unknown, stream: string) => void;
  private readonly isRefusal: (error: unknown) => boolean;
  /** Snapshots being written: never awaited by a command. */
  private readonly saving = new Set<Promise<void>>();

  constructor(
    private readonly store: EventStore,
    private readonly evolver: Evolver<State, Event>,
    options: CommandHandlerOptions<Event>,
  ) {
    this.decode = options.decode;
    this.cacheSize = options.cacheSize ?? 10_000;
    this.retries = options.retries ?? 20;
    this.snapshotStore = evolver.snapshots ? options.snapshots : undefined;
    this.snapshotEvery = options.snapshotEvery ?? SNAPSHOT_EVERY;
    this.onSnapshotError =
      options.onSnapshotError ??
      ((error, stream) => console.warn(`Snapshot of ${stream} skipped:`, error));
    this.isRefusal = options.isRefusal ?? (() => true);
  }

  /** The current state of a stream, read through the cache. */
  async load(stream: string): Promise<Cached<State>> {
    const { state, revision } = await this.serialized(stream, () => this.catchUp(stream));
    return { state, revision };
  }

  /** Resolves when the snapshots asked for so far are written (or given up). */
  async snapshotsSettled(): Promise<void> {
    while (this.saving.size) await Promise.all(this.saving);
  }

  handle(
    stream: string,
    decide: (state: State) => Event[],
    /** Every appended event's metadata; a function of the state it was decided on, if it says whose the stream is. */
    metadata: EventMetadata | ((state: State) => EventMetadata),
  ): Promise<Handled<State, Event>> {
    return this.serialized(stream, async () => {
      let current = this.cache.get(stream) ?? (await this.catchUp(stream));
      for (let attempt = 0; ; attempt++) {
        let newEvents: Event[];
        try {
          newEvents = decide(current.state);
        } catch (error) {
          if (current.fromSnapshot && !this.isRefusal(error)) {
            current = await this.replayed(stream, error);
            continue;
          }
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
        const eventMetadata = typeof metadata === 'function' ? metadata(current.state) : metadata;
        try {
          const result = await this.store.append(
            stream,
            newEvents.map((event) => ({
              type: event.type,
              data: event.data,
              metadata: eventMetadata,
            })),
            { expected: current.revision ?? 'no_stream' },
          );
          let state: State;
          try {
            state = newEvents.reduce(this.evolver.evolve, current.state);
          } catch (error) {
            if (!current.fromSnapshot) throw error;
            // The events are appended: the state comes from the log, them included.
            const replayed = await this.replayed(stream, error);
            return {
              newEvents,
              state: replayed.state,
              revision: replayed.revision,
              position: result.position,
            };
          }
          this.remember(stream, {
            ...current,
            state,
            revision: result.nextRevision,
            position: result.position,
            latestAt: Math.max(current.latestAt, instantOf(eventMetadata, Date.now())),
          });
          return { newEvents, state, revision: result.nextRevision, position: result.position };
        } catch (error) {
          if (!isWrongExpectedRevision(error)) throw error;
          if (attempt >= this.retries) {
            // The cache is known stale: the next command must not start from it (with
            // `retries: 0` it would conflict on every command that follows).
            this.cache.delete(stream);
            throw new ConcurrencyError(stream);
          }
          const { actual } = error;
          if (current.revision !== null && (actual === 'no_stream' || actual < current.revision)) {
            // The log is behind the state: it came from a snapshot of events this log does not
            // hold (a log restored without emptying `snapshots`). Decide on the log itself.
            this.onSnapshotError(
              new Error(`Snapshot at revision ${current.revision}, log at ${actual}`),
              stream,
            );
            this.cache.delete(stream);
            current = await this.catchUp(stream, { snapshot: false });
            continue;
          }
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * (attempt + 1)));
          current = await this.catchUp(stream);
        }
      }
    });
  }

  /**
   * Reads what the stream gained since the cached revision; a stream not in the cache starts
   * from its latest snapshot, if any.
   */
  private async catchUp(stream: string, { snapshot = true } = {}): Promise<Entry<State>> {
    const start =
      this.cache.get(stream) ?? (snapshot ? await this.fromSnapshot(stream) : this.initial());
    let { state, revision, position, latestAt } = start;
    const from = revision === null ? 0n : revision + 1n;
    for await (const event of this.store.readStream(stream, { from })) {
      const decoded = this.decode(event);
      try {
        state = this.evolver.evolve(state, decoded);
      } catch (error) {
        if (!start.fromSnapshot) throw error;
        return this.replayed(stream, error);
      }
      revision = event.revision;
      position = event.position;
      latestAt = Math.max(latestAt, instantOf(event.metadata, event.recordedAt.getTime()));
    }
    const current = { ...start, state, revision, position, latestAt };
    this.remember(stream, current);
    return current;
  }

  /** After a snapshot's state failed: reported, forgotten, and the stream replayed from the log. */
  private async replayed(stream: string, error: unknown): Promise<Entry<State>> {
    this.onSnapshotError(error, stream);
    this.cache.delete(stream);
    return this.catchUp(stream, { snapshot: false });
  }

  /** The state of the latest snapshot of the stream (at this evolver's version), else the start. */
  private async fromSnapshot(stream: string): Promise<Entry<State>> {
    const empty = this.initial();
    const codec = this.evolver.snapshots;
    if (!this.snapshotStore || !codec) return empty;
    try {
      const snapshot = await this.snapshotStore.latest(stream, codec.kind, codec.version);
      if (!snapshot) return empty;
      return {
        state: codec.decode(snapshot.state),
        revision: snapshot.revision,
        position: snapshot.position,
        latestAt: Date.parse(snapshot.latestAt),
        snapshotted: snapshot.revision,
        fromSnapshot: true,
      };
    } catch (error) {
      // A snapshot that cannot be read or decoded is no reason to refuse: replay the log.
      this.onSnapshotError(error, stream);
      return empty;
    }
  }

  private initial(): Entry<State> {
    return {
      state: this.evolver.initialState(),
      revision: null,
      position: null,
      latestAt: Number.NEGATIVE_INFINITY,
      snapshotted: null,
      fromSnapshot: false,
    };
  }

  private remember(stream: string, entry: Entry<State>) {
    this.cache.delete(stream);
    this.cache.set(stream, entry);
    if (this.cache.size > this.cacheSize) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.keepSnapshot(stream, entry);
  }

  /**
   * Keeps a snapshot once the state is `snapshotEvery` events past the last one, in the
   * background: the command neither waits for it nor fails with it.
   */
  private keepSnapshot(stream: string, entry: Entry<State>) {
    const codec = this.evolver.snapshots;
    const store = this.snapshotStore;
    const { revision, position } = entry;
    if (!store || !codec || revision === null || position === null) return;
    if (revision - (entry.snapshotted ?? -1n) < BigInt(this.snapshotEvery)) return;
    entry.snapshotted = revision;
    const save = (async () => {
      try {
        // Only the latest is ever read: it replaces the older ones.
        await store.save(
          stream,
          codec.kind,
          codec.version,
          {
            revision,
            position,
            latestAt: new Date(entry.latestAt).toISOString(),
            state: codec.encode(entry.state),
          },
          { replace: true },
        );
      } catch (error) {
        this.onSnapshotError(error, stream);
      }
    })();
    this.saving.add(save);
    void save.finally(() => this.saving.delete(save));
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

/** When an event happened: its `occurredAt` when it has one, else `fallback` (ms). */
const instantOf = (metadata: RecordedEvent['metadata'], fallback: number) => {
  const at = typeof metadata.occurredAt === 'string' ? Date.parse(metadata.occurredAt) : Number.NaN;
  return Number.isNaN(at) ? fallback : at;
};
