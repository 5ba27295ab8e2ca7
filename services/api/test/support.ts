import { execFile } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { errorBodySchema } from '@astra/contracts';
import { createThrowawayDatabase, postgresReachable } from '@astra/event-store/testing';
import { allProjections, Projector, untilProjected } from '@astra/projections';
import { sql } from 'kysely';
import { BUILDS, fingerprint, needsBuild, writeStamp } from '../../../scripts/start.mjs';
import { loadConfig } from '../src/config.ts';
import { errorsOf } from '../src/http/routeDescriptors.ts';
import { apiRoutesOf, findRoute, routeFinder } from '../src/http/routeTable.ts';
import { type RunningServer, type ServerOptions, startServer } from '../src/server.ts';

/** The repository's root. */
const ROOT = join(import.meta.dirname, '../../..');

/** The operator's details production refuses to start without (see `siteInfoOf`). */
export const OPERATOR_SETTINGS = {
  OPERATOR_NAME: 'Astra Readings GmbH',
  OPERATOR_ADDRESS: 'Sternstraße 7; 10115 Berlin; Germany',
  OPERATOR_EMAIL: 'hello@astra-readings.test',
  SUPPORT_EMAIL: 'support@astra-readings.test',
} as const;

/**
 * The built web app (`web/dist`, and `web/dist-ssr` that draws its pages on the server), built
 * first where it is not built from these sources (a fresh checkout): stamped as `npm start`
 * stamps its builds, so that the browser tests, which run after the tests that serve it, find
 * it built instead of building it again.
 */
export async function builtWebApp() {
  const web = BUILDS.find((build) => build.output === 'web/dist')!;
  const output = join(ROOT, web.output);
  const current = fingerprint(ROOT, web.inputs);
  const ssrEntry = join(ROOT, 'web/dist-ssr/entry-server.js');
  if (!needsBuild(output, web.entry, current) && existsSync(ssrEntry)) return;
  const [command = '', ...args] = web.command;
  // Without vitest's NODE_ENV=test, which would make Vite bundle React's development build:
  // the production build, as `npm start` makes it.
  const { NODE_ENV: _, ...env } = process.env;
  await promisify(execFile)(command, args, { cwd: ROOT, env });
  writeStamp(output, current);
}

/**
 * The real server on a free port: PostgreSQL in a throwaway database when the machine has one,
 * otherwise PGlite in a temporary DATA_DIR.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  storage?: 'pglite' | 'postgres',
  options: ServerOptions = {},
) {
  // A DATABASE_URL of the test's own (a replicated cluster) is used as it is.
  const usePostgres =
    !env.DATABASE_URL &&
    (storage === 'postgres' || (storage === undefined && (await postgresReachable())));
  const database = usePostgres ? await createThrowawayDatabase() : undefined;
  const dataDir = env.DATA_DIR ?? (await mkdtemp(join(tmpdir(), 'astra-api-')));
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_EMAILS: 'admin@example.com',
    ADMIN_PASSWORD: 'correct horse battery staple',
    // The fixtures count from a welcome grant of 10; welcome.test.ts checks the default.
    FREE_CREDITS: '10',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const server = await startServer(config, options);
  // The route table of the reading kinds this server sells (a test may add one).
  const findItsRoute = routeFinder(apiRoutesOf(server.deps.catalog.records));
  return {
    ...server,
    databaseUrl: database?.url,
    dataDir,
    client: () => new Client(server.url, findItsRoute),
    async close() {
      await server.close();
      await database?.drop();
      if (!env.DATA_DIR) await rm(dataDir, { recursive: true, force: true });
    },
  } satisfies RunningServer & Record<string, unknown>;
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/**
 * A server on PostgreSQL with no projector of its own (`PROJECTOR=external`) and a Projector the
 * test starts and stops, so the read models move when the test chooses; a command waits at most
 * 1 s for them, then answers with what there is. Undefined when PostgreSQL is unreachable (the
 * external projector needs it).
 */
export async function startServerWithHeldProjector() {
  if (!(await postgresReachable())) return undefined;
  const server = await startTestServer(
    { PROJECTOR: 'external', READ_YOUR_WRITES_TIMEOUT_MS: '1000' },
    'postgres',
  );
  const projector = new Projector(server.deps.ledger.store, server.deps.db, allProjections);
  return { server, projector };
}

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A port nobody listens on now (for a server whose PUBLIC_URL must name its port). */
export { freePort } from '@astra/event-store/testing';

