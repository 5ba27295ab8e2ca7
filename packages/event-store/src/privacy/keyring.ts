import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import type { SqlClient } from '../postgres/sql-client.ts';

/**
 * The data keys of crypto-shredding (docs/operations.md, "Personal data"): one random AES-256 key
 * per data subject, kept in `data_keys` beside the log (never in it), wrapped (AES-256-GCM) by a
 * master key derived from `DATA_KEY_SECRET`. Destroying a subject's key leaves their personal
 * data in the log unreadable: what was written under it reads as erased, and nothing new is
 * written under it (the row stays, with its key gone, so the subject is never given a new one).
 *
 * The row `$mailbox` holds the key of the mailbox streams' names (an HMAC of the address), so
 * that rotating the master key keeps every name.
 */
const createKeysTable = `
SELECT pg_advisory_xact_lock(7305110003);
CREATE TABLE IF NOT EXISTS data_keys (
  subject      text        PRIMARY KEY,
  wrapped      text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  destroyed_at timestamptz
);
`;

const MAILBOX = '$mailbox';
/** How long a process keeps a key it read: another process's erasure reaches it within this. */
export const KEY_CACHE_MS = 60_000;
const CACHE_SIZE = 50_000;

/** The master key `DATA_KEY_SECRET` stands for (32 bytes, whatever the secret's length). */
const masterKeyOf = (secret: string) =>
  Buffer.from(hkdfSync('sha256', secret, 'astra-data-keys', 'master key', 32));

const wrap = (master: Buffer, subject: string, key: Buffer) => {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', master, iv).setAAD(Buffer.from(subject));
  return Buffer.concat([iv, cipher.update(key), cipher.final(), cipher.getAuthTag()]).toString(
    'base64',
  );
};

const unwrap = (master: Buffer, subject: string, wrapped: string) => {
  const bytes = Buffer.from(wrapped, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', master, bytes.subarray(0, 12))
    .setAAD(Buffer.from(subject))
    .setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]);
};

/** `DATA_KEY_SECRET` does not open the keys of this database. */
export class WrongDataKeySecretError extends Error {
  override readonly name = 'WrongDataKeySecretError';
  constructor() {
    super(
      'DATA_KEY_SECRET does not open the data keys of this database (data_keys): start with the secret this database was made with',
    );
  }
}

/** The log was written before personal data was encrypted: `npm run privacy:migrate` first. */
export class LogPredatesEncryptionError extends Error {
  override readonly name = 'LogPredatesEncryptionError';
  constructor() {
    super(
      'This event log was written before personal data was encrypted: run `npm run privacy:migrate` once (docs/operations.md, "Personal data"), then start again',
    );
  }
}

interface KeyRow {
  subject: string;
  wrapped: string | null;
}

interface Cached {
  key: Buffer | null;
  until: number;
}

export interface KeyringOptions {
  /** Whether the log holds events (a keyring made for a log that does predates encryption). */
  logHasEvents: () => Promise<boolean>;
  /** `privacy:migrate` opens the keyring of a log written before it. */
  migrating?: boolean;
  /** The clock of the cache (tests). */
  now?: () => number;
}

export class Keyring {
  private readonly cache = new Map<string, Cached>();
  private readonly creating = new Map<string, Promise<Buffer | null>>();
  private readonly now: () => number;

  private constructor(
    private readonly sql: SqlClient,
    private readonly master: Buffer,
    private readonly mailboxKey: Buffer,
    now: () => number,
  ) {
    this.now = now;
  }

  static async open(sql: SqlClient, secret: string, options: KeyringOptions): Promise<Keyring> {
    await sql.exec(createKeysTable);
    const master = masterKeyOf(secret);
    let row = await selectKey(sql, MAILBOX);
    if (!row) {
      if (!options.migrating && (await options.logHasEvents())) {
        throw new LogPredatesEncryptionError();
      }
      await sql.query(
        'INSERT INTO data_keys (subject, wrapped) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [MAILBOX, wrap(master, MAILBOX, randomBytes(32))],
      );
      row = await selectKey(sql, MAILBOX);
    }
    let mailboxKey: Buffer;
    try {
      mailboxKey = unwrap(master, MAILBOX, row?.wrapped ?? '');
    } catch {
      throw new WrongDataKeySecretError();
    }
    return new Keyring(sql, master, mailboxKey, options.now ?? Date.now);
  }

  /**
   * The name of a mailbox's streams (`email-…`, `free-allotment-…`): an HMAC of the normalized
   * address under the keyring's own key, which no dictionary of addresses reverses without it.
   */
  mailboxId(address: string) {
    return createHmac('sha256', this.mailboxKey).update(address).digest('hex');
  }

  /** The subject's key to read with; null when it was destroyed (or never made). */
  async keyOf(subject: string): Promise<Buffer | null> {
    const cached = this.cachedKeyOf(subject);
    if (cached !== undefined) return cached;
    const row = await selectKey(this.sql, subject);
    return this.remember(subject, row?.wrapped ? unwrap(this.master, subject, row.wrapped) : null);
  }

