import { type ReadingKind, readingKinds, type SiteInfo, timeZoneSchema } from '@astra/contracts';
import { storageEnvShape } from '@astra/event-store';
import { z } from 'zod';
import { LOG_LEVELS } from './observability/logger.ts';

/** `tier:billingType=value,…` → a map keyed `tier:billingType`. */
const pricingMap =
  <T>(parse: (value: string) => T) =>
  (text: string, ctx: z.RefinementCtx) => {
    const map = new Map<string, T>();
    for (const entry of text
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)) {
      const match = /^(\d+):(subscription|one_time)=(.+)$/.exec(entry);
      const value = match ? parse(match[3]!) : undefined;
      if (!match || (typeof value === 'number' && !(Number.isInteger(value) && value > 0))) {
        ctx.addIssue({ code: 'custom', message: `'${entry}' is not tier:billing_type=value` });
        continue;
      }
      map.set(`${match[1]}:${match[2]}`, value as T);
    }
    return map;
  };

const list = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);

/** `kind=agent_id,…` → a map of reading kind (the route's slug) to ElevenLabs agent id. */
const agentIds = (text: string, ctx: z.RefinementCtx) => {
  const map = new Map<ReadingKind, string>();
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [kind, agentId] = entry.split('=').map((part) => part.trim());
    if (!kind || !agentId || !Object.hasOwn(readingKinds, kind)) {
      ctx.addIssue({
        code: 'custom',
        message: `'${entry}' is not reading-kind=agent_id (kinds: ${Object.keys(readingKinds).join(', ')})`,
      });
      continue;
    }
    map.set(kind as ReadingKind, agentId);
  }
  return map;
};

/** `Label=https://…,…` → the footer's social links, in order. */
const socialLinks = (text: string, ctx: z.RefinementCtx) => {
  const links: { label: string; url: string }[] = [];
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const at = entry.indexOf('=');
    const label = entry.slice(0, at).trim();
    const url = entry.slice(at + 1).trim();
    if (at < 1 || !label || !/^https:\/\/[^\s/]+\.[^\s]+$/.test(url)) {
      ctx.addIssue({ code: 'custom', message: `'${entry}' is not Label=https://…` });
      continue;
    }
    links.push({ label, url });
  }
  return links;
};

/**
 * The operator's details (Impressum, support address): development has stand-ins, production
 * refuses to start without the real ones.
 */
const operatorSettings = [
  'OPERATOR_NAME',
  'OPERATOR_ADDRESS',
  'OPERATOR_EMAIL',
  'SUPPORT_EMAIL',
] as const;
const OPERATOR_DEVELOPMENT_DEFAULTS: Record<(typeof operatorSettings)[number], string> = {
  OPERATOR_NAME: 'Astra development (not a company)',
  OPERATOR_ADDRESS: 'Example Street 1; 10115 Berlin; Germany',
  OPERATOR_EMAIL: 'operator@astra.example',
  SUPPORT_EMAIL: 'support@astra.example',
};

