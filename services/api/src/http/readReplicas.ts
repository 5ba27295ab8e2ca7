import { AsyncLocalStorage } from 'node:async_hooks';
import { replicaPool } from '@astra/event-store';
import {
  allProjections,
  databaseOver,
  liveCheckpointOf,
  PolledProgress,
  type ProjectionProgress,
  READ_SCHEMA,
} from '@astra/projections';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Kysely, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import type { Logger } from '../observability/logger.ts';
import type { Metrics } from '../observability/metrics.ts';

/** How often each standby is checked: does it answer, and how far are its read models. */
const PROBE_MS = 1000;
/** A check not answered in this time counts as the standby being down. */
const PROBE_TIMEOUT_MS = 1000;
/**
 * A standby whose read models are behind where the primary's were this long ago gets no reads:
 * what a request that wrote nothing may read stale is bounded by it.
 */
export const MAX_STALENESS_MS = 5000;
/**
 * A standby cannot LISTEN, so a read waiting on one reads its checkpoints this often. Short: the
 * polls run only while a read waits.
 */
const POLL_MS = 20;

const names = allProjections.map((p) => p.name);

interface Replica {
  /** `host:port/database`, for logs and health (never the credentials). */
  name: string;
  pool: pg.Pool;
  db: Kysely<unknown>;
  /** The checkpoints as the standby has replayed them: its read models include up to here. */
  progress: PolledProgress;
  /** It answered its last check. */
  up: boolean;
  /** Its read models were, at its last check, within `MAX_STALENESS_MS` of the primary's. */
  fresh: boolean;
}

export interface ReplicaStatus {
  name: string;
  up: boolean;
  fresh: boolean;
  /** The position the standby's read models include, as last read. */
  position: string;
}

/**
 * Read replicas (`DATABASE_READ_URL`): a GET request reads the read models from a hot standby once
 * that standby has replayed the session's last write (its checkpoints, replicated with the read
 * models, say so), waiting at most `waitMs`; then it reads the primary (which the session waited
 * for, up to `READ_YOUR_WRITES_TIMEOUT_MS`). A standby that does not answer, or lags more than
 * `MAX_STALENESS_MS`, gets no reads. Commands, the log, sessions and app tables stay on the
 * primary.
 *
 * `middleware` chooses the request's database and runs the rest of the request with it; the
 * Kysely of `read` asks `connect()` for a connection each time, so routes need not know. A write
 * in the request (`wrote()`), or a standby that refuses a connection, moves it to the primary.
 */
export class ReadReplicas {
  private readonly chosen = new AsyncLocalStorage<{ replica: Replica | null }>();
  private readonly replicas: Replica[];
  private next = 0;
  private readonly probe: NodeJS.Timeout;
  private probing = false;
  /** The primary's projected position at each check, newest last (for the staleness bound). */
  private primarySeen: { at: number; position: bigint }[] = [];

  constructor(
    urls: readonly string[],
    private readonly primary: pg.Pool,
    /** How far the primary's read models are (the API's own progress). */
    private readonly primaryProgress: ProjectionProgress,
    private readonly waitMs: number,
    private readonly metrics: Metrics,
    private readonly logger: Logger,
  ) {
    this.replicas = urls.map((url) => {
      const pool = replicaPool(url);
      const db = databaseOver(() => pool.connect());
      const target = new URL(url);
      return {
        name: `${target.hostname}:${target.port || 5432}${target.pathname}`,
        pool,
        db,
        progress: new PolledProgress(db, names, POLL_MS),
        up: true,
        fresh: true,
      };
    });
    this.probe = setInterval(() => void this.probeAll(), PROBE_MS).unref();
  }

  /** A connection for the work at hand: the request's standby, else the primary. */
  connect = async (): Promise<PostgresPoolClient> => {
    const scope = this.chosen.getStore();
    const replica = scope?.replica;
    if (!replica) return this.primary.connect();
    try {
      return await replica.pool.connect();
    } catch (error) {
      this.down(replica, error);
      scope.replica = null;
      return this.primary.connect();
    }
  };

