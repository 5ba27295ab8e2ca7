import { personalLogPaths } from '@astra/contracts';
import pino, { type DestinationStream, type Logger } from 'pino';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * The projector process's JSON logs on stdout, at `LOG_LEVEL` (default `info`, `silent` under
 * vitest), in the API's format (`services/api/src/observability/logger.ts`).
 */
export function projectorLogger(
  env: Record<string, string | undefined> = process.env,
  destination?: DestinationStream,
): Logger {
  const given = env.LOG_LEVEL;
  const settings = {
    name: 'astra-projector',
    level: given && LEVELS.includes(given) ? given : env.VITEST ? 'silent' : 'info',
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    redact: {
      paths: ['err.config', 'connectionString', '*.connectionString', ...personalLogPaths],
      censor: '[redacted]',
    },
  };
  return destination ? pino(settings, destination) : pino(settings);
}
