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
import { Wakeup } from '../wakeup.ts';
import { DEFAULT_HORIZON_STALL_MS, headAndHorizon, waitForHorizon } from './horizon.ts';
import type { Listen } from './notifications.ts';
import { createEventsTable, MAX_EVENTS_PER_TRANSACTION } from './schema.ts';
import type { SqlClient } from './sql-client.ts';
import {
  announceSql,
  appendStatementOf,
  END_OF_LOG,
  EVENTS_CHANNEL,
  filteredReadParams,
  filteredReadSql,
  type PageRow,
  pageOf,
  readAllSql,
  readStreamSql,
  sqlFilterOf,
  streamHeadSql,
  toRecorded,
  violatedConstraint,
} from './statements.ts';

export interface PostgresEventStoreOptions {
  /**
   * How often a caught-up subscription looks for events appended by other processes; with
   * `notifications`, only the fallback for notifications lost (a dropped listening connection).
   */
  pollIntervalMs?: number;
  /**
   * LISTEN/NOTIFY on PostgreSQL: appends are announced on `EVENTS_CHANNEL` and subscriptions
   * wake on announcements from every process (without it, only on this store's own appends).
   */
  notifications?: Listen;
  /** Runs when the store closes (ends the pool or the PGlite instance). */
  onClose?: () => Promise<void>;
  kind?: string;
  /**
   * How long a `readAll` waits at its end for transactions still running below the log's head
   * (default 30 s), before it fails with `LogHorizonStalledError`.
   */
  horizonWaitMs?: number;
}

/**
 * Lets a query just asked for reach the server before the reader goes on. `pg`'s pool sends it
 * from a `process.nextTick`, which runs only once the microtasks are done; a reader working
 * through a page in a `for await` loop is all microtasks, so without this the next page would be
 * asked for only after this one was worked through, and never read meanwhile.
 */
const sent = () => new Promise<void>((resolve) => process.nextTick(resolve));

const MAX_ANY_RETRIES = 20;

/**
 * The least time between two announcements of one process. Under a steady stream of appends
 * the announcements would otherwise run back to back, each a statement and a commit taking
 * PostgreSQL's notification lock: a millisecond's wait folds every append of that millisecond
 * into one announcement, and a reader in another process learns of them at most that much later.
 */
const ANNOUNCE_EVERY_MS = 1;

export class PostgresEventStore implements EventStore {
  readonly kind: string;
  private readonly appended = new Wakeup();
  /** The newest position known to be committed (appended here, or announced by others). */
  private newest = 0n;
  /** Announcements to send: the newest position not yet announced, and the one being sent. */
  private unannounced: bigint | null = null;
  private announcing: Promise<void> | undefined;
  private readonly pollIntervalMs: number;
  private readonly horizonWaitMs: number;

  constructor(
    private readonly sql: SqlClient,
    private readonly options: PostgresEventStoreOptions = {},
  ) {
    this.kind = options.kind ?? 'postgres';
    this.pollIntervalMs = options.pollIntervalMs ?? 50;
    this.horizonWaitMs = options.horizonWaitMs ?? DEFAULT_HORIZON_STALL_MS;
  }

  /** Creates the events table when missing and returns the store. */
  static async open(sql: SqlClient, options: PostgresEventStoreOptions = {}) {
    await sql.exec(createEventsTable);
    return new PostgresEventStore(sql, options);
  }

  async append(
    stream: string,
    events: readonly NewEvent[],
    { expected }: { expected: ExpectedRevision },
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    if (BigInt(events.length) > MAX_EVENTS_PER_TRANSACTION) {
      throw new Error(`append takes at most ${MAX_EVENTS_PER_TRANSACTION} events`);
    }
    const { statement, params, mode } = appendStatementOf(stream, events, expected);
    for (let attempt = 0; ; attempt++) {
      let appended: { position: string; revision: string } | undefined;
      try {
        const { rows } = await this.sql.query<{ position: string; revision: string }>(
          statement.text,
          params,
          statement.name,
        );
        appended = rows.at(-1);
      } catch (error) {
        const constraint = violatedConstraint(error);
        if (constraint === 'events_event_id_key') {
          throw new Error(`An event with one of these ids was already appended (${stream})`);
        }
        if (constraint !== 'events_stream_revision_key') throw error;
      }
      if (appended) {
        const position = BigInt(appended.position);
        this.committed(position);
        this.announce(position);
        return { nextRevision: BigInt(appended.revision), position };
      }
      // Nothing appended: the stream was not where `expected` said, or another append took the
      // next revision first. `any` and `stream_exists` only lost such a race: they try again.
      const retries = attempt < MAX_ANY_RETRIES;
      if (mode === 'any' && retries) continue;
      const head = await this.head(stream);
      if (mode === 'stream_exists' && head !== 'no_stream' && retries) continue;
      throw new WrongExpectedRevisionError(stream, expected, head);
    }
  }

  async *readStream(stream: string, { from = 0n }: ReadStreamOptions = {}) {
    const pageSize = 1000;
    const read = async (revision: bigint) =>
      pageOf(
        (await this.sql.query<PageRow>(readStreamSql, [stream, revision.toString(), pageSize]))
          .rows,
      );
    let next = read(from);
    try {
      for (;;) {
        const page = await next;
        if (page.length < pageSize) {
          for (const row of page) yield toRecorded(row);
          return;
        }
        // The next page is read while the reader works through this one.
        next = read(BigInt(page[page.length - 1]![2]) + 1n);
        await sent();
        for (const row of page) yield toRecorded(row);
      }
    } finally {
      next.catch(() => {});
    }
  }

