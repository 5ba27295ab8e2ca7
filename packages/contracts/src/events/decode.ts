import type { z } from 'zod';
import { creditEventSchemas } from './credits.ts';
import { financeMonthEventSchemas } from './finance.ts';
import { SCHEMA_VERSION } from './metadata.ts';
import { stripeBalanceEventSchemas, stripeEventSchemas } from './payments.ts';
import { dataSubjectOf, personalFieldsOf } from './personal.ts';
import { readingEventSchemas } from './readings.ts';
import {
  adminRegistryEventSchemas,
  emailEventSchemas,
  feedbackEventSchemas,
  freeAllotmentEventSchemas,
  userEventSchemas,
} from './users.ts';

/**
 * Stored events are decoded, never cast: every event read back from the log is brought up to the
 * current `schemaVersion` by its type's upcasters, then parsed by its contract schema. An event
 * that does not decode is an `EventDecodeError` naming where it is in the log (see docs/events.md,
 * "Schema versions").
 */

/** An event as the store gives it back (the event store's `RecordedEvent`). */
export interface StoredEvent {
  id: string;
  stream: string;
  revision: bigint;
  position: bigint;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  recordedAt: Date;
}

/** A stored event whose `type` and `data` are those of the contract (a union stays a union). */
export type Decoded<E extends { type: string; data: unknown } = AppEvent> = E extends unknown
  ? Omit<StoredEvent, 'type' | 'data'> & E
  : never;

/** A family of event schemas by type (`creditEventSchemas`, …). */
export type EventSchemas = Record<string, z.ZodType>;
type Schemas = EventSchemas;
/** The events of a family of schemas (`creditEventSchemas`, …): `{type, data}` by type. */
export type EventOf<S extends Schemas> = {
  [K in keyof S & string]: { type: K; data: z.infer<S[K]> };
}[keyof S & string];

/**
 * The events of each kind of stream, by type: the one list that `eventSchemas` (what the store's
 * boundary decodes, encrypts and erases) and the streams' decoders come from. A new kind of
 * stream adds its family here, and the compiler asks for its name in `familyNames`.
 */
export const streamEventSchemas = {
  credits: creditEventSchemas,
  user: userEventSchemas,
  reading: readingEventSchemas,
  email: emailEventSchemas,
  freeAllotment: freeAllotmentEventSchemas,
  admins: adminRegistryEventSchemas,
  stripe: stripeEventSchemas,
  stripeBalance: stripeBalanceEventSchemas,
  feedback: feedbackEventSchemas,
  financeMonths: financeMonthEventSchemas,
} as const;
type StreamFamilies = typeof streamEventSchemas;
type StreamFamily = keyof StreamFamilies;
/** How a decoding error names the stream an event must belong to. */
const familyNames: Record<StreamFamily, string> = {
  credits: 'an event of a credits- stream',
  user: 'an event of a user- stream',
  reading: 'an event of a reading- stream',
  email: 'an event of an email- stream',
  freeAllotment: 'an event of a free-allotment- stream',
  admins: 'an event of the admins stream',
  stripe: 'an event of a stripe- stream',
  stripeBalance: 'an event of the stripe-balance stream',
  feedback: 'an event of a feedback- stream',
  financeMonths: 'an event of the finance-months stream',
};
type UnionToIntersection<U> = (U extends unknown ? (each: U) => void : never) extends (
  all: infer I,
) => void
  ? I
  : never;

/** Every event type the app writes, with its current schema. */
export const eventSchemas = Object.assign(
  {},
  ...Object.values(streamEventSchemas),
) as UnionToIntersection<StreamFamilies[StreamFamily]>;
export type AppEventType = keyof typeof eventSchemas;
/** Every event the app writes: `{type, data}` as its schema gives it. */
export type AppEvent = { [F in StreamFamily]: EventOf<StreamFamilies[F]> }[StreamFamily];

/**
 * The personal data of the app's events, as the event store's boundary encrypts it: the
 * `personal()` fields of each type and whose data they are.
 */
export const personalData = {
  fields: personalFieldsOf(eventSchemas),
  subjectOf: dataSubjectOf,
  erasedSubjectOf: (event: {
    type: string;
    stream: string;
    data: unknown;
    metadata?: Record<string, unknown>;
  }) =>
    event.type === 'PersonalDataErased'
      ? dataSubjectOf(event.stream, event.data, event.metadata)
      : null,
};

/**
 * Where a log line's fields may hold personal data, as pino's `redact` paths: every personal
 * field's name at the top and two levels down (the paths have no "any depth"), and the free text
 * inside results and forms. A feedback's `message` only where it is one (`data.message`): `*.message`
 * would hide every error's message.
 */
