/**
 * Starts what one Playwright worker's browser tests run against (`node e2e/serve.ts INDEX`, on
 * the ports of worker INDEX): a loopback OAuth server standing in for Google's endpoints, and
 * the app itself exactly as the README starts it (`npm start`), configured to use that OAuth
 * server. A small control port lets a test choose who signs in next.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OAuth2Server } from 'oauth2-mock-server';
import { e2ePorts } from './ports.ts';

const E2E = e2ePorts(Number(process.argv[2] ?? 0));

interface Identity {
  email: string;
  name: string;
}

let next: Identity = { email: 'e2e@example.com', name: 'Ada Lovelace' };

const oauth = new OAuth2Server();
await oauth.issuer.keys.generate('RS256');
oauth.service.on('beforeUserinfo', (userinfo: { body: unknown; statusCode: number }) => {
  const [given, ...family] = next.name.split(' ');
  userinfo.body = {
    sub: createHash('sha256').update(next.email).digest('hex').slice(0, 21),
    email: next.email,
    email_verified: true,
    name: next.name,
    given_name: given,
    family_name: family.join(' '),
  };
  userinfo.statusCode = 200;
});
await oauth.start(E2E.oauthPort, '127.0.0.1');

const control = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    if (req.method === 'POST' && req.url === '/identity') {
      next = JSON.parse(body) as Identity;
      res.writeHead(204).end();
      return;
    }
    res.writeHead(404).end();
  });
});
control.listen(E2E.controlPort, '127.0.0.1');

const dataDir = mkdtempSync(join(tmpdir(), 'astra-e2e-'));
const oauthBase = `http://127.0.0.1:${E2E.oauthPort}`;
const app = spawn('npm', ['start'], {
  cwd: join(import.meta.dirname, '../..'),
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: String(E2E.appPort),
    DATA_DIR: dataDir,
    PUBLIC_URL: E2E.baseUrl,
    GOOGLE_CLIENT_ID: 'astra-e2e-client',
    GOOGLE_CLIENT_SECRET: 'astra-e2e-secret',
    GOOGLE_AUTHORIZATION_URL: `${oauthBase}/authorize`,
    GOOGLE_TOKEN_URL: `${oauthBase}/token`,
    GOOGLE_USERINFO_URL: `${oauthBase}/userinfo`,
    ADMIN_EMAILS: 'admin@example.com',
    ADMIN_PASSWORD: 'e2e-admin-password',
    // The specs count from a welcome grant of 10 (the product default, 24, is checked by the
    // API's welcome.test.ts); the landing page's promise follows whatever the server grants.
    FREE_CREDITS: '10',
    // No Stripe key: checkout is the local page; its webhooks are signed with this secret.
    STRIPE_WEBHOOK_SECRET: E2E.webhookSecret,
  },
});

const stop = async () => {
  app.kill('SIGTERM');
  control.close();
  await oauth.stop();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
app.on('exit', (code) => {
  if (code) process.exit(code);
});
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