  /**
   * Reads the keys of these subjects that are not cached, in one query: a reader of many
   * subjects' events (a page of the log) then opens each without a query of its own.
   */
  async prefetch(subjects: ReadonlySet<string>) {
    const missing = [...subjects].filter((subject) => this.cachedKeyOf(subject) === undefined);
    if (missing.length === 0) return;
    const { rows } = await this.sql.query<KeyRow>(
      'SELECT subject, wrapped FROM data_keys WHERE subject = ANY($1::text[])',
      [missing],
      'data_keys_prefetch',
    );
    const wrapped = new Map(rows.map((row) => [row.subject, row.wrapped]));
    for (const subject of missing) this.rememberRow({ subject, wrapped: wrapped.get(subject) });
  }

  /**
   * Reads every subject's key, as many as the cache holds, in one query: for a reader of the
   * whole log, which needs them all (the rest come page by page, through `prefetch`).
   */
  async prefetchAll() {
    const { rows } = await this.sql.query<KeyRow>(
      'SELECT subject, wrapped FROM data_keys WHERE subject <> $1 LIMIT $2',
      [MAILBOX, CACHE_SIZE],
      'data_keys_prefetch_all',
    );
    for (const row of rows) this.rememberRow(row);
  }

  private rememberRow({ subject, wrapped }: { subject: string; wrapped?: string | null }) {
    this.remember(subject, wrapped ? unwrap(this.master, subject, wrapped) : null);
  }

  /** The subject's key to write with, made on first use; null when it was destroyed. */
  async writeKeyOf(subject: string): Promise<Buffer | null> {
    const cached = this.cachedKeyOf(subject);
    if (cached) return cached;
    let pending = this.creating.get(subject);
    if (!pending) {
      pending = this.create(subject).finally(() => this.creating.delete(subject));
      this.creating.set(subject, pending);
    }
    return pending;
  }

  /** Destroys the subject's key for good: their personal data can no longer be read. */
  async destroy(subject: string) {
    if (subject === MAILBOX) throw new Error('The mailbox key is not a subject’s key');
    await this.sql.query(
      `INSERT INTO data_keys (subject, wrapped, destroyed_at) VALUES ($1, NULL, now())
       ON CONFLICT (subject) DO UPDATE SET wrapped = NULL, destroyed_at = coalesce(data_keys.destroyed_at, now())`,
      [subject],
    );
    this.remember(subject, null);
  }

  /** Whether the subject's key was destroyed (read from the table, never the cache). */
  async isDestroyed(subject: string) {
    const row = await selectKey(this.sql, subject);
    return row !== undefined && row.wrapped === null;
  }

  /**
   * Wraps every key under the master key of `newSecret` (one transaction), and answers a keyring
   * that uses it. The old secret opens nothing once this has committed.
   */
  async rotate(newSecret: string): Promise<number> {
    const next = masterKeyOf(newSecret);
    if (timingSafeEqual(next, this.master)) return 0;
    const { rows } = await this.sql.query<{ subject: string; wrapped: string }>(
      'SELECT subject, wrapped FROM data_keys WHERE wrapped IS NOT NULL',
    );
    const statements = rows.map(
      (row) =>
        `UPDATE data_keys SET wrapped = '${wrap(next, row.subject, unwrap(this.master, row.subject, row.wrapped))}' WHERE subject = ${literal(row.subject)};`,
    );
    // One script: PostgreSQL runs a multi-statement simple query as one transaction.
    await this.sql.exec(statements.join('\n'));
    return rows.length;
  }

  private async create(subject: string) {
    await this.sql.query(
      'INSERT INTO data_keys (subject, wrapped) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [subject, wrap(this.master, subject, randomBytes(32))],
    );
    // Another process may have made it first, or destroyed it: the row decides.
    const row = await selectKey(this.sql, subject);
    return this.remember(subject, row?.wrapped ? unwrap(this.master, subject, row.wrapped) : null);
  }

  /** The subject's key if this process holds it (null: destroyed); undefined: not cached. */
  cachedKeyOf(subject: string): Buffer | null | undefined {
    const entry = this.cache.get(subject);
    if (!entry) return undefined;
    if (entry.until < this.now()) {
      this.cache.delete(subject);
      return undefined;
    }
    return entry.key;
  }

  private remember(subject: string, key: Buffer | null) {
    this.cache.delete(subject);
    if (this.cache.size >= CACHE_SIZE) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    this.cache.set(subject, { key, until: this.now() + KEY_CACHE_MS });
    return key;
  }
}

const selectKey = async (sql: SqlClient, subject: string) => {
  const { rows } = await sql.query<{ wrapped: string | null }>(
    'SELECT wrapped FROM data_keys WHERE subject = $1',
    [subject],
    'data_keys_select',
  );
  return rows[0];
};

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