export const personalLogPaths: readonly string[] = [
  ...new Set([
    ...[...personalData.fields.values()].flatMap((fields) => [...fields.keys()]),
    'readingText',
    'birthPlace',
  ]),
]
  .filter((name) => name !== 'message')
  .flatMap((name) => [name, `*.${name}`, `*.*.${name}`])
  .concat(['message', 'data.message', 'body.message', 'feedback.message']);

/** Turns a payload of version `from` into one of version `from + 1` (data only, no I/O). */
type Upcaster = (data: Record<string, unknown>) => Record<string, unknown>;

/**
 * The upcasters of each event type, keyed by the version they upcast from. A version bump needs
 * one only for the types whose payload changed; the others read as they were written.
 */
export const upcasters: Partial<Record<AppEventType, Record<number, Upcaster>>> = {
  // 1 → 2: `source` became required. Role changes written before it existed were all appended by
  // sign-in because the address was in `ADMIN_EMAILS` (no other code gave roles).
  UserRoleChanged: { 1: (data) => ({ ...data, source: data.source ?? 'admin_emails' }) },
};

/** A stored event that its contract cannot read: where it is, and what is wrong with it. */
export class EventDecodeError extends Error {
  override readonly name = 'EventDecodeError';
  readonly stream: string;
  readonly revision: bigint;
  readonly position: bigint;
  readonly type: string;
  constructor(
    event: Pick<StoredEvent, 'stream' | 'revision' | 'position' | 'type'>,
    readonly problem: string,
    readonly issues: readonly z.core.$ZodIssue[] = [],
  ) {
    super(
      `Cannot decode event ${event.type} at position ${event.position} (stream ${event.stream}, revision ${event.revision}): ${problem}`,
    );
    this.stream = event.stream;
    this.revision = event.revision;
    this.position = event.position;
    this.type = event.type;
  }
}

const issuesText = (issues: readonly z.core.$ZodIssue[]) =>
  issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(data)'}: ${issue.message}`)
    .join('; ');

/**
 * The payload's version: events written before metadata carried one are version 1. A version
 * above the current one was written by newer code, which this code cannot read.
 */
const versionOf = (event: StoredEvent): number => {
  const version = event.metadata.schemaVersion ?? 1;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new EventDecodeError(event, `its schemaVersion ${JSON.stringify(version)} is not valid`);
  }
  if (version > SCHEMA_VERSION) {
    throw new EventDecodeError(
      event,
      `it was written at schemaVersion ${version}, newer than this code's ${SCHEMA_VERSION}`,
    );
  }
  return version;
};

const decodeWith = (schemas: Schemas, family: string, event: StoredEvent) => {
  const schema = Object.hasOwn(schemas, event.type) ? schemas[event.type] : undefined;
  if (!schema) throw new EventDecodeError(event, `${event.type} is not ${family}`);
  let data = event.data;
  const version = versionOf(event);
  if (version < SCHEMA_VERSION) {
    const steps = upcasters[event.type as AppEventType];
    for (let from = version; from < SCHEMA_VERSION; from++) {
      const upcast = steps?.[from];
      if (upcast && data !== null && typeof data === 'object') {
        data = upcast(data as Record<string, unknown>);
      }
    }
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new EventDecodeError(event, issuesText(parsed.error.issues), parsed.error.issues);
  }
  // Parsed by the schema of its type: the decoders' types only name what zod has checked.
  return { ...event, data: parsed.data };
};

/** Decodes any event of the app (see `EventDecodeError`). */
export const decodeEvent = (event: StoredEvent): Decoded =>
  decodeWith(eventSchemas, 'an event type of the app', event) as Decoded;

/**
 * The decoder of one family of events (one kind of stream): an event of another family is an
 * error too, e.g. for a `CommandHandler` of `credits-` streams.
 */
export const decoderOf =
  <S extends Schemas>(schemas: S, family = 'an event of this stream') =>
  (event: StoredEvent): Decoded<EventOf<S>> =>
    decodeWith(schemas, family, event) as Decoded<EventOf<S>>;

/** Whether a decoded event is of the family `schemas` (narrows its type). */
export const isEventOf =
  <S extends Schemas>(schemas: S) =>
  (event: Decoded): event is Decoded<EventOf<S>> & Decoded =>
    Object.hasOwn(schemas, event.type);

/**
 * The decoder of each kind of stream (a `CommandHandler`'s `decode`, a reader of one stream),
 * typed by its family (`Object.fromEntries` forgets which key holds which decoder).
 */
export const streamDecoders = Object.fromEntries(
  (Object.keys(streamEventSchemas) as StreamFamily[]).map((family) => [
    family,
    decoderOf(streamEventSchemas[family], familyNames[family]),
  ]),
) as unknown as {
  [F in StreamFamily]: (event: StoredEvent) => Decoded<EventOf<StreamFamilies[F]>>;
};
