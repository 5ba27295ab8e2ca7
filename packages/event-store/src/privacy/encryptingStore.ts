import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeAllOptions,
} from '../port.ts';
import type { Keyring } from './keyring.ts';

/**
 * Which fields of which events are personal data, and whose (the contracts' `personalData`): the
 * store needs no other knowledge of the events.
 */
export interface PersonalDataPolicy {
  /** Event type → its personal fields → the value each reads as once erased. */
  fields: ReadonlyMap<string, ReadonlyMap<string, unknown>>;
  /** Whose data an event's personal fields are; null when it does not say. */
  subjectOf(stream: string, data: unknown, metadata: Record<string, unknown> | undefined): string | null;
}

/**
 * A personal value as it is stored: `s` the data subject, `v` the value's JSON encrypted with
 * AES-256-GCM under the subject's key (base64 of IV, ciphertext and tag; the subject and field
 * are its associated data). Without `v`: written after the subject's key was destroyed.
 */
interface Sealed {
  $pd: 1;
  s: string;
  v?: string;
}

export const isSealed = (value: unknown): value is Sealed =>
  typeof value === 'object' &&
  value !== null &&
  (value as { $pd?: unknown }).$pd === 1 &&
  typeof (value as { s?: unknown }).s === 'string';

const associated = (subject: string, field: string) => Buffer.from(`${subject}/${field}`);

export const seal = (key: Buffer | null, subject: string, field: string, value: unknown): Sealed => {
  if (!key) return { $pd: 1, s: subject };
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(associated(subject, field));
  const body = Buffer.concat([
    iv,
    cipher.update(JSON.stringify(value), 'utf8'),
    cipher.final(),
    cipher.getAuthTag(),
  ]);
  return { $pd: 1, s: subject, v: body.toString('base64') };
};

const open = (key: Buffer, sealed: Sealed & { v: string }, field: string): unknown => {
  const bytes = Buffer.from(sealed.v, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12))
    .setAAD(associated(sealed.s, field))
    .setAuthTag(bytes.subarray(bytes.length - 16));
  const text = decipher.update(bytes.subarray(12, bytes.length - 16), undefined, 'utf8');
  return JSON.parse(text + decipher.final('utf8'));
};

/** An event with personal fields names no data subject: it is not written. */
export class MissingDataSubjectError extends Error {
  override readonly name = 'MissingDataSubjectError';
  constructor(stream: string, type: string) {
    super(
      `${type} on ${stream} holds personal data but names no data subject (metadata.subject): it was not written`,
    );
  }
}

/**
 * The event store with personal data encrypted at its boundary: `append` seals each personal
 * field under its subject's key, every read opens them again. A field whose key is destroyed
 * reads as its erased value, and the event is marked `erased`. Events written in clear (before
 * encryption) read as they are.
 */
export class EncryptingEventStore implements EventStore {
  constructor(
    private readonly inner: EventStore,
    readonly keyring: Keyring,
    private readonly policy: PersonalDataPolicy,
  ) {}

  get kind() {
    return this.inner.kind;
  }

  async append(
    stream: string,
    events: readonly NewEvent[],
    options: { expected: ExpectedRevision },
  ): Promise<AppendResult> {
    const sealed: NewEvent[] = [];
    for (const event of events) sealed.push(await this.sealEvent(stream, event));
    return this.inner.append(stream, sealed, options);
  }

  async *readStream(stream: string, options?: ReadStreamOptions) {
    for await (const event of this.inner.readStream(stream, options)) yield this.openEvent(event);
  }

  async *readAll(options?: ReadAllOptions) {
    for await (const event of this.inner.readAll(options)) yield this.openEvent(event);
  }

  async *subscribeAll(options?: SubscribeAllOptions) {
    for await (const event of this.inner.subscribeAll(options)) yield this.openEvent(event);
  }

  close() {
    return this.inner.close();
  }

  /** Seals the personal fields of an event about to be written. */
  async sealEvent(stream: string, event: NewEvent): Promise<NewEvent> {
    const fields = this.policy.fields.get(event.type);
    if (!fields || typeof event.data !== 'object' || event.data === null) return event;
    const data = { ...(event.data as Record<string, unknown>) };
    const present = [...fields.keys()].filter(
      (field) => data[field] !== undefined && data[field] !== null && !isSealed(data[field]),
    );
    if (present.length === 0) return event;
    const subject = this.policy.subjectOf(stream, event.data, event.metadata);
    if (!subject) throw new MissingDataSubjectError(stream, event.type);
    const key = await this.keyring.writeKeyOf(subject);
    for (const field of present) data[field] = seal(key, subject, field, data[field]);
    return { ...event, data };
  }

  /** Opens the sealed fields of an event read back (a promise only when a key must be read). */
  openEvent(event: RecordedEvent): RecordedEvent | Promise<RecordedEvent> {
    const fields = this.policy.fields.get(event.type);
    if (!fields || typeof event.data !== 'object' || event.data === null) return event;
    const data = event.data as Record<string, unknown>;
    let sealedField = false;
    for (const field of fields.keys()) if (isSealed(data[field])) sealedField = true;
    if (!sealedField) return event;
    return this.opened(event, data, fields);
  }

  private async opened(
    event: RecordedEvent,
    data: Record<string, unknown>,
    fields: ReadonlyMap<string, unknown>,
  ): Promise<RecordedEvent> {
    const plain = { ...data };
    let erased = false;
    for (const [field, erasedValue] of fields) {
      const value = plain[field];
      if (!isSealed(value)) continue;
      const key = value.v === undefined ? null : await this.keyring.keyOf(value.s);
      if (key && value.v !== undefined) {
        plain[field] = open(key, { ...value, v: value.v }, field);
      } else {
        plain[field] = erasedValue;
        erased = true;
      }
    }
    return erased ? { ...event, data: plain, erased: true } : { ...event, data: plain };
  }
}
