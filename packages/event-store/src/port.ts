/**
 * The event store port. Every adapter (PostgreSQL via `pg`, PostgreSQL embedded via PGlite,
 * KurrentDB) implements exactly this and passes the one contract suite in `test/contract.ts`.
 */

/** Where the writer believes the stream is: no stream yet, any state, or exactly this revision. */
export type ExpectedRevision = 'no_stream' | 'any' | 'stream_exists' | bigint;

export type EventMetadata = Record<string, unknown>;

export interface NewEvent<Type extends string = string, Data = unknown> {
  /** Globally unique; generated when absent. */
  id?: string;
  type: Type;
  data: Data;
  metadata?: EventMetadata;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> {
  id: string;
  stream: string;
  /** 0-based position inside its stream. */
  revision: bigint;
  /** Position in the global order; strictly increasing in the order `readAll` delivers. */
  position: bigint;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  recordedAt: Date;
  /**
   * A read with `elideFrom` left this event's `data` and `metadata` out (null and `{}`): it
   * happened at or after that instant.
   */
  elided?: true;
  /**
   * Personal data of this event was erased (its subject's key is destroyed): those fields hold
   * their erased values (see the store's `EncryptingEventStore`).
   */
  erased?: true;
}

export interface AppendResult {
  /** Revision of the last event appended: the `expected` of the next append. */
  nextRevision: bigint;
  /** Global position of the last event appended. */
  position: bigint;
}

export interface ReadStreamOptions {
  /** First revision to read (inclusive). */
  from?: bigint;
}

/**
 * Which events of the global log a read delivers: those whose stream name starts with one of
 * `streamPrefixes` and (when both are given) whose type is one of `types`. An empty or absent
 * list does not filter. Positions stay global: a filtered read simply skips the other events.
 */
export interface ReadAllFilter {
  streamPrefixes?: readonly string[];
  types?: readonly string[];
}

export interface ReadAllOptions {
  /**
   * Forwards, a checkpoint: only events with a position greater than this are read (default 0).
   * Backwards, a bound: only events with a position less than this (default: from the newest).
   */
  from?: bigint;
  batch?: number;
  /** `forwards` (the default): oldest first. `backwards`: newest first. */
  direction?: 'forwards' | 'backwards';
  filter?: ReadAllFilter;
  /**
   * An instant in `toISOString`'s form: events whose `metadata.occurredAt` (in that form) is at or
   * after it may come without their data and metadata (`elided`), for a reader that only needs
   * to know that they are later (a report of an earlier month). A store may send them whole.
   */
  elideFrom?: string;
}

export interface SubscribeAllOptions {
  /** A checkpoint: the subscription starts after this position. */
  from?: bigint;
  /** Ends the subscription (the iterator returns). */
  signal?: AbortSignal;
}

export interface EventStore {
  readonly kind: string;
  append(
    stream: string,
    events: readonly NewEvent[],
    options: { expected: ExpectedRevision },
  ): Promise<AppendResult>;
  readStream(stream: string, options?: ReadStreamOptions): AsyncIterable<RecordedEvent>;
  readAll(options?: ReadAllOptions): AsyncIterable<RecordedEvent>;
  /**
   * `readAll` a page at a time: each array is what the store read in one go, the next page being
   * read meanwhile. For a reader with work to do once per page rather than once per event (the
   * store that opens personal data reads a page's keys in one query). Optional: a store without
   * it is read through `readAll`.
   */
  readAllPages?(options?: ReadAllOptions): AsyncIterable<readonly RecordedEvent[]>;
  /** Catch-up from `from`, then live: never ends until `signal` aborts. */
  subscribeAll(options?: SubscribeAllOptions): AsyncIterable<RecordedEvent>;
  close(): Promise<void>;
}

/** The typed conflict of optimistic concurrency. */
export class WrongExpectedRevisionError extends Error {
  override readonly name = 'WrongExpectedRevisionError';
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(
      `Stream ${stream}: expected revision ${String(expected)}, but the stream is at ${String(actual)}`,
    );
  }
}

export const isWrongExpectedRevision = (error: unknown): error is WrongExpectedRevisionError =>
  error instanceof WrongExpectedRevisionError;