  /**
   * The request wrote (a GET that signs in, say): its later reads go to the primary, which its
   * write is settled on, rather than to a standby that may not have replayed it yet.
   */
  wrote() {
    const scope = this.chosen.getStore();
    if (scope) scope.replica = null;
  }

  /** Chooses where this request reads (after `Sessions`, which knows its last write). */
  readonly middleware: RequestHandler = async (
    req: Request,
    _res: Response,
    next: NextFunction,
  ) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const replica = await this.caughtUp(req.session?.lastPosition ?? 0n);
    this.chosen.run({ replica: replica ?? null }, next);
  };

  status(): ReplicaStatus[] {
    return this.replicas.map(({ name, up, fresh, progress }) => ({
      name,
      up,
      fresh,
      position: progress.position.toString(),
    }));
  }

  async close() {
    clearInterval(this.probe);
    await Promise.all(this.replicas.map((replica) => replica.pool.end()));
  }

  /** A standby (the next in turn) whose read models include `position`, waiting `waitMs` at most. */
  private async caughtUp(position: bigint): Promise<Replica | undefined> {
    const usable = this.replicas.filter((replica) => replica.up && replica.fresh);
    if (usable.length === 0) {
      const reason = this.replicas.some((r) => r.up) ? 'replica stale' : 'no replica up';
      return this.served('primary', reason);
    }
    const ready = usable.filter((replica) => replica.progress.position >= position);
    if (ready.length > 0) {
      this.next = (this.next + 1) % ready.length;
      return this.served('replica', 'caught up', ready[this.next]);
    }
    const first = await Promise.race(
      usable.map(async (replica) =>
        (await replica.progress.waitFor(position, this.waitMs)) ? replica : undefined,
      ),
    );
    return first
      ? this.served('replica', 'waited', first)
      : this.served('primary', 'replica behind');
  }

  private served(
    servedBy: 'replica' | 'primary',
    reason: string,
    replica?: Replica,
  ): Replica | undefined {
    this.metrics.replicaReads.inc({ served_by: servedBy, reason });
    return replica;
  }

  private down(replica: Replica, error: unknown) {
    if (replica.up) this.logger.warn({ err: error, replica: replica.name }, 'Read replica down');
    replica.up = false;
  }

  /** Checks each standby: it answers, and its read models are not too far behind. */
  private async probeAll() {
    if (this.probing) return; // the last check still waits for an answer
    this.probing = true;
    const now = Date.now();
    this.primarySeen.push({ at: now, position: this.primaryProgress.position });
    // The newest of the primary's positions at least MAX_STALENESS_MS old is the bar.
    let bar = 0n;
    while (this.primarySeen.length > 1 && this.primarySeen[1]!.at <= now - MAX_STALENESS_MS)
      this.primarySeen.shift();
    if (this.primarySeen[0]!.at <= now - MAX_STALENESS_MS) bar = this.primarySeen[0]!.position;
    try {
      await Promise.all(this.replicas.map((replica) => this.check(replica, bar)));
    } finally {
      this.probing = false;
    }
  }

  private async check(replica: Replica, bar: bigint) {
    let timer: NodeJS.Timeout | undefined;
    try {
      const position = await Promise.race([
        liveCheckpointOf(replica.db, READ_SCHEMA, names),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('no answer')), PROBE_TIMEOUT_MS);
        }),
      ]);
      if (!replica.up) {
        // Back: perhaps another server behind the same address, so its progress starts afresh.
        replica.progress.close();
        replica.progress = new PolledProgress(replica.db, names, POLL_MS);
        this.logger.info({ replica: replica.name }, 'Read replica up');
      }
      replica.up = true;
      const fresh = position >= bar;
      if (replica.fresh && !fresh)
        this.logger.warn(
          { replica: replica.name, position: String(position), primary: String(bar) },
          `Read replica more than ${MAX_STALENESS_MS} ms behind the primary: no reads until it catches up`,
        );
      replica.fresh = fresh;
    } catch (error) {
      this.down(replica, error);
    } finally {
      clearTimeout(timer);
    }
  }
}
