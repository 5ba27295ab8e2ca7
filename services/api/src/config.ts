import { storageEnvShape } from '@astra/event-store';
import { z } from 'zod';

const list = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);

/** Every setting the API reads, parsed once at start; a bad value stops the start with its name. */
export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    ...storageEnvShape,
    SESSION_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    ADMIN_EMAILS: z.string().default('').transform(list),
    ADMIN_PASSWORD: z.string().min(1).optional(),
    FREE_CREDITS: z.coerce.number().int().min(0).max(10_000).default(10),
    PUBLIC_URL: z.url().optional(),
    /** `external` when `services/projector` runs the projections in its own process. */
    PROJECTOR: z.enum(['in-process', 'external']).default('in-process'),
    SESSION_COOKIE: z.string().default('astra.sid'),
    /** How long a command waits for its write to be readable before answering anyway. */
    READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().min(0).default(5000),
  })
  .superRefine((config, ctx) => {
    if (config.PROJECTOR === 'external' && !config.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['PROJECTOR'],
        message: 'external needs DATABASE_URL (PGlite belongs to one process)',
      });
    }
    if (config.NODE_ENV === 'production' && !config.SESSION_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_SECRET'],
        message: 'is required when NODE_ENV=production',
      });
    }
  });

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')),
  );
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  return parsed.data;
}

/** Development and tests sign in without a provider; production never does. */
export const devSignInEnabled = (config: Config) => config.NODE_ENV !== 'production';