/** One answer the test clients received: its route (as the route table names it) and error code. */
export interface RecordedAnswer {
  method: string;
  /** The route table's path (`/api/readings/{id}`), or the request's path when no route matches. */
  route: string;
  documented: boolean;
  status: number;
  code: string | null;
}

/**
 * Every answer any `Client` of this test file received (the recorder of `openapi.test.ts`); with
 * `API_ANSWERS_FILE` set, each is also appended there as a JSON line, to collect a whole run's.
 */
export const recordedAnswers: RecordedAnswer[] = [];

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keys of `raw` that the schema's parse dropped: fields the contract does not name. */
function droppedKeys(raw: unknown, parsed: unknown, path = ''): string[] {
  if (Array.isArray(raw) && Array.isArray(parsed))
    return raw.flatMap((item, i) => droppedKeys(item, parsed[i], `${path}[${i}]`));
  if (!isPlainObject(raw) || !isPlainObject(parsed)) return [];
  return Object.keys(raw).flatMap((key) =>
    key in parsed
      ? droppedKeys(raw[key], parsed[key], path ? `${path}.${key}` : key)
      : [path ? `${path}.${key}` : key],
  );
}

/**
 * The answer against the route table (`apiRoutes`, `src/http/routeTable.ts`): a documented route, a
 * documented status, a body its schema parses with no undocumented field, and an error code
 * listed for that route and status. Returns the problems; none when it conforms.
 */
export function contractProblems(
  method: string,
  path: string,
  answer: Answer,
  find = findRoute,
): string[] {
  const route = find(method, path);
  const { status, body } = answer;
  if (!route) {
    // An unknown /api route answers the contract's 404.
    return status === 404 && body?.error === 'not_found'
      ? []
      : [`${method} ${path} is not in the route table (answered ${status})`];
  }
  const where = `${method} ${route.path} answered ${status}`;
  if (status < 400) {
    const documented = route.responses[status];
    if (!documented) return [`${where}, a status the route table does not list`];
    if (!documented.schema) return [];
    const parsed = documented.schema.safeParse(body);
    if (!parsed.success)
      return [`${where} with a body its schema refuses: ${JSON.stringify(parsed.error.issues)}`];
    const extra = droppedKeys(body, parsed.data);
    return extra.length
      ? [`${where} with fields the schema does not name: ${extra.join(', ')}`]
      : [];
  }
  const error = errorBodySchema.safeParse(body);
  if (!error.success)
    return [`${where} with a body that is not the error shape: ${JSON.stringify(body)}`];
  const listed = errorsOf(route).filter((e) => e.status === status && e.code === error.data.error);
  if (listed.length === 0) return [`${where} ${error.data.error}, not documented for the route`];
  return listed.flatMap((e) => {
    const specific = e.schema?.safeParse(body);
    return specific && !specific.success
      ? [
          `${where} ${e.code} with a body its schema refuses: ${JSON.stringify(specific.error.issues)}`,
        ]
      : [];
  });
}

/** One server-sent event as a client received it. */
export interface ServerSentEvent {
  event: string;
  id: string | undefined;
  data: any;
}

/** An event stream's answer: its events as they come (none when it was not 200). */
export interface EventStreamAnswer extends Answer {
  events: AsyncGenerator<ServerSentEvent>;
  /** Leaves the stream, as a browser closing its EventSource. */
  close(): void;
}

async function* emptyEvents(): AsyncGenerator<ServerSentEvent> {}

/** A browser-like client: keeps its session cookie, speaks JSON (or sends raw bytes). */
export class Client {
  /** The `astra.sid=…` pair it sends. */
  cookie: string | undefined;
  /**
   * Checks every answer against the route table (`contractProblems`) and throws on a mismatch:
   * on for every HTTP test (`API_CHECK_RESPONSES=0` turns it off while debugging); off only for
   * clients that go off the contract on purpose (`unchecked()`, the fuzz test).
   */
  validateResponses = process.env.API_CHECK_RESPONSES !== '0';
  constructor(
    readonly base: string,
    /** The route table it checks against: the shipped one unless the server sells other kinds. */
    private readonly find = findRoute,
  ) {}

  /** This client, checking its answers against the contracts from now on. */
  checked() {
    this.validateResponses = true;
    return this;
  }

