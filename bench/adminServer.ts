import { loadConfig } from '../services/api/src/config.ts';
import { startServer } from '../services/api/src/server.ts';

const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'benchmark admin password';

/**
 * The API in this process on a benchmark's database, and the session cookie of an admin who has
 * unlocked the panel: for benchmarks of the admin routes.
 */
export async function startAdminServer(databaseUrl: string, dataDir: string) {
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    ADMIN_EMAILS: ADMIN_EMAIL,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'error',
  });
  const server = await startServer(config);
  const url = server.url;
  const signIn = await fetch(`${url}/api/auth/dev-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN_EMAIL }),
  });
  const cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
  const unlocked = await fetch(`${url}/api/admin/unlock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: url },
    body: JSON.stringify({ password: ADMIN_PASSWORD }),
  });
  if (!unlocked.ok) {
    await server.close();
    throw new Error(`unlock failed: ${unlocked.status}`);
  }
  return { server, url, cookie };
}
