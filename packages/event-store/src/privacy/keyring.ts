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
/** Present while `privacy:migrate` runs: the app does not start on a log half migrated. */
const MIGRATING = '$migrating';
/** Rows whose subject starts with `$` are the keyring's own, not a person's. */
const PEOPLE = "subject NOT LIKE '$%'";
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
  /** Subjects this process knows erased: no key read later, or cached before, serves them. */
  private readonly destroyed = new Set<string>();
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
    if (options.migrating) {
      await sql.query('INSERT INTO data_keys (subject) VALUES ($1) ON CONFLICT DO NOTHING', [
        MIGRATING,
      ]);
    } else if (await selectKey(sql, MIGRATING)) {
      throw new LogPredatesEncryptionError();
    }
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
      `SELECT subject, wrapped FROM data_keys WHERE ${PEOPLE} LIMIT $1`,
      [CACHE_SIZE],
      'data_keys_prefetch_all',
    );
    for (const row of rows) this.rememberRow(row);
  }

  private rememberRow({ subject, wrapped }: { subject: string; wrapped?: string | null }) {
    this.remember(subject, wrapped ? unwrap(this.master, subject, wrapped) : null);
  }

  /** `privacy:migrate` has sealed the whole log: the app may start on it. */
  async finishMigration() {
    await this.sql.query('DELETE FROM data_keys WHERE subject = $1', [MIGRATING]);
  }

  /** The subject's key to write with, made on first use; null when it was destroyed. */
  async writeKeyOf(subject: string): Promise<Buffer | null> {
    const cached = this.cachedKeyOf(subject);
    if (cached) return cached;
    if (this.destroyed.has(subject)) return null;
    let pending = this.creating.get(subject);
    if (!pending) {
      pending = this.create(subject).finally(() => this.creating.delete(subject));
      this.creating.set(subject, pending);
    }
    return pending;
  }

  /** Destroys the subject's key for good: their personal data can no longer be read. */
  async destroy(subject: string) {
    if (subject.startsWith('$')) throw new Error(`${subject} is not a person's key`);
    this.forget(subject);
    await this.sql.query(
      `INSERT INTO data_keys (subject, wrapped, destroyed_at) VALUES ($1, NULL, now())
       ON CONFLICT (subject) DO UPDATE SET wrapped = NULL, destroyed_at = coalesce(data_keys.destroyed_at, now())`,
      [subject],
    );
    this.forget(subject);
  }

  /**
   * From now on this process reads the subject's data as erased, whatever a read of their key
   * begun earlier brings back (the log's `PersonalDataErased` says so, or `destroy`).
   */
  forget(subject: string) {
    this.destroyed.add(subject);
    this.creating.delete(subject);
    this.remember(subject, null);
  }

  /** Whether the subject's key was destroyed (read from the table, never the cache). */
  async isDestroyed(subject: string) {
    const row = await selectKey(this.sql, subject);
    return row !== undefined && row.wrapped === null;
  }

  /**
   * Wraps every key again under the master key of `newSecret`; answers how many. Each key is
   * swapped only where it is still as it was read (a key destroyed meanwhile stays destroyed),
   * and the keys made meanwhile are taken by another round, until none is left under the old
   * master key. The old secret opens none of them once this has returned.
   */
  async rotate(newSecret: string): Promise<number> {
    const next = masterKeyOf(newSecret);
    if (timingSafeEqual(next, this.master)) return 0;
    let rotated = 0;
    for (;;) {
      const { rows } = await this.sql.query<KeyRow>(
        'SELECT subject, wrapped FROM data_keys WHERE wrapped IS NOT NULL',
      );
      const old = rows.flatMap(({ subject, wrapped }) => {
        const key = wrapped ? unwrapOrNull(this.master, subject, wrapped) : null;
        return key ? [{ subject, wrapped, next: wrap(next, subject, key) }] : [];
      });
      if (old.length === 0) return rotated;
      const swapped = await this.sql.query<{ subject: string }>(
        `UPDATE data_keys AS d SET wrapped = u.next
         FROM unnest($1::text[], $2::text[], $3::text[]) AS u(subject, old, next)
         WHERE d.subject = u.subject AND d.wrapped = u.old RETURNING d.subject`,
        [old.map((k) => k.subject), old.map((k) => k.wrapped), old.map((k) => k.next)],
      );
      rotated += swapped.rows.length;
    }
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
    if (this.destroyed.has(subject)) return null;
    const entry = this.cache.get(subject);
    if (!entry) return undefined;
    if (entry.until < this.now()) {
      this.cache.delete(subject);
      return undefined;
    }
    return entry.key;
  }

  private remember(subject: string, found: Buffer | null) {
    const key = this.destroyed.has(subject) ? null : found;
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

/** The key, or null when `master` does not open it (it is wrapped under another one). */
const unwrapOrNull = (master: Buffer, subject: string, wrapped: string) => {
  try {
    return unwrap(master, subject, wrapped);
  } catch {
    return null;
  }
};
