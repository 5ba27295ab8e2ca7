import type { IncomingMessage, ServerResponse } from 'node:http';
import { personalLogPaths } from '@astra/contracts';
import type { Request } from 'express';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { pinoHttp } from 'pino-http';

export type { Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The level when the configuration names none: the process's `LOG_LEVEL` when valid, else `info`,
 * but `silent` under vitest, so that test output shows the tests (`LOG_LEVEL=error npx vitest …`
 * shows a test server's errors).
 */
export const defaultLogLevel = (env: Record<string, string | undefined> = process.env): LogLevel =>
  LOG_LEVELS.includes(env.LOG_LEVEL as LogLevel)
    ? (env.LOG_LEVEL as LogLevel)
    : env.VITEST
      ? 'silent'
      : 'info';

/**
 * What is never written, wherever it appears in a log line's fields. Request lines carry no
 * headers and no body at all (see `requestLogger`); these paths guard every other call that might
 * hand over a request, a header set or a payload by mistake.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["stripe-signature"]',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["stripe-signature"]',
  'headers["set-cookie"]',
  'body',
  'req.body',
  'password',
  '*.password',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'cookie',
  '*.cookie',
  'authorization',
  '*.authorization',
  // Personal data (docs/operations.md, "Personal data"): the contracts' personal fields.
  ...personalLogPaths,
];

/** An e-mail address anywhere in a string (a message, an error's text). */
const EMAIL_ADDRESS = /[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+/g;

/** The text with every e-mail address in it replaced. */
export const withoutEmails = (text: string) => text.replace(EMAIL_ADDRESS, '[email]');

/** Errors as pino writes them, with any e-mail address in their message and stack hidden. */
const errorSerializer = (error: Error) => {
  const serialized = pino.stdSerializers.err(error);
  if (typeof serialized.message === 'string')
    serialized.message = withoutEmails(serialized.message);
  if (typeof serialized.stack === 'string') serialized.stack = withoutEmails(serialized.stack);
  return serialized;
};

/**
 * The one logger of a process: JSON lines on stdout (or `destination`), secrets and personal
 * data redacted, e-mail addresses taken out of messages and errors.
 */
export function createLogger(
  options: { level?: LogLevel | undefined; name?: string; destination?: DestinationStream } = {},
): Logger {
  const settings: LoggerOptions = {
    name: options.name ?? 'astra-api',
    level: options.level ?? defaultLogLevel(),
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    serializers: { err: errorSerializer },
    hooks: {
      // The message's text (and its format arguments) never carries an address.
      logMethod(args, method) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? withoutEmails(arg) : arg)) as typeof args,
        );
      },
    },
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

/** A path without its query: queries carry OAuth codes, checkout session ids and the like. */
const pathOf = (url: string | undefined) => (url ?? '').split('?')[0] ?? '';

/** The request's whole path (routers shorten `req.url` while they run). */
const requestPath = (req: IncomingMessage) => pathOf((req as Request).originalUrl ?? req.url);

/** The Express route pattern that answered (`/api/readings/:id`), never the URL with its ids. */
export function routeOf(req: Request, res: ServerResponse): string {
  const route = (req as { route?: { path?: unknown } }).route;
  if (route && typeof route.path === 'string') {
    const full = `${req.baseUrl ?? ''}${route.path}`.replace(/\/+$/, '');
    return full || '/';
  }
  if (pathOf(req.originalUrl).startsWith('/api/')) return 'unmatched';
  return res.statusCode === 404 ? 'unmatched' : 'static';
}

/**
 * One line per request, when its answer is sent: method, path (no query), route, status and
 * time, with the request id (`X-Request-Id`, set by `requestContext`, which runs first) and the
 * correlation id its commands carry. No headers, cookies or bodies are logged.
 */
export function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    wrapSerializers: false,
    genReqId: (req) => (req as Request).context?.correlationId ?? 'unknown',
    customProps: (req) => ({
      reqId: (req as Request).context?.correlationId,
      correlationId: (req as Request).context?.correlationId,
    }),
    customLogLevel: (req, res, error) => {
      if (error || res.statusCode >= 500) return 'error';
      if (res.statusCode >= 400) return 'warn';
      // Probes and scrapes come every few seconds: only at debug.
      const path = requestPath(req);
      return path === '/api/health' || path === '/metrics' ? 'debug' : 'info';
    },
    // A 5xx without an error of its own gets pino-http's made-up one: its stack says nothing.
    customErrorObject: (_req, res, error, value) =>
      (res as ServerResponse).err === error ? value : { ...value, err: undefined },
    customSuccessMessage: (req, res) => `${req.method} ${requestPath(req)} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${requestPath(req)} ${res.statusCode}`,
    serializers: {
      req: (req: IncomingMessage) => ({ method: req.method, path: requestPath(req) }),
      res: (res: ServerResponse) => ({
        statusCode: res.statusCode,
        route: routeOf(res.req as unknown as Request, res),
      }),
      err: errorSerializer,
    },
  });
}
