import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { RequestHandler } from 'express';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { routeOf } from './logger.ts';

/** Where one projection stands, for the lag gauges. */
export interface ProjectionPosition {
  name: string;
  position: bigint;
  failed: boolean;
}

export interface MetricsSources {
  /** Each projection's position (the in-process projector's `status()`, or the checkpoints). */
  projections(): Promise<ProjectionPosition[]>;
  /** The event log's head position; null when it cannot be read cheaply (KurrentDB). */
  head(): Promise<bigint | null>;
}

/** A Stripe outcome as a label: its kind before any detail (`refunded: …` → `refunded`). */
export const outcomeLabel = (outcome: string) =>
  outcome.split(':')[0]!.trim().toLowerCase().slice(0, 60) || 'unknown';

/**
 * The API's Prometheus metrics, in a registry of their own (one per server, so that several
 * servers in one process, as in the tests, do not share counters).
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'astra_http_request_duration_seconds',
    help: 'Time to answer a request, by method, Express route pattern and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  readonly commands = new Counter({
    name: 'astra_commands_total',
    help: 'Commands handled, by stream category and outcome (appended, unchanged, refused, conflict, error)',
    labelNames: ['category', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly conflicts = new Counter({
    name: 'astra_command_conflicts_total',
    help: 'Appends refused for a wrong expected revision (each is retried), by stream category',
    labelNames: ['category'] as const,
    registers: [this.registry],
  });

  readonly refunds = new Counter({
    name: 'astra_refunds_total',
    help: 'Spends given back (RefundSpend that refunded), by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly readingGeneration = new Histogram({
    name: 'astra_reading_generation_seconds',
    help: 'Time the writer took to write a reading text, by kind, writer and outcome',
    labelNames: ['kind', 'writer', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 20, 40, 60, 120],
    registers: [this.registry],
  });

  readonly readingFirstText = new Histogram({
    name: 'astra_reading_first_text_seconds',
    help: "Time until the writer's first piece of a reading text, by kind and writer",
    labelNames: ['kind', 'writer'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 60],
    registers: [this.registry],
  });

  readonly stripeWebhooks = new Counter({
    name: 'astra_stripe_webhooks_total',
    help: 'Stripe webhook events applied, by event type and outcome',
    labelNames: ['type', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly replicaReads = new Counter({
    name: 'astra_replica_reads_total',
    help: 'GET requests with read replicas, by where they read the read models (replica or primary) and why',
    labelNames: ['served_by', 'reason'] as const,
    registers: [this.registry],
  });

  readonly reactorMessages = new Counter({
    name: 'astra_reactor_messages_total',
    help: 'Attempts of reactors at their messages (e-mail), by reactor, kind and outcome',
    labelNames: ['reactor', 'kind', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly projectorErrors = new Counter({
    name: 'astra_projector_errors_total',
    help: 'Failed projector batches (the log or the database), each retried from the checkpoint',
    registers: [this.registry],
  });

  constructor(sources: MetricsSources) {
    collectDefaultMetrics({ register: this.registry });
    // Read when scraped: never stale, and nothing runs between scrapes.
    let snapshot: Promise<{ head: bigint | null; projections: ProjectionPosition[] }> | undefined;
    const read = () => {
      snapshot ??= Promise.all([sources.head(), sources.projections()])
        .then(([head, projections]) => ({ head, projections }))
        // A database that does not answer leaves these series out, not the whole scrape.
        .catch(() => ({ head: null, projections: [] }))
        .finally(() => setTimeout(() => (snapshot = undefined), 0));
      return snapshot;
    };
    new Gauge({
      name: 'astra_projection_position',
      help: 'Global position each projection has applied up to',
      labelNames: ['projection'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const p of (await read()).projections)
          this.set({ projection: p.name }, Number(p.position));
      },
    });
    new Gauge({
      name: 'astra_projection_lag',
      help: "Global positions between the event log's head and each projection (events, in PostgreSQL)",
      labelNames: ['projection'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        const { head, projections } = await read();
        if (head === null) return;
        for (const p of projections) {
          const lag = head > p.position ? head - p.position : 0n;
          this.set({ projection: p.name }, Number(lag));
        }
      },
    });
    new Gauge({
      name: 'astra_projection_failed',
      help: '1 while a projection cannot apply an event (see GET /api/health), else 0',
      labelNames: ['projection'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const p of (await read()).projections)
          this.set({ projection: p.name }, p.failed ? 1 : 0);
      },
    });
  }

  /** Records each request's duration under its route pattern, when its answer is finished. */
  readonly timeRequests: RequestHandler = (req, res, next) => {
    const end = this.httpDuration.startTimer();
    res.once('finish', () => {
      end({ method: req.method, route: routeOf(req, res), status_code: String(res.statusCode) });
    });
    next();
  };

  stripeWebhook(type: string, outcome: string) {
    this.stripeWebhooks.inc({ type, outcome: outcomeLabel(outcome) });
  }

  /** The text format Prometheus scrapes. */
  async exposition() {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether `header` is `Bearer <token>` (compared in constant time). */
export const bearerMatches = (header: string | undefined, token: string) => {
  const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
};

/**
 * `GET /metrics` on the public port: only with `METRICS_TOKEN`, and only for
 * `Authorization: Bearer <METRICS_TOKEN>`; without a token configured it is 404 here.
 */
export const metricsRoute =
  (metrics: Metrics, token: string | undefined): RequestHandler =>
  async (req, res) => {
    if (!token) {
      res.status(404).type('text').send('Not found\n');
      return;
    }
    if (!bearerMatches(req.get('authorization'), token)) {
      res.set('WWW-Authenticate', 'Bearer').status(401).type('text').send('Unauthorized\n');
      return;
    }
    const { contentType, body } = await metrics.exposition();
    res.set('Content-Type', contentType).send(body);
  };

/**
 * `METRICS_PORT`: a plain HTTP server that answers `GET /metrics` only (with the bearer token
 * too when `METRICS_TOKEN` is set), for a scraper on the private network.
 */
export async function startMetricsServer(
  metrics: Metrics,
  port: number,
  host: string,
  token: string | undefined,
): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    if (token && !bearerMatches(req.headers.authorization, token)) {
      res
        .writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' })
        .end('Unauthorized\n');
      return;
    }
    metrics.exposition().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics failed\n'),
    );
  });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ready());
  });
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : port };
}
