import { randomUUID } from 'node:crypto';
import {
  type AllStreamRecordedEvent,
  ANY,
  type AppendStreamState,
  BACKWARDS,
  END,
  eventTypeFilter,
  excludeSystemEvents,
  FORWARDS,
  type JSONRecordedEvent,
  type JSONType,
  jsonEvent,
  KurrentDBClient,
  NO_STREAM,
  type Position,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  streamNameFilter,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllFilter,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeAllOptions,
  WrongExpectedRevisionError,
} from '../port.ts';

type RecordedJson = JSONRecordedEvent | AllStreamRecordedEvent;

/** The client's gRPC channel: `dispose()` cancels the open calls but leaves it open. */
interface WithChannel {
  getChannel(): Promise<{ close(): void }>;
}

/**
 * The event log on KurrentDB / EventStoreDB. Global positions are the log's commit positions;
 * `$all` readers leave out system events.
 *
 * Positions assume one commit per event, which holds for every event appended over gRPC: the
 * server reports each such event's own log position as its commit position, so positions are
 * unique and `{ commit: c, prepare: c }` lands exactly on the event at `c`. Events that share
 * one commit record (explicit transactions of the legacy TCP API) would share a position, and
 * the `<= checkpoint` filters below would skip all but the first of them.
 *
 * Loaded only when a KurrentDB connection string is configured (`storage.ts`), since the
 * client loads a native module.
 */
export class KurrentDbEventStore implements EventStore {
  readonly kind = 'kurrentdb';
  /** Whether a gRPC call (append, subscription) may have opened the client's channel. */
  private usedGrpc = false;
  private closed: Promise<void> | undefined;

  constructor(private readonly client: KurrentDBClient) {}

  static connect(connectionString: string) {
    return new KurrentDbEventStore(KurrentDBClient.connectionString(connectionString));
  }

