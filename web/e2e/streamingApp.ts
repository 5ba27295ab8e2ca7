/**
 * The app as `npm start` runs it (the built web app included), writing its reading texts with
 * OpenAI's API, which here is a loopback double in this process that streams word by word at
 * the pace its caller sets. Used by the streaming browser tests and the reading stream benchmark.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { apiNodeArgs, buildApi } from '../../services/api/build.ts';
import { fakeOpenAi, type Script, type SeenRequest } from '../../services/api/test/openAiDouble.ts';

const root = join(import.meta.dirname, '../..');
export const STREAMING_ADMIN_PASSWORD = 'streaming-admin-password';

export async function startStreamingApp(
  port: number,
  reply: (request: SeenRequest) => 'write' | 'fail' | Script,
) {
  const openAi = await fakeOpenAi(reply);
  const dataDir = mkdtempSync(join(tmpdir(), 'astra-streaming-'));
  const url = `http://127.0.0.1:${port}`;
  await buildApi();
  const app = spawn(process.execPath, apiNodeArgs, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      ADMIN_EMAILS: 'admin@example.com',
      ADMIN_PASSWORD: STREAMING_ADMIN_PASSWORD,
      OPENAI_API_KEY: 'sk-streaming-test',
      OPENAI_BASE_URL: openAi.url,
      OPENAI_MODEL: 'gpt-streaming-test',
      OPENAI_MAX_RETRIES: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => app.once('exit', () => resolve()));
  const stop = async () => {
    app.kill('SIGTERM');
    await exited;
    openAi.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (let i = 0; i < 1200; i++) {
    const healthy = await fetch(`${url}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (healthy) return { url, openAi, stop };
    if (app.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`The app on port ${port} did not start`);
}

/** A new member of the app with `credits` (an admin tops up the free ones), signed in on `request`. */
export async function memberWithCredits(
  request: APIRequestContext,
  admin: APIRequestContext,
  email: string,
  credits: number,
) {
  const answer = await request.post('/api/auth/dev-login', {
    data: { email, fullName: 'Ada Lovelace' },
  });
  if (!answer.ok()) throw new Error(`sign-in failed: ${answer.status()}`);
  const { id, remainingCredits } = (await answer.json()) as {
    id: string;
    remainingCredits: number;
  };
  if (credits === remainingCredits) return id;
  await admin.post('/api/auth/dev-login', { data: { email: 'admin@example.com' } });
  const unlocked = await admin.post('/api/admin/unlock', {
    data: { password: STREAMING_ADMIN_PASSWORD },
  });
  if (!unlocked.ok()) throw new Error(`admin unlock failed: ${unlocked.status()}`);
  const adjusted = await admin.post(`/api/admin/users/${id}/credits`, {
    data: { amount: credits - remainingCredits, reason: 'Streaming tests' },
  });
  if (!adjusted.ok()) throw new Error(`top-up failed: ${adjusted.status()}`);
  return id;
}
