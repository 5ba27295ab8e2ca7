import { AsyncLocalStorage } from 'node:async_hooks';
import { replicaPool } from '@astra/event-store';
import { allProjections, databaseOver, PolledProgress } from '@astra/projections';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import type { Logger } from '../observability/logger.ts';
import type { Metrics } from '../observability/metrics.ts';

/** How often a standby is asked whether it answers (one down is skipped until it does). */
const PROBE_MS = 1000;
/**
 * A standby cannot LISTEN, so a read waiting on one reads its checkpoints this often. Short: the
 * polls run only while a read waits.
 */
const POLL_MS = 20;

interface Replica {
  /** `host:port/database`, for logs and health (never the credentials). */
  name: string;
  pool: pg.Pool;
  /** The checkpoints as the standby has replayed them: its read models include up to here. */
  progress: PolledProgress;
  up: boolean;
}

export interface ReplicaStatus {
  name: string;
  up: boolean;
  /** The position the standby's read models include, as last read. */
  position: string;
}

/**
 * Read replicas (`DATABASE_READ_URL`): a GET request reads the read models from a hot standby once
 * that standby has replayed the session's last write (its checkpoints, replicated with the read
 * models, say so), waiting at most `waitMs`; then it reads the primary, which the session has
 * already waited for. Commands, the log, sessions and app tables stay on the primary.
 *
 * The choice is per request: `middleware` runs the rest of the request with the chosen pool, and
 * the Kysely of `read` asks `connect()` for a connection each time, so routes need not know.
 */
export class ReadReplicas {
  /** The request's pool (an object: a write later in the request moves it to the primary). */
  private readonly chosen = new AsyncLocalStorage<{ pool: pg.Pool }>();
  private readonly replicas: Replica[];
  private next = 0;
  private readonly probe: NodeJS.Timeout;

  constructor(
    urls: readonly string[],
    private readonly primary: pg.Pool,
    private readonly waitMs: number,
    private readonly metrics: Metrics,
    private readonly logger: Logger,
  ) {
    const names = allProjections.map((p) => p.name);
    this.replicas = urls.map((url) => {
      const pool = replicaPool(url);
      const target = new URL(url);
      return {
        name: `${target.hostname}:${target.port || 5432}${target.pathname}`,
        pool,
        progress: new PolledProgress(
          databaseOver(() => pool.connect()),
          names,
          POLL_MS,
        ),
        up: true,
      };
    });
    this.probe = setInterval(() => void this.probeAll(), PROBE_MS).unref();
  }

  /** A connection for the work at hand: the request's replica, else the primary. */
  connect = (): Promise<PostgresPoolClient> =>
    (this.chosen.getStore()?.pool ?? this.primary).connect();

  /**
   * The request wrote (a GET that signs in, say): its later reads go to the primary, which its
   * write is settled on, rather than to a standby that may not have replayed it yet.
   */
  wrote() {
    const scope = this.chosen.getStore();
    if (scope) scope.pool = this.primary;
  }

  /** Chooses where this request reads (after `Sessions`, which knows its last write). */
  readonly middleware: RequestHandler = async (
    req: Request,
    _res: Response,
    next: NextFunction,
  ) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const replica = await this.caughtUp(req.session?.lastPosition ?? 0n);
    if (!replica) return next();
    this.chosen.run({ pool: replica.pool }, next);
  };

  status(): ReplicaStatus[] {
    return this.replicas.map(({ name, up, progress }) => ({
      name,
      up,
      position: progress.position.toString(),
    }));
  }

  async close() {
    clearInterval(this.probe);
    await Promise.all(this.replicas.map((replica) => replica.pool.end()));
  }

  /** A standby (the next in turn) whose read models include `position`, waiting `waitMs` at most. */
  private async caughtUp(position: bigint): Promise<Replica | undefined> {
    const up = this.replicas.filter((replica) => replica.up);
    if (up.length === 0) return this.served('primary', 'no replica up');
    const ready = up.filter((replica) => replica.progress.position >= position);
    if (ready.length > 0) {
      this.next = (this.next + 1) % ready.length;
      return this.served('replica', 'caught up', ready[this.next]);
    }
    const first = await Promise.race(
      up.map(async (replica) =>
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

  private async probeAll() {
    await Promise.all(
      this.replicas.map(async (replica) => {
        const wasUp = replica.up;
        try {
          await replica.pool.query('SELECT 1');
          replica.up = true;
        } catch (error) {
          replica.up = false;
          if (wasUp) this.logger.warn({ err: error, replica: replica.name }, 'Read replica down');
        }
        if (replica.up && !wasUp) this.logger.info({ replica: replica.name }, 'Read replica up');
      }),
    );
  }
}