  async append(
    stream: string,
    events: readonly NewEvent[],
    { expected }: { expected: ExpectedRevision },
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const streamState: AppendStreamState =
      expected === 'no_stream'
        ? NO_STREAM
        : expected === 'any'
          ? ANY
          : expected === 'stream_exists'
            ? STREAM_EXISTS
            : expected;
    this.usedGrpc = true;
    let result: Awaited<ReturnType<KurrentDBClient['appendToStream']>>;
    try {
      result = await this.client.appendToStream(
        stream,
        events.map((event) =>
          jsonEvent({
            id: event.id ?? randomUUID(),
            type: event.type,
            // Stored as JSON text: null stays null, as in PostgreSQL (`undefined` has no JSON).
            data: (event.data ?? null) as JSONType,
            metadata: (event.metadata ?? {}) as JSONType,
          }),
        ),
        { streamState },
      );
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        // The legacy error constructor reports a missing stream as -1.
        const actual = error.actualState === -1n ? 'no_stream' : error.actualState;
        throw new WrongExpectedRevisionError(stream, expected, actual);
      }
      throw error;
    }
    if (!result.success) {
      // `throwOnAppendFailure=false` in the connection string: the refusal comes back as a
      // result. Its revision is not reliable (the batch-append path reports a boolean), so the
      // stream's actual revision is read back.
      throw new WrongExpectedRevisionError(stream, expected, await this.currentRevision(stream));
    }
    const position =
      result.position?.commit ?? (await this.positionOf(stream, result.nextExpectedRevision));
    return { nextRevision: result.nextExpectedRevision, position };
  }

  async *readStream(stream: string, { from = 0n }: ReadStreamOptions = {}) {
    try {
      for await (const resolved of this.client.readStream(stream, { fromRevision: from })) {
        if (resolved.event) yield toRecorded(resolved.event as JSONRecordedEvent);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return;
      throw error;
    }
  }

  async *readAll({ from, batch = 1000, direction = 'forwards', filter }: ReadAllOptions = {}) {
    if (!(batch >= 1)) throw new Error(`readAll needs a batch of at least 1, not ${batch}`);
    const backwards = direction === 'backwards';
    const { server, matches } = filterOf(filter);
    // Forwards: events after `checkpoint`. Backwards: events before it (none given: the end).
    let checkpoint = from ?? (backwards ? undefined : 0n);
    if (backwards && checkpoint !== undefined && checkpoint <= 0n) return;
    for (;;) {
      // Reads are inclusive: a read from a checkpoint returns the checkpoint's own event first,
      // which was delivered already. Ask for one more so that a page still holds `batch` new ones.
      const reread = backwards ? checkpoint !== undefined : (checkpoint ?? 0n) > 0n;
      const maxCount = reread ? batch + 1 : batch;
      let read = 0;
      let passed = 0;
      for await (const resolved of this.client.readAll({
        fromPosition: checkpoint === undefined ? END : positionAt(checkpoint),
        direction: backwards ? BACKWARDS : FORWARDS,
        maxCount,
        filter: server,
      })) {
        read++;
        const event = resolved.event;
        if (!event) continue;
        const position = positionOf(event);
        if (
          checkpoint !== undefined &&
          (backwards ? position >= checkpoint : position <= checkpoint)
        )
          continue;
        checkpoint = position;
        passed++;
        if (matches(event)) yield toRecorded(event);
      }
      // A short page is the end of the log (backwards: its start).
      if (read < maxCount) return;
      if (passed === 0) {
        throw new Error(
          `readAll: a full page of ${read} events at position ${checkpoint}; events sharing a commit position are not supported`,
        );
      }
    }
  }

  async *subscribeAll({ from = 0n, signal }: SubscribeAllOptions = {}) {
    if (signal?.aborted) return;
    this.usedGrpc = true;
    const subscription = this.client.subscribeToAll({
      fromPosition: positionAt(from),
      filter: excludeSystemEvents(),
    });
    const stop = () => void subscription.unsubscribe().catch(() => {});
    signal?.addEventListener('abort', stop, { once: true });
    try {
      for await (const resolved of subscription) {
        if (signal?.aborted) return;
        const event = resolved.event;
        if (!event || positionOf(event) <= from) continue;
        yield toRecorded(event);
      }
    } finally {
      signal?.removeEventListener('abort', stop);
      // A subscription that never opened can fail to unsubscribe: that must not hide why.
      await subscription.unsubscribe().catch(() => {});
    }
  }

  /** Cancels the open calls and closes the gRPC channel; safe to call more than once. */
  close(): Promise<void> {
    this.closed ??= (async () => {
      await this.client.dispose();
      // `dispose()` leaves the channel open. Asking for it opens one if there is none, so only
      // a client that made gRPC calls is asked. (The Rust bridge behind the reads has no close.)
      if (this.usedGrpc) {
        const channel = await (this.client as unknown as WithChannel).getChannel();
        channel.close();
      }
    })();
    return this.closed;
  }

  /** The revision of a stream's last event, or `'no_stream'`. */
  private async currentRevision(stream: string): Promise<bigint | 'no_stream'> {
    try {
      for await (const resolved of this.client.readStream(stream, {
        fromRevision: END,
        direction: BACKWARDS,
        maxCount: 1,
      })) {
        if (resolved.event) return resolved.event.revision;
      }
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
    return 'no_stream';
  }

  /** The position of an appended event, read back when the append result carries none. */
  private async positionOf(stream: string, revision: bigint): Promise<bigint> {
    for await (const resolved of this.client.readStream(stream, {
      fromRevision: revision,
      maxCount: 1,
    })) {
      if (resolved.event?.position) return resolved.event.position.commit;
    }
    throw new Error(
      `KurrentDB appended to ${stream} (revision ${revision}) but returned no log position for it; read-your-writes needs one, and a server that returns none is not supported`,
    );
  }
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A `ReadAllFilter` as KurrentDB reads it. The server filters on one thing per read, event types
 * or stream names: with types, the server matches them exactly (a regular expression, which also
 * keeps system events out) and the stream prefixes are checked here; with stream prefixes only,
 * the server matches them (`streamNameFilter`) and system events are left out here; with neither,
 * the server leaves out system events (`excludeSystemEvents`).
 */
const filterOf = (filter: ReadAllFilter | undefined) => {
  const types = [...new Set(filter?.types ?? [])];
  const prefixes = [...new Set(filter?.streamPrefixes ?? [])];
  const inStreams = (event: RecordedJson) =>
    prefixes.length === 0 || prefixes.some((prefix) => event.streamId.startsWith(prefix));
  if (types.length) {
    return {
      server: eventTypeFilter({ regex: `^(?:${types.map(escapeRegex).join('|')})$` }),
      matches: inStreams,
    };
  }
  if (prefixes.length) {
    return {
      server: streamNameFilter({ prefixes }),
      matches: (event: RecordedJson) => !event.type.startsWith('$') && inStreams(event),
    };
  }
  return { server: excludeSystemEvents(), matches: () => true };
};

const positionAt = (commit: bigint): Position | typeof START =>
  commit <= 0n ? START : { commit, prepare: commit };

/** An event's commit position. A made-up one (such as -1) would switch read-your-writes off. */
const positionOf = (event: RecordedJson): bigint => {
  if (event.position) return event.position.commit;
  throw new Error(
    `KurrentDB returned event ${event.id} of ${event.streamId} without a log position; a server that returns none is not supported`,
  );
};

const toRecorded = (event: RecordedJson): RecordedEvent => ({
  id: event.id,
  stream: event.streamId,
  revision: event.revision,
  position: positionOf(event),
  type: event.type,
  data: event.data,
  metadata: (event.metadata ?? {}) as Record<string, unknown>,
  recordedAt: event.created,
});
