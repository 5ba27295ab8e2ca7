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
  subjectOf(
    stream: string,
    data: unknown,
    metadata: Record<string, unknown> | undefined,
  ): string | null;
  /**
   * Whose data the event says is erased (`PersonalDataErased`), or null: a process that reads
   * it reads that person's later events as erased, whatever key it may have cached.
   */
  erasedSubjectOf?(event: RecordedEvent): string | null;
}

/**
 * The personal fields of one event as they are stored, in the event's data under `$pd` (the
 * fields themselves are left out): `s` the data subject, `f` the fields' names, `v` their values
 * (a JSON object) encrypted with AES-256-GCM under the subject's key, base64 of IV, ciphertext and
 * tag; the subject, event type and field names are its associated data. One ciphertext per event,
 * not per field: opening one costs about as much as its fields' JSON, whatever their number.
 * Without `v`: written after the subject's key was destroyed.
 */
export interface Sealed {
  s: string;
  f: string[];
  v?: string;
}

const SEALED = '$pd';

/** The sealed personal fields of an event's data, if it has any. */
export const sealedOf = (data: unknown): Sealed | undefined => {
  if (typeof data !== 'object' || data === null) return undefined;
  const sealed = (data as Record<string, unknown>)[SEALED] as Partial<Sealed> | undefined;
  return typeof sealed === 'object' &&
    sealed !== null &&
    typeof sealed.s === 'string' &&
    Array.isArray(sealed.f)
    ? (sealed as Sealed)
    : undefined;
};

const associated = (subject: string, type: string, fields: readonly string[]) =>
  Buffer.from(`${subject}/${type}/${fields.join(',')}`);

const seal = (
  key: Buffer | null,
  subject: string,
  type: string,
  values: Record<string, unknown>,
): Sealed => {
  const f = Object.keys(values);
  if (!key) return { s: subject, f };
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(associated(subject, type, f));
  const body = Buffer.concat([
    iv,
    cipher.update(JSON.stringify(values), 'utf8'),
    cipher.final(),
    cipher.getAuthTag(),
  ]);
  return { s: subject, f, v: body.toString('base64') };
};

const open = (key: Buffer, type: string, v: string, sealed: Sealed) => {
  const bytes = Buffer.from(v, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12))
    .setAAD(associated(sealed.s, type, sealed.f))
    .setAuthTag(bytes.subarray(bytes.length - 16));
  const text = decipher.update(bytes.subarray(12, bytes.length - 16), undefined, 'utf8');
  return JSON.parse(text + decipher.final('utf8')) as Record<string, unknown>;
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

/** `readAll`'s page when the reader names no batch (the stores' own default). */
const DEFAULT_BATCH = 1_000;

/** Events in arrays of `size`, for a store that does not read by pages. */
async function* pagesOf(events: AsyncIterable<RecordedEvent>, size: number) {
  let page: RecordedEvent[] = [];
  for await (const event of events) {
    page.push(event);
    if (page.length < size) continue;
    yield page;
    page = [];
  }
  if (page.length > 0) yield page;
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
    for await (const page of this.readAllPages(options)) yield* page;
  }

  /**
   * Each page as the inner store read it, opened after one query for the keys of all its
   * subjects (the inner store reads the next page meanwhile). A read in bulk from the log's start
   * (a rebuild, an export) will need most people's keys: the first page that needs any reads
   * them all in one query instead.
   */
  async *readAllPages(options?: ReadAllOptions) {
    let wholeLog =
      !options?.from &&
      options?.direction !== 'backwards' &&
      (options?.batch ?? DEFAULT_BATCH) >= DEFAULT_BATCH;
    const pages = this.inner.readAllPages
      ? this.inner.readAllPages(options)
      : pagesOf(this.inner.readAll(options), options?.batch ?? DEFAULT_BATCH);
    for await (const page of pages) {
      const subjects = new Set<string>();
      for (const event of page) {
        const sealed = sealedOf(event.data);
        if (sealed?.v !== undefined) subjects.add(sealed.s);
      }
      if (wholeLog && subjects.size > 0) {
        wholeLog = false;
        await this.keyring.prefetchAll();
      }
      await this.keyring.prefetch(subjects);
      const opened: RecordedEvent[] = [];
      for (const event of page) {
        // Each key is cached by now: an event opens without waiting (no turn of the loop each).
        const open = this.openEvent(event);
        opened.push(open instanceof Promise ? await open : open);
      }
      yield opened;
    }
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
    if (sealedOf(event.data)) {
      // Sealed already (a second run of `privacy:migrate`): nothing personal may sit beside it.
      const data = event.data as Record<string, unknown>;
      if ([...fields.keys()].some((field) => data[field] != null)) {
        throw new Error(`${event.type} on ${stream} holds personal fields beside its sealed ones`);
      }
      return event;
    }
    const data = { ...(event.data as Record<string, unknown>) };
    const values: Record<string, unknown> = {};
    for (const field of fields.keys()) {
      if (data[field] === undefined || data[field] === null) continue;
      values[field] = data[field];
      delete data[field];
    }
    if (Object.keys(values).length === 0) return event;
    const subject = this.policy.subjectOf(stream, event.data, event.metadata);
    if (!subject) throw new MissingDataSubjectError(stream, event.type);
    const key = await this.keyring.writeKeyOf(subject);
    data[SEALED] = seal(key, subject, event.type, values);
    return { ...event, data };
  }

  /** Opens the sealed fields of an event read back (a promise only when a key must be read). */
  openEvent(event: RecordedEvent): RecordedEvent | Promise<RecordedEvent> {
    const erased = this.policy.erasedSubjectOf?.(event);
    if (erased) this.keyring.forget(erased);
    const sealed = sealedOf(event.data);
    if (!sealed) return event;
    if (sealed.v === undefined) return this.opened(event, sealed, null);
    const key = this.keyring.cachedKeyOf(sealed.s);
    if (key !== undefined) return this.opened(event, sealed, key);
    return this.keyring.keyOf(sealed.s).then((read) => this.opened(event, sealed, read));
  }

  /** The event with its personal fields in clear, or their erased values when the key is gone. */
  private opened(event: RecordedEvent, sealed: Sealed, key: Buffer | null): RecordedEvent {
    const stored = event.data as Record<string, unknown>;
    const data: Record<string, unknown> = {};
    for (const field in stored) if (field !== SEALED) data[field] = stored[field];
    if (key && sealed.v !== undefined) {
      Object.assign(data, open(key, event.type, sealed.v, sealed));
      return { ...event, data };
    }
    const erasedValues = this.policy.fields.get(event.type);
    // A copy each: the reader may change what it is given.
    for (const field of sealed.f) data[field] = structuredClone(erasedValues?.get(field) ?? null);
    return { ...event, data, erased: true };
  }
}