  async *readAll(options?: ReadAllOptions) {
    for await (const page of this.readAllPages(options)) yield* page;
  }

  async *readAllPages({
    from,
    batch = 1000,
    direction = 'forwards',
    filter,
    elideFrom,
  }: ReadAllOptions = {}) {
    if (!(batch >= 1)) throw new Error(`readAll needs a batch of at least 1, not ${batch}`);
    const sqlFilter = sqlFilterOf(filter, elideFrom ?? null);
    const plain =
      direction === 'forwards' && !sqlFilter.types && !sqlFilter.patterns && !sqlFilter.elideFrom;
    const text = plain ? readAllSql : filteredReadSql(direction, sqlFilter);
    const extra = filteredReadParams(sqlFilter);
    let checkpoint = from ?? (direction === 'forwards' ? 0n : END_OF_LOG);
    // Forwards, the read ends with everything committed up to the log's head as it stood at the
    // first short page: `end` is that head; `final` says the horizon had passed it before the
    // last page was read (so that page missed nothing below it).
    let end: bigint | null = null;
    let final = false;
    const read = async (after: bigint) =>
      pageOf((await this.sql.query<PageRow>(text, [after.toString(), batch, ...extra])).rows);
    let next = read(checkpoint);
    try {
      for (;;) {
        const page = await next;
        // A full page: the next one is read while the reader works through this one.
        const full = page.length === batch;
        if (full) {
          next = read(BigInt(page[page.length - 1]![0]));
          await sent();
        }
        const events: RecordedEvent[] = [];
        for (const row of page) {
          const event = toRecorded(row);
          checkpoint = event.position;
          if (row[8] === false) continue;
          if (row[9]) event.elided = true;
          events.push(event);
        }
        if (events.length > 0) yield events;
        if (full) continue;
        if (direction === 'backwards' || final) return;
        const { head, horizon } = await headAndHorizon(this.sql);
        end ??= head ?? 0n;
        if (checkpoint >= end) return;
        // A short page may have been cut at the horizon while events committed above it (a
        // transaction still running below them): wait for the horizon, then read on to `end`.
        if (horizon <= end) await waitForHorizon(this.sql, end, this.horizonWaitMs);
        final = true;
        next = read(checkpoint);
      }
    } finally {
      // A reader that stopped early leaves the next page's read in flight: its outcome is unused.
      next.catch(() => {});
    }
  }

  /**
   * Caught up, a subscription sleeps until an append here or an announcement (`notifications`)
   * wakes it, or the poll interval passes. A wake-up only says to read: an event known committed
   * but not read (an older transaction still open holds the horizon below it, or it committed
   * after the read) is looked for again soon, with backoff up to the poll interval.
   */
  async *subscribeAll({ from = 0n, signal }: SubscribeAllOptions = {}) {
    const batch = 1000;
    let checkpoint = from;
    let pause = 1;
    const stopListening = this.options.notifications?.listen(EVENTS_CHANNEL, this.announced);
    try {
      while (!signal?.aborted) {
        const events = await this.readBatch(checkpoint, batch);
        for (const event of events) {
          if (signal?.aborted) return;
          checkpoint = event.position;
          yield event;
        }
        if (events.length === batch) continue;
        if (this.newest > checkpoint) {
          await this.appended.wait(pause, signal);
          pause = Math.min(pause * 2, this.pollIntervalMs);
        } else {
          pause = 1;
          await this.appended.wait(this.pollIntervalMs, signal);
        }
      }
    } finally {
      stopListening?.();
    }
  }

  async close() {
    this.appended.wake();
    await this.announcing;
    await this.options.onClose?.();
  }

  /** A position known committed: wakes the subscriptions. */
  private committed(position: bigint) {
    if (position > this.newest) this.newest = position;
    this.appended.wake();
  }

  /** Another process's announcement (null: some may have been missed): wakes the subscriptions. */
  private readonly announced = (payload: string | null) => {
    if (payload && /^\d+$/.test(payload)) this.committed(BigInt(payload));
    else this.appended.wake();
  };

  /** Tells other processes of an append; one announcement at a time, of the newest position. */
  private announce(position: bigint) {
    if (!this.options.notifications) return;
    if (this.unannounced === null || position > this.unannounced) this.unannounced = position;
    this.announcing ??= this.sendAnnouncements();
  }

  private async sendAnnouncements() {
    for (;;) {
      const position = this.unannounced;
      if (position === null) {
        this.announcing = undefined;
        return;
      }
      this.unannounced = null;
      // Lost, it only leaves the subscribers to their polling.
      await this.sql
        .query(announceSql.text, [position.toString()], announceSql.name)
        .catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, ANNOUNCE_EVERY_MS));
    }
  }

  private async readBatch(after: bigint, limit: number) {
    const { rows } = await this.sql.query<PageRow>(readAllSql, [after.toString(), limit]);
    return pageOf(rows).map(toRecorded);
  }

  private async head(stream: string): Promise<bigint | 'no_stream'> {
    const { rows } = await this.sql.query<{ revision: string | null }>(streamHeadSql, [stream]);
    const revision = rows[0]?.revision;
    return revision == null ? 'no_stream' : BigInt(revision);
  }
}
