import { randomUUID } from 'node:crypto';
import {
  type AllStreamRecordedEvent,
  ANY,
  type AppendStreamState,
  excludeSystemEvents,
  type JSONRecordedEvent,
  jsonEvent,
  KurrentDBClient,
  NO_STREAM,
  type Position,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeAllOptions,
  WrongExpectedRevisionError,
} from '../port.ts';

type JsonData = Record<string, unknown>;

/**
 * The event log on KurrentDB / EventStoreDB. Global positions are the log's commit positions;
 * `$all` readers leave out system events.
 */
export class KurrentDbEventStore implements EventStore {
  readonly kind = 'kurrentdb';

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
    try {
      const result = await this.client.appendToStream(
        stream,
        events.map((event) =>
          jsonEvent({
            id: event.id ?? randomUUID(),
            type: event.type,
            data: (event.data ?? {}) as JsonData,
            metadata: (event.metadata ?? {}) as JsonData,
          }),
        ),
        { streamState },
      );
      return {
        nextRevision: result.nextExpectedRevision,
        position: result.position?.commit ?? -1n,
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        throw new WrongExpectedRevisionError(stream, expected, error.actualState);
      }
      throw error;
    }
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

  async *readAll({ from = 0n, batch = 1000 }: ReadAllOptions = {}) {
    let checkpoint = from;
    for (;;) {
      let read = 0;
      for await (const resolved of this.client.readAll({
        fromPosition: positionAt(checkpoint),
        maxCount: batch,
        filter: excludeSystemEvents(),
      })) {
        read++;
        const event = resolved.event;
        // The read starts at the checkpoint itself, which was delivered already.
        if (!event || event.position.commit <= checkpoint) continue;
        checkpoint = event.position.commit;
        yield toRecorded(event);
      }
      if (read < batch) return;
    }
  }

  async *subscribeAll({ from = 0n, signal }: SubscribeAllOptions = {}) {
    if (signal?.aborted) return;
    const subscription = this.client.subscribeToAll({
      fromPosition: positionAt(from),
      filter: excludeSystemEvents(),
    });
    const stop = () => void subscription.unsubscribe();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      for await (const resolved of subscription) {
        if (signal?.aborted) return;
        const event = resolved.event;
        if (!event || event.position.commit <= from) continue;
        yield toRecorded(event);
      }
    } finally {
      signal?.removeEventListener('abort', stop);
      await subscription.unsubscribe();
    }
  }

  async close() {
    await this.client.dispose();
  }
}

const positionAt = (commit: bigint): Position | typeof START =>
  commit <= 0n ? START : { commit, prepare: commit };

const toRecorded = (event: JSONRecordedEvent | AllStreamRecordedEvent): RecordedEvent => ({
  id: event.id,
  stream: event.streamId,
  revision: event.revision,
  // Stream reads on older servers carry no log position.
  position: event.position?.commit ?? -1n,
  type: event.type,
  data: event.data,
  metadata: (event.metadata ?? {}) as Record<string, unknown>,
  recordedAt: event.created,
});