const googleSettings = ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'] as const;
const appleSettings = [
  'APPLE_CLIENT_ID',
  'APPLE_TEAM_ID',
  'APPLE_KEY_ID',
  'APPLE_PRIVATE_KEY',
] as const;

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
    /**
     * The welcome grant of a new account: 24, what the dearest seeded reading (the natal chart)
     * costs, so the landing page's "free welcome credits for your first reading" holds for any
     * first reading. A grant is an event: changing this changes new accounts only.
     */
    FREE_CREDITS: z.coerce.number().int().min(0).max(10_000).default(24),
    /** The site's base URL (sign-in callbacks are built from it); default http://localhost:PORT. */
    PUBLIC_URL: z.url().optional(),
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    /** Google's endpoints; tests point them at a mock OAuth server. */
    GOOGLE_AUTHORIZATION_URL: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
    GOOGLE_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
    GOOGLE_USERINFO_URL: z.url().default('https://openidconnect.googleapis.com/v1/userinfo'),
    APPLE_CLIENT_ID: z.string().min(1).optional(),
    APPLE_TEAM_ID: z.string().min(1).optional(),
    APPLE_KEY_ID: z.string().min(1).optional(),
    /** The .p8 key's PEM text; `\n` written as two characters is read as a line break. */
    APPLE_PRIVATE_KEY: z
      .string()
      .min(1)
      .transform((pem) => pem.replaceAll('\\n', '\n'))
      .optional(),
    /**
     * Stripe. Without a secret key, checkout goes to our own local checkout page (development
     * only), which signs its webhooks with STRIPE_WEBHOOK_SECRET or a development secret.
     */
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    /** Where the Stripe SDK sends its requests (a loopback stand-in in tests). */
    STRIPE_API_HOST: z.string().min(1).optional(),
    STRIPE_API_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
    STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
    /**
     * `on`: Stripe computes the tax of each checkout (Stripe Tax, `automatic_tax`), from the
     * billing address it collects; our prices are then tax inclusive. Stripe Tax must be set up
     * in the Stripe account (origin address, registrations).
     */
    STRIPE_AUTOMATIC_TAX: z.enum(['on', 'off']).default('off'),
    /**
     * Where the product's e-mails leave: `smtp://user:password@host:587` (STARTTLS when the
     * server offers it) or `smtps://…:465`. Without it (development) nothing leaves the machine:
     * the messages are kept for the development mailbox (/dev/mail).
     */
    SMTP_URL: z
      .url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' })
      .optional(),
    /** The sender of every message: `Astra <hello@astra.example>`; default OPERATOR_EMAIL's. */
    MAIL_FROM: z.string().trim().min(3).optional(),
    /** Failed attempts before a message is parked, and the first wait before a retry (doubling). */
    MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(8),
    MAIL_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
    /** Prices: `1:subscription=999,1:one_time=799,…` (minor units) and their currency. */
    PRICING_AMOUNTS: z.string().default('').transform(pricingMap(Number)),
    PRICING_CURRENCY: z
      .string()
      .regex(/^[a-z]{3}$/, 'must be a lower-case ISO currency code')
      .default('usd'),
    /**
     * The finance calendar's IANA time zone: the months of the month-end report and of the
     * dashboard's money are its months (docs/finance.md).
     */
    FINANCE_TIME_ZONE: timeZoneSchema.default('UTC'),
    /** Stripe price ids per row: `1:subscription=price_…,…`; rows without one get inline prices. */
    STRIPE_PRICE_IDS: z.string().default('').transform(pricingMap(String)),
    /** With a key, readings are written by OpenAI's API; without, by the offline writer. */
    OPENAI_API_KEY: z.string().min(1).optional(),
    OPENAI_BASE_URL: z.url().optional(),
    OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
    // Every try together stays well inside the 10 minutes after which a reading counts as interrupted.
    OPENAI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(60_000),
    OPENAI_MAX_RETRIES: z.coerce.number().int().min(0).max(3).default(2),
    /** The voice guide: a session's length and a reactivation's price in credits. */
    // At least a minute: past the 30 s in which a session may still be reported never connected.
    VOICE_SESSION_SECONDS: z.coerce.number().int().min(60).max(3600).default(300),
    VOICE_REACTIVATION_CREDITS: z.coerce.number().int().min(0).max(1000).default(2),
    /** With a key, sessions are ElevenLabs Agents conversations; without, the offline guide. */
    ELEVENLABS_API_KEY: z.string().min(1).optional(),
    /** One agent per reading type: `natal-chart=agent_…,tarot-celtic-cross=…,…` (all five). */
    ELEVENLABS_AGENT_IDS: z.string().default('').transform(agentIds),
    /** Where the SDK sends its requests (a regional API, or a loopback stand-in in tests). */
    ELEVENLABS_BASE_URL: z.url().optional(),
    ELEVENLABS_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(10_000),
    /** `external` when `services/projector` runs the projections in its own process. */
    PROJECTOR: z.enum(['in-process', 'external']).default('in-process'),
    SESSION_COOKIE: z.string().default('astra.sid'),
    /** How long a command waits for its write to be readable before answering anyway. */
    READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().min(0).default(5000),
    /**
     * Hot standbys of DATABASE_URL, comma-separated: GET requests read the read models there
     * (docs/operations.md, "Read replicas").
     */
    DATABASE_READ_URL: z
      .string()
      .optional()
      .transform((urls) =>
        (urls ?? '')
          .split(',')
          .map((url) => url.trim())
          .filter(Boolean),
      ),
    /**
     * How long a read waits for a replica to replay the session's last write before it reads the
     * primary instead.
     */
    READ_REPLICA_WAIT_MS: z.coerce.number().int().min(0).default(500),
    /** The JSON logs' level; unset: `info` (`silent` under vitest). */
    LOG_LEVEL: z.enum(LOG_LEVELS).optional(),
    /** `GET /metrics` on a port of its own (off when unset; 0 picks a free port, for tests). */
    METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
    /** `GET /metrics` on the public port too, for `Authorization: Bearer <METRICS_TOKEN>`. */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /** On SIGTERM/SIGINT, how long requests in flight may take to finish. */
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
    OPERATOR_NAME: z.string().trim().min(1).max(200).optional(),
    /** Postal address lines separated by `;`. */
    OPERATOR_ADDRESS: z.string().trim().min(1).max(500).optional(),
    OPERATOR_EMAIL: z.email().optional(),
    OPERATOR_REPRESENTATIVE: z.string().trim().min(1).max(200).optional(),
    OPERATOR_REGISTER: z.string().trim().min(1).max(200).optional(),
    OPERATOR_VAT_ID: z.string().trim().min(1).max(50).optional(),
    SUPPORT_EMAIL: z.email().optional(),
    SOCIAL_LINKS: z.string().default('').transform(socialLinks),
  })
  .superRefine((config, ctx) => {
    if (config.PROJECTOR === 'external' && !config.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['PROJECTOR'],
        message: 'external needs DATABASE_URL (PGlite belongs to one process)',
      });
    }
    if (config.DATABASE_READ_URL.length > 0 && !config.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_READ_URL'],
        message: 'read replicas are standbys of DATABASE_URL, which is not set',
      });
    }
    // The local checkout page grants credits without payment: never in production.
    if (config.NODE_ENV === 'production') {
      for (const setting of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
        if (!config[setting]) {
          ctx.addIssue({
            code: 'custom',
            path: [setting],
            message:
              'is required when NODE_ENV=production (the local checkout page is for development)',
          });
        }
      }
    }
    // An Impressum and a support address that reach nobody are not for the public.
    if (config.NODE_ENV === 'production') {
      for (const setting of operatorSettings) {
        if (!config[setting]) {
          ctx.addIssue({
            code: 'custom',
            path: [setting],
            message:
              'is required when NODE_ENV=production (the Impressum and support links show it)',
          });
        }
      }
    }
    if (config.NODE_ENV === 'production' && !config.SMTP_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMTP_URL'],
        message:
          'is required when NODE_ENV=production (receipts and account messages are sent through it)',
      });
    }
    if (config.NODE_ENV === 'production' && !config.SESSION_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_SECRET'],
        message: 'is required when NODE_ENV=production',
      });
    }
    if (config.NODE_ENV === 'production' && !config.DATA_KEY_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATA_KEY_SECRET'],
        message:
          'is required when NODE_ENV=production (the master key of the personal data keys; see docs/operations.md)',
      });
    }
    // A provider half configured is a mistake to name at start, not a button that fails later.
    for (const group of [googleSettings, appleSettings]) {
      const given = group.filter((name) => config[name] !== undefined);
      for (const name of group) {
        if (given.length > 0 && config[name] === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `is required when ${given.join(', ')} ${given.length === 1 ? 'is' : 'are'} set`,
          });
        }
      }
    }
    // A voice guide without an agent for some reading would fail only when someone asks for it.
    if (config.ELEVENLABS_API_KEY) {
      const missing = Object.keys(readingKinds).filter(
        (kind) => !config.ELEVENLABS_AGENT_IDS.has(kind as ReadingKind),
      );
      if (missing.length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['ELEVENLABS_AGENT_IDS'],
          message: `needs an agent for every reading type with ELEVENLABS_API_KEY (missing: ${missing.join(', ')})`,
        });
      }
    }
    if (config.NODE_ENV === 'production' && !config.PUBLIC_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message:
          'is required in production (sign-in callbacks and payment pages are built from it)',
      });
    }
  })
  .transform((config) => ({
    ...config,
    PUBLIC_URL: (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, ''),
  }));