  /** This client, not checking its answers (for requests off the contract on purpose). */
  unchecked() {
    this.validateResponses = false;
    return this;
  }

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
    const answer: Answer<T> = {
      status: response.status,
      body: parsed as T,
      headers: response.headers,
    };
    this.record(method, path, answer);
    return answer;
  }

  private record(method: string, path: string, answer: Answer) {
    const route = this.find(method, path);
    const code =
      answer.status >= 400 && isPlainObject(answer.body) && typeof answer.body.error === 'string'
        ? answer.body.error
        : null;
    const entry: RecordedAnswer = {
      method: method.toUpperCase(),
      route: route?.path ?? path.split('?')[0]!,
      documented: route !== undefined,
      status: answer.status,
      code,
    };
    recordedAnswers.push(entry);
    if (process.env.API_ANSWERS_FILE)
      appendFileSync(process.env.API_ANSWERS_FILE, `${JSON.stringify(entry)}\n`);
    if (!this.validateResponses || !path.startsWith('/api/')) return;
    const problems = contractProblems(method.toUpperCase(), path, answer, this.find);
    if (problems.length) throw new Error(`The answer breaks the contract:\n${problems.join('\n')}`);
  }

  /**
   * Opens an event stream as an EventSource does (`Accept: text/event-stream`, `Last-Event-ID`
   * when given). Not 200: the answer, checked as any other. 200: its events as they arrive,
   * each event's data checked against the route table's schema for its name.
   */
  async events(path: string, headers: Record<string, string> = {}): Promise<EventStreamAnswer> {
    const stop = new AbortController();
    const response = await fetch(`${this.base}${path}`, {
      headers: {
        accept: 'text/event-stream',
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...headers,
      },
      signal: stop.signal,
    });
    if (response.status !== 200 || !response.body) {
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      const answer = { status: response.status, body, headers: response.headers };
      this.record('GET', path, answer);
      return { ...answer, events: emptyEvents(), close: () => {} };
    }
    this.record('GET', path, { status: 200, body: null, headers: response.headers });
    const schemas = this.find('GET', path)?.responses[200]?.events ?? {};
    const check = this.validateResponses;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    async function* events(): AsyncGenerator<ServerSentEvent> {
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += value;
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf('\n\n');
            const fields = new Map<string, string>();
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) continue;
              const colon = line.indexOf(':');
              if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
            }
            const name = fields.get('event');
            if (!name || !fields.has('data')) continue;
            const data = JSON.parse(fields.get('data')!);
            const schema = schemas[name];
            if (check && !schema)
              throw new Error(`The stream ${path} sent an undocumented event ${name}`);
            const parsed = schema?.safeParse(data);
            if (check && parsed && !parsed.success)
              throw new Error(
                `The stream's ${name} event breaks its schema: ${JSON.stringify(parsed.error.issues)}`,
              );
            yield { event: name, id: fields.get('id'), data };
          }
        }
      } finally {
        stop.abort();
      }
    }
    return {
      status: 200,
      body: null,
      headers: response.headers,
      events: events(),
      close: () => stop.abort(),
    };
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

/** A signed-in member with `credits` to spend (the free 10, adjusted by an admin when not 10). */
export async function memberWith(server: TestServer, credits: number) {
  const member = server.client();
  const me = await member.signIn(
    `member-${Math.random().toString(36).slice(2)}@example.com`,
    'Ada Lovelace',
  );
  if (credits !== me.remainingCredits) {
    // Only then: the admin unlock is rate limited.
    const admin = server.client();
    await admin.signInAsAdmin();
    const adjusted = await admin.post(`/api/admin/users/${me.id}/credits`, {
      amount: credits - me.remainingCredits,
      reason: 'Test credits',
    });
    if (adjusted.status !== 200)
      throw new Error(`adjusting failed: ${JSON.stringify(adjusted.body)}`);
  }
  return { member, id: me.id };
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
export const caughtUp = (server: TestServer, timeoutMs = 10_000) =>
  untilProjected(
    server.deps.db,
    allProjections.map((p) => p.name),
    timeoutMs,
  );

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

/** Waits until `check` holds (polling), failing with `what` after `timeoutMs`. */
export async function until<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 20_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Waits until the outbox holds nothing of `userId` still to send: every message sent, parked or
 * erased (an erasure's account-deleted message is sent, then erased).
 */
export const mailSettled = (server: TestServer, userId: string) =>
  until(`the messages to ${userId} to settle`, async () => {
    const { rows } = await sql<{ waiting: number }>`
      SELECT count(*)::int AS waiting FROM app.outbox
      WHERE user_id = ${userId} AND status IN ('pending', 'sending')`.execute(server.deps.db);
    return rows[0]!.waiting === 0;
  });
