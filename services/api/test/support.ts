import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createThrowawayDatabase, postgresReachable } from '@astra/event-store/testing';
import { allProjections, READ_SCHEMA } from '@astra/projections';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { type RunningServer, type ServerOptions, startServer } from '../src/server.ts';

/**
 * The real server on a free port: PostgreSQL in a throwaway database when the machine has one,
 * otherwise PGlite in a temporary DATA_DIR.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  storage?: 'pglite' | 'postgres',
  options: ServerOptions = {},
) {
  const usePostgres =
    storage === 'postgres' || (storage === undefined && (await postgresReachable()));
  const database = usePostgres ? await createThrowawayDatabase() : undefined;
  const dataDir = env.DATA_DIR ?? (await mkdtemp(join(tmpdir(), 'astra-api-')));
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_EMAILS: 'admin@example.com',
    ADMIN_PASSWORD: 'correct horse battery staple',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const server = await startServer(config, options);
  return {
    ...server,
    databaseUrl: database?.url,
    dataDir,
    client: () => new Client(server.url),
    async close() {
      await server.close();
      await database?.drop();
      if (!env.DATA_DIR) await rm(dataDir, { recursive: true, force: true });
    },
  } satisfies RunningServer & Record<string, unknown>;
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A port nobody listens on now (for a server whose PUBLIC_URL must name its port). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/** A browser-like client: keeps its session cookie, speaks JSON (or sends raw bytes). */
export class Client {
  /** The `astra.sid=…` pair it sends. */
  cookie: string | undefined;
  constructor(readonly base: string) {}

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const raw = body instanceof Uint8Array;
    const response = await fetch(`${this.base}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(body !== undefined && !raw ? { 'content-type': 'application/json' } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...headers,
      },
      body:
        body === undefined
          ? undefined
          : raw || typeof body === 'string'
            ? (body as string | Uint8Array<ArrayBuffer>)
            : JSON.stringify(body),
    });
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('astra.sid='));
    if (setCookie) this.cookie = setCookie.split(';')[0];
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body ?? {}, headers);
  }
  patch<T = any>(path: string, body: unknown, headers?: Record<string, string>) {
    return this.request<T>('PATCH', path, body, headers);
  }
  put<T = any>(path: string, body: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, body, headers);
  }
  delete<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', path, undefined, headers);
  }

  /** Signs in through the development sign-in. */
  async signIn(email: string, fullName?: string) {
    const answer = await this.post(
      '/api/auth/dev-login',
      fullName ? { email, fullName } : { email },
    );
    if (answer.status !== 200)
      throw new Error(`sign-in failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as { id: string; remainingCredits: number };
  }

  async signInAsAdmin() {
    const me = await this.signIn('admin@example.com', 'Ada Admin');
    const unlocked = await this.post('/api/admin/unlock', {
      password: 'correct horse battery staple',
    });
    if (unlocked.status !== 200) throw new Error(`unlock failed: ${JSON.stringify(unlocked.body)}`);
    return me;
  }
}

/** Events committed so far (counted in the table: readers stop short of open transactions). */
export async function eventCount(server: TestServer) {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM events`.execute(
    server.deps.db,
  );
  return rows[0]!.n;
}

/**
 * Waits until every projection has applied every event committed so far (the projected
 * position), so a test reads the read models only once they show its writes — never a sleep.
 */
export async function caughtUp(server: TestServer, timeoutMs = 10_000) {
  const { db } = server.deps;
  const { rows } = await sql<{
    head: string | null;
  }>`SELECT max(position)::text AS head FROM events`.execute(db);
  const head = BigInt(rows[0]?.head ?? 0);
  const names = allProjections.map((p) => p.name);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows: checkpoints } = await sql<{ position: string }>`
      SELECT position::text AS position FROM ${sql.id(READ_SCHEMA)}.checkpoints
      WHERE name = ANY(${names})`.execute(db);
    const reached =
      checkpoints.length === names.length && checkpoints.every((c) => BigInt(c.position) >= head);
    if (reached) return;
    if (Date.now() > deadline) throw new Error(`read models did not reach position ${head}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A request the Stripe double received. */
export interface StripeRequest {
  method: string;
  path: string;
  body: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * A loopback HTTP server standing in for Stripe's API, for the real `stripe` SDK (the server's
 * `STRIPE_API_HOST/PORT/PROTOCOL`). `respond` answers a request with a JSON body (status 200) or
 * `[status, body]`; undefined is a 404 in Stripe's error shape. Every request is kept.
 */
export async function startStripeDouble(
  respond: (request: StripeRequest) => unknown | [number, unknown] | undefined,
) {
  const { createServer: createHttpServer } = await import('node:http');
  const requests: StripeRequest[] = [];
  const server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        path: req.url ?? '',
        body: new URLSearchParams(body),
        headers: req.headers,
      };
      requests.push(request);
      res.setHeader('content-type', 'application/json');
      let answer: unknown;
      try {
        answer = respond(request);
      } catch (error) {
        res.statusCode = 500;
        return res.end(JSON.stringify({ error: { message: String(error) } }));
      }
      if (answer === undefined) {
        res.statusCode = 404;
        return res.end(
          JSON.stringify({
            error: {
              type: 'invalid_request_error',
              code: 'resource_missing',
              message: `no route ${request.method} ${request.path}`,
            },
          }),
        );
      }
      const [status, payload] =
        Array.isArray(answer) && typeof answer[0] === 'number' ? answer : [200, answer];
      res.statusCode = status as number;
      res.end(JSON.stringify(payload));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    requests,
    /** The server settings that point the SDK here. */
    env: {
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(port),
      STRIPE_API_PROTOCOL: 'http',
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
