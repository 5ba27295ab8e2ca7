/**
 * Test support: a real PostgreSQL primary and hot standby on this machine (`initdb`,
 * `pg_basebackup -R`, streaming replication), each on a port of its own, for the tests and
 * benchmarks of read replicas. Built from the server binaries; without them, null with one line
 * (a failure under `REQUIRE_TEST_SERVICES=1`).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort, requireService } from './testing.ts';

const run = promisify(execFile);

/** The newest PostgreSQL server binaries (`PG_BINDIR`, else Debian's `/usr/lib/postgresql/N/bin`). */
async function serverBinaries(): Promise<string | null> {
  if (process.env.PG_BINDIR) return process.env.PG_BINDIR;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? await readdir(root) : [];
  const newest = versions
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_basebackup')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return newest ? join(root, newest, 'bin') : null;
}

export interface ReplicatedPostgres {
  /** A database URL on the primary (commands, the log). */
  primaryUrl(database?: string): string;
  /** The same database on the standby (read-only, replayed from the primary). */
  standbyUrl(database?: string): string;
  /** Creates a database on the primary; the standby replays it. */
  createDatabase(name: string): Promise<void>;
  /** The standby applies each commit `ms` after the primary made it (`recovery_min_apply_delay`). */
  setApplyDelay(ms: number): Promise<void>;
  stopStandby(): Promise<void>;
  startStandby(): Promise<void>;
  stop(): Promise<void>;
}

/** Whether this machine can build a replicated pair (one line, or a failure, when it cannot). */
export const replicationAvailable = async () =>
  requireService(
    'PostgreSQL server binaries',
    (await serverBinaries()) !== null,
    'no initdb/pg_basebackup',
  );

/** A primary and a hot standby, in a temporary directory removed by `stop()`. */
export async function replicatedPostgres(
  options: { applyDelayMs?: number } = {},
): Promise<ReplicatedPostgres | null> {
  if (!(await replicationAvailable())) return null;
  const bin = (await serverBinaries())!;
  // The server refuses to run as root: as root, run its tools as the postgres user.
  const asRoot = process.getuid?.() === 0;
  const tool = (name: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(bin, name), ...args], { cwd: '/' })
      : run(join(bin, name), args, { cwd: '/' });

  const dir = await mkdtemp(join(tmpdir(), 'astra-replication-'));
  if (asRoot) await run('chown', ['postgres', dir]);
  await chmod(dir, 0o700);
  const primary = join(dir, 'primary');
  const standby = join(dir, 'standby');
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const pgCtl = (data: string, ...args: string[]) =>
    tool('pg_ctl', ['-D', data, '-l', `${data}.log`, '-w', '-t', '60', ...args]);

  // Fast and disposable: no fsync; the sockets in our own directory.
  const settings = (port: number) =>
    [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'wal_level = replica',
      'max_wal_senders = 5',
      'max_connections = 100',
      'shared_buffers = 64MB',
      // Replay does not cancel standby reads of rows the primary vacuumed since (it still waits
      // behind them for locks, such as a rebuild's swap: max_standby_streaming_delay).
      'hot_standby_feedback = on',
      '',
    ].join('\n');
  try {
    await tool('initdb', ['-D', primary, '-U', 'postgres', '--auth=trust', '-N', '-E', 'UTF8']);
    await appendFile(join(primary, 'postgresql.conf'), settings(primaryPort));
    await pgCtl(primary, 'start');
    await tool('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      standby,
      '-R',
      '-X',
      'stream',
      '--checkpoint=fast',
    ]);
    await appendFile(
      join(standby, 'postgresql.conf'),
      `${settings(standbyPort)}recovery_min_apply_delay = '${options.applyDelayMs ?? 0}ms'\n`,
    );
    await pgCtl(standby, 'start');
  } catch (error) {
    await pgCtl(primary, 'stop', '-m', 'immediate').catch(() => {});
    await rm(dir, { recursive: true, force: true });
    throw error;
  }

  const urlOf = (port: number, database = 'postgres') =>
    `postgres://postgres@127.0.0.1:${port}/${database}`;
  const stopped = { standby: false };
  return {
    primaryUrl: (database) => urlOf(primaryPort, database),
    standbyUrl: (database) => urlOf(standbyPort, database),
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: urlOf(primaryPort) });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
    },
    async setApplyDelay(ms) {
      await appendFile(join(standby, 'postgresql.conf'), `recovery_min_apply_delay = '${ms}ms'\n`);
      await pgCtl(standby, 'reload');
    },
    async stopStandby() {
      await pgCtl(standby, 'stop', '-m', 'immediate');
      stopped.standby = true;
    },
    async startStandby() {
      await pgCtl(standby, 'start');
      stopped.standby = false;
    },
    async stop() {
      if (!stopped.standby) await pgCtl(standby, 'stop', '-m', 'immediate').catch(() => {});
      await pgCtl(primary, 'stop', '-m', 'immediate').catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