export type Config = z.infer<typeof configSchema>;

/** `GET /api/site`: the operator's details, each setting or its development stand-in. */
export const siteInfoOf = (config: Config): SiteInfo => {
  const setting = (name: (typeof operatorSettings)[number]) =>
    config[name] ?? OPERATOR_DEVELOPMENT_DEFAULTS[name];
  return {
    operator: {
      name: setting('OPERATOR_NAME'),
      address: setting('OPERATOR_ADDRESS')
        .split(';')
        .map((line) => line.trim())
        .filter(Boolean),
      email: setting('OPERATOR_EMAIL'),
      representative: config.OPERATOR_REPRESENTATIVE ?? null,
      register: config.OPERATOR_REGISTER ?? null,
      vatId: config.OPERATOR_VAT_ID ?? null,
    },
    supportEmail: setting('SUPPORT_EMAIL'),
    socialLinks: config.SOCIAL_LINKS,
    developmentDefaults: operatorSettings.some((name) => !config[name]),
    mail: config.SMTP_URL ? 'smtp' : 'development_mailbox',
  };
};

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

/** The voice guide's price list, as `GET /api/apps` and `GET /api/pricing` show it. */
export const voicePricingOf = (config: Config) => ({
  sessionSeconds: config.VOICE_SESSION_SECONDS,
  reactivationCost: config.VOICE_REACTIVATION_CREDITS,
});

/** Without Stripe, checkout is our own local page that pays without money (development only). */
export const localCheckoutEnabled = (config: Config) => !config.STRIPE_SECRET_KEY;

/** The secret webhooks are signed with; the local checkout signs with a development one. */
export const webhookSecretOf = (config: Config) =>
  config.STRIPE_WEBHOOK_SECRET ?? 'whsec_astra_local_development_only';

/** Development and tests sign in without a provider; production never does. */
export const devSignInEnabled = (config: Config) => config.NODE_ENV !== 'production';

export const googleSignInEnabled = (config: Config) =>
  Boolean(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET);

export const appleSignInEnabled = (config: Config) =>
  Boolean(
    config.APPLE_CLIENT_ID &&
      config.APPLE_TEAM_ID &&
      config.APPLE_KEY_ID &&
      config.APPLE_PRIVATE_KEY,
  );

/** Production requires SESSION_SECRET; development and tests sign with a fixed one. */
const DEVELOPMENT_SECRET = 'astra-development-secret-never-for-production';
export const sessionSecretOf = (config: Config) => config.SESSION_SECRET ?? DEVELOPMENT_SECRET;
