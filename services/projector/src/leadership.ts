import { hostname } from 'node:os';
import {
  type BatchFence,
  CLAIM_SQL,
  HOLDS_LOCK_SQL,
  LEADERS_TABLE_SQL,
  sleep,
  stillLeads,
  TRY_LOCK_SQL,
} from '@astra/projections';
import pg from 'pg';

export interface LeadershipOptions {
  databaseUrl: string;
  /** The projections this process runs (comma-separated): one lock, one leader, per set. */
  name: string;
  logger: {
    info(fields: object, message: string): void;
    warn(fields: object, message: string): void;
  };
  /** How often a standby tries the lock (a dead leader's successor starts within it). */
  pollMs?: number;
  /** How often the leader checks it still holds the lock, and how long it waits for the answer. */
  heartbeatMs?: number;
  heartbeatTimeoutMs?: number;
}

/** One term of this process as leader: it ends when the lock or its connection is lost. */
export interface Term {
  term: bigint;
  /** Settles with the reason once the lead is lost (never when `release` ends it). */
  lost: Promise<string>;
  /** For `ProjectorOptions.fence`: a batch commits only while this term leads. */
  fence: BatchFence;
  /** Gives the lead up (shutting down): the lock's session ends. */
  release(): Promise<void>;
}

/** Thrown by a batch of a projector that no longer leads: the batch rolls back. */
export class NotLeadingError extends Error {}

/**
 * Leadership among projector replicas: a session advisory lock on a connection of its own (not
 * the pool's, whose connections come and go). A standby tries the lock every `pollMs`; PostgreSQL
 * frees a leader's lock when its session ends, which a `kill -9` does at once (the socket
 * closes). The leader checks the lock every `heartbeatMs` with a short timeout and listens for
 * its connection's end: a loss is known within `heartbeatMs + heartbeatTimeoutMs` (< 1 s).
 */
export class Leadership {
  private readonly pollMs: number;
  private readonly heartbeatMs: number;
  private readonly heartbeatTimeoutMs: number;

  constructor(private readonly options: LeadershipOptions) {
    this.pollMs = options.pollMs ?? 500;
    this.heartbeatMs = options.heartbeatMs ?? 250;
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 600;
  }

  /** Waits until this process leads: its term, or null once `signal` aborts. */
  async acquire(signal: AbortSignal): Promise<Term | null> {
    while (!signal.aborted) {
      const client = this.client();
      try {
        await client.connect();
        // A vanished host (no FIN, no RST) frees the lock after the server's keepalives fail:
        // ~4 s rather than the kernel's default two hours.
        await client.query(
          'SET tcp_keepalives_idle = 2; SET tcp_keepalives_interval = 1; SET tcp_keepalives_count = 2',
        );
        while (!signal.aborted) {
          const { rows } = await client.query(TRY_LOCK_SQL, [this.options.name]);
          if (rows[0]?.held) return await this.lead(client);
          await sleep(this.pollMs, signal);
        }
      } catch (error) {
        this.options.logger.warn(
          { err: error },
          `Projector: cannot reach the database to lead (${(error as Error).message}); trying again`,
        );
        await sleep(this.pollMs, signal);
      }
      await client.end().catch(() => {});
    }
    return null;
  }

  private client() {
    const client = new pg.Client({
      connectionString: this.options.databaseUrl,
      application_name: 'astra-projector-leader',
      keepAlive: true,
      keepAliveInitialDelayMillis: 1000,
    });
    // A standby's lost connection shows in its next query; a leader's is handled in `lead`.
    client.on('error', () => {});
    return client;
  }

  private async lead(client: pg.Client): Promise<Term> {
    const { name } = this.options;
    await client.query(LEADERS_TABLE_SQL);
    // Waits for the batches of a former leader that passed their fence to commit.
    const { rows } = await client.query<{ term: string }>(CLAIM_SQL, [
      name,
      process.pid,
      hostname(),
    ]);
    const term = BigInt(rows[0]!.term);
    let ended = false;
    let heartbeat: NodeJS.Timeout | undefined;
    let tell: (reason: string) => void = () => {};
    const lost = new Promise<string>((resolve) => {
      tell = resolve;
    });
    const end = () => {
      ended = true;
      clearTimeout(heartbeat);
      client.removeAllListeners('end');
      // Ends the session too when only the answers were lost: else it would keep the lock.
      return client.end().catch(() => {});
    };
    const lose = (reason: string) => {
      if (ended) return;
      end();
      tell(reason);
    };
    client.on('error', (error) => lose(`its connection failed: ${error.message}`));
    client.on('end', () => lose('its connection ended'));
    const beat = async () => {
      let timer: NodeJS.Timeout | undefined;
      // The timeout looks once more at what the socket brought (`setImmediate` runs after I/O),
      // so a busy event loop (a large batch) does not pass for a silent server.
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => setImmediate(() => resolve('late')), this.heartbeatTimeoutMs);
      });
      try {
        const answer = await Promise.race([client.query(HOLDS_LOCK_SQL, [name]), late]);
        if (answer === 'late')
          return lose(`its lock check had no answer in ${this.heartbeatTimeoutMs} ms`);
        if (!answer.rows[0]?.held) return lose('its session no longer holds the lock');
      } catch (error) {
        return lose(`its lock check failed: ${(error as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
      if (!ended) heartbeat = setTimeout(beat, this.heartbeatMs);
    };
    heartbeat = setTimeout(beat, this.heartbeatMs);
    return {
      term,
      lost,
      fence: async (trx) => {
        if (ended || !(await stillLeads(trx, name, term))) {
          lose(`term ${term} is over`);
          throw new NotLeadingError(`This projector no longer leads (term ${term})`);
        }
      },
      release: async () => {
        if (!ended) await end();
      },
    };
  }
}
