import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { eventually } from '@astra/event-store/testing';
import { projectorLeaders } from '@astra/projections';
import type { Kysely } from 'kysely';

const root = join(import.meta.dirname, '../../..');

/** One `npm run projector` process (node with tsx, so its pid is the one it records). */
export interface Replica {
  child: ChildProcess;
  pid: number;
  /** Its log lines as they arrive, with when they arrived (`performance.now()`). */
  lines: { msg: string; at: number }[];
  /** When a line matching `pattern` arrived at `since` or later (waiting for it). */
  line(pattern: RegExp, since?: number, timeoutMs?: number): Promise<number>;
  /** SIGTERM, and its exit. */
  stop(): Promise<void>;
}

export function startReplica(env: Record<string, string>): Replica {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/projector/src/main.ts'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Replica['lines'] = [];
  createInterface({ input: child.stdout! }).on('line', (text) => {
    try {
      lines.push({ msg: (JSON.parse(text) as { msg: string }).msg, at: performance.now() });
    } catch {
      lines.push({ msg: text, at: performance.now() });
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    pid: child.pid!,
    lines,
    line: async (pattern, since = 0, timeoutMs = 20_000) => {
      const matching = async () => lines.find((l) => l.at >= since && pattern.test(l.msg));
      return (await eventually(matching, timeoutMs)).at;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The pid of the process that leads now, once one does (and is not `not`). */
export const leaderPid = (db: Kysely<unknown>, not?: number, timeoutMs?: number) =>
  eventually(async () => {
    const [leader] = await projectorLeaders(db);
    return leader && leader.pid !== not ? leader.pid : undefined;
  }, timeoutMs);
