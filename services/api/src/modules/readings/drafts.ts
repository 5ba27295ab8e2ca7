import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Logger } from '../../observability/logger.ts';
import type { AppDb } from '../../storage/appDatabase.ts';

/**
 * The text of readings while they are written. The writing process holds each one live in
 * memory (its readers here are woken at every piece) and stores it in `app.reading_drafts`
 * every `DRAFT_FLUSH_MS`, so that a reader on another API process finds the text so far there
 * (polling every `DRAFT_POLL_MS`). A draft lives from the spend to the recorded result or
 * failure; after that the reading's own stream holds the outcome.
 */

export const DRAFT_FLUSH_MS = 200;
export const DRAFT_POLL_MS = 200;
/** A stored draft this old belongs to no writing any more (a crash's leftover). */
const STALE_DRAFT_MS = 24 * 3_600_000;

/** A draft as a reader sees it. */
export interface Draft {
  /** One writing of the reading: a re-run after a crash starts a new one, with no text. */
  run: string;
  /** The reading's `result` with its text still empty: the facts. */
  result: Record<string, unknown>;
  /** The text so far. */
  text: string;
}

/** A reading being written in this process. */
export class LiveDraft implements Draft {
  text = '';
  closed = false;
  /** Stops the writing (a shutdown that cannot wait for it any longer). */
  readonly stop = new AbortController();
  private readonly waiters = new Set<() => void>();
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    readonly readingId: string,
    readonly run: string,
    readonly result: Record<string, unknown>,
    private readonly drafts: ReadingDrafts,
  ) {}

  /** More text: readers here at once, readers elsewhere at the next flush. */
  append(piece: string) {
    if (this.closed || !piece) return;
    this.text += piece;
    this.wake();
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      this.flushing = this.flushing.then(() => this.drafts.save(this));
    }, DRAFT_FLUSH_MS);
  }

  /** The writing is over (its outcome is recorded on the reading's stream): the draft goes. */
  async close() {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.flushTimer);
    await this.flushing;
    await this.drafts.remove(this);
    this.wake();
  }

  /** Resolves once the text is longer than `seen` characters or the draft is closed. */
  changed(seen: number, signal: AbortSignal): Promise<void> {
    if (this.closed || this.text.length > seen || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.waiters.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.waiters.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  private wake() {
    for (const waiter of [...this.waiters]) waiter();
  }
}

export class ReadingDrafts {
  private readonly live = new Map<string, LiveDraft>();
  private readonly emptied = new Set<() => void>();
  private readonly closing = new AbortController();

  constructor(
    private readonly appDb: AppDb,
    private readonly logger: Logger,
  ) {}

  /** Aborted when the process shuts down: readers' streams end, and their clients reconnect. */
  get stopping(): AbortSignal {
    return this.closing.signal;
  }

  /** Starts a reading's draft with its facts and no text: stored, and live in this process. */
  async open(readingId: string, result: Record<string, unknown>): Promise<LiveDraft> {
    const run = randomUUID();
    const json = JSON.stringify(result);
    await this.appDb
      .insertInto('reading_drafts')
      .values({ reading_id: readingId, run, result: json, text: '' })
      .onConflict((conflict) =>
        conflict
          .column('reading_id')
          .doUpdateSet({ run, result: json, text: '', updated_at: sql<Date>`now()` }),
      )
      .execute();
    const draft = new LiveDraft(readingId, run, result, this);
    this.live.set(readingId, draft);
    return draft;
  }

  /** The draft as it stands: the live one of this process, else the stored one; null if none. */
  async read(readingId: string): Promise<Draft | null> {
    const live = this.live.get(readingId);
    if (live) return { run: live.run, result: live.result, text: live.text };
    const row = await this.appDb
      .selectFrom('reading_drafts')
      .select(['run', 'result', 'text'])
      .where('reading_id', '=', readingId)
      .executeTakeFirst();
    return row ? { run: row.run, result: row.result, text: row.text } : null;
  }

  /**
   * Resolves when the draft may have grown past `seen` characters, or ended: at its next piece
   * when it is written here, else after `DRAFT_POLL_MS`.
   */
  changed(readingId: string, seen: number, signal: AbortSignal): Promise<void> {
    const live = this.live.get(readingId);
    if (live) return live.changed(seen, signal);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, DRAFT_POLL_MS);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Stores a live draft's text so far (a failure only delays readers elsewhere). */
  async save(draft: LiveDraft) {
    try {
      await this.appDb
        .updateTable('reading_drafts')
        .set({ text: draft.text, updated_at: sql<Date>`now()` })
        .where('reading_id', '=', draft.readingId)
        .where('run', '=', draft.run)
        .execute();
    } catch (error) {
      this.logger.warn({ err: error, readingId: draft.readingId }, 'Storing a draft failed');
    }
  }

  /** Removes a closed live draft (a stored row left behind goes with `purgeStale`). */
  async remove(draft: LiveDraft) {
    try {
      await this.discard(draft.readingId, draft.run);
    } catch (error) {
      this.logger.warn({ err: error, readingId: draft.readingId }, 'Removing a draft failed');
    } finally {
      if (this.live.get(draft.readingId) === draft) this.live.delete(draft.readingId);
      if (this.live.size === 0) for (const waiter of [...this.emptied]) waiter();
    }
  }

  /** Removes a stored draft (of one writing, or any), e.g. of a reading the recovery gave up on. */
  async discard(readingId: string, run?: string) {
    let query = this.appDb.deleteFrom('reading_drafts').where('reading_id', '=', readingId);
    if (run) query = query.where('run', '=', run);
    await query.execute();
  }

  /** Removes stored drafts no writing has touched for a day (left by crashes). */
  async purgeStale() {
    await this.appDb
      .deleteFrom('reading_drafts')
      .where('updated_at', '<', new Date(Date.now() - STALE_DRAFT_MS))
      .execute();
  }

  /**
   * Shutdown: readers' streams end; the texts being written here get `timeoutMs` to finish,
   * then the rest are stopped (their readings fail and are refunded) and their gates awaited.
   */
  async stop(timeoutMs: number) {
    this.closing.abort();
    if (await this.allClosed(timeoutMs)) return;
    this.logger.warn(
      { readings: [...this.live.keys()] },
      'Readings still being written at the shutdown timeout: stopping them',
    );
    for (const draft of this.live.values()) draft.stop.abort(new Error('The server is stopping'));
    await this.allClosed(10_000);
  }

  private allClosed(timeoutMs: number): Promise<boolean> {
    if (this.live.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (closed: boolean) => {
        clearTimeout(timer);
        this.emptied.delete(empty);
        resolve(closed);
      };
      const empty = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.emptied.add(empty);
    });
  }
}
