import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createThrowawayDatabase, postgresReachable } from '@astra/event-store/testing';
import { describe, expect, it } from 'vitest';
import { buildApi } from '../build.ts';
import { startBundledApi } from './bundledApi.ts';

/** `npm start`'s server, built as it builds it, in a child process on a free port. */
async function startApi(env: Record<string, string>) {
  await buildApi();
  return startBundledApi(env);
}

/**
 * A sign-in whose body arrives in two parts, the rest when `sendRest` is called: a request in
 * flight meanwhile. `handling` resolves once the server is handling it: it asked for the body
 * (`Expect: 100-continue` is answered when the server has read the request's head).
 */
function slowSignIn(url: string, email: string) {
  const body = JSON.stringify({ email });
  const half = Math.floor(body.length / 2);
  let sendRest: () => void = () => {};
  let handled: () => void = () => {};
  const handling = new Promise<void>((resolve) => {
    handled = resolve;
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      `${url}/api/auth/dev-login`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          expect: '100-continue',
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.on('continue', () => {
      req.write(body.slice(0, half), () => handled());
      sendRest = () => req.end(body.slice(half));
    });
    req.flushHeaders();
  });
  return { answer, handling, sendRest: () => sendRest() };
}

const signal = (child: ChildProcess, name: NodeJS.Signals) => {
  expect(child.kill(name)).toBe(true);
};

describe('graceful shutdown', () => {
  it('on SIGTERM stops accepting, finishes the request in flight with 200, and exits 0', async () => {
    const database = (await postgresReachable()) ? await createThrowawayDatabase() : undefined;
    const dataDir = await mkdtemp(join(tmpdir(), 'astra-shutdown-'));
    const api = await startApi({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ...(database ? { DATABASE_URL: database.url } : {}),
    });
    try {
      // The read models answer: the projector runs (it must stop after its batch).
      expect((await fetch(`${api.url}/api/health`)).status).toBe(200);

      const slow = slowSignIn(api.url, 'slow@example.com');
      await slow.handling;
      signal(api.child, 'SIGTERM');
      // No new connections once shutting down…
      await expect
        .poll(
          () =>
            fetch(`${api.url}/api/health`).then(
              () => 'accepted',
              () => 'refused',
            ),
          {
            timeout: 10_000,
          },
        )
        .toBe('refused');
      // …while the request in flight completes.
      slow.sendRest();
      const answer = await slow.answer;
      expect(answer.status, answer.body).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ email: 'slow@example.com' });

      expect(await api.exited).toBe(0);
      const lines = api
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string; level: string });
      expect(lines.map((l) => l.msg)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^SIGTERM: shutting down/),
          expect.stringMatching(/^Stopped: requests finished, projector stopped, database closed/),
        ]),
      );
    } finally {
      if (api.child.exitCode === null) api.child.kill('SIGKILL');
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
