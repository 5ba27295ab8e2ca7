import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createThrowawayDatabase, postgresForTests } from '@astra/event-store/testing';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');

describe.runIf(await postgresForTests())('the projector process (PostgreSQL)', () => {
  it('logs JSON lines, and on SIGTERM stops after its batch and exits 0', async () => {
    const database = await createThrowawayDatabase();
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/projector/src/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        DATA_KEY_SECRET: 'the-master-secret-of-this-projector-test',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const until = Date.now() + 60_000;
      while (!output.includes('following the event log')) {
        if (Date.now() > until || child.exitCode !== null) throw new Error(output);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      child.kill('SIGTERM');
      expect(await exited, output).toBe(0);
      const lines = output
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.map((l) => l.msg)).toEqual([
        expect.stringMatching(/: waiting to lead…$/),
        expect.stringMatching(/: leading \(term 1\), following the event log\.$/),
        'SIGTERM: stopping after the current batch',
        'Stopped: the batch committed, the lock released',
      ]);
      for (const line of lines)
        expect(line).toMatchObject({ name: 'astra-projector', level: 'info' });
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await database.drop();
    }
  }, 120_000);
});
