import { createHash } from 'node:crypto';
import { type Decoded, type StoredEvent, streamDecoders } from '@astra/contracts';
import { creditAccountDecider } from './credits/index.ts';
import type { Decider } from './decider.ts';
import { feedbackDecider } from './feedback/feedback.ts';
import { financeMonthsDecider } from './finance/monthClosing.ts';
import { stripeBalanceDecider } from './payments/stripeBalance.ts';
import { stripeEventDecider } from './payments/stripeEvent.ts';
import { readingDecider } from './readings/index.ts';
import { emailRegistryDecider } from './registration/emailRegistry.ts';
import { freeAllotmentDecider } from './registration/freeAllotment.ts';
import { ADMINS_STREAM, adminRegistryDecider, userDecider } from './users/index.ts';

type AnyEvent = { type: string; data: unknown };

/** One kind of stream: what the write side needs to run its commands and a reader to read it. */
export interface StreamKind<State, Command, Event extends AnyEvent> {
  /** The start of each stream's name, `{category}-{id}` (a `single` stream is named `category`). */
  category: string;
  decider: Decider<State, Command, Event>;
  /** Reads a stored event of the stream: upcast and parsed by its contract, never cast. */
  decode: (event: StoredEvent) => Decoded<Event>;
  /** The id is an e-mail address: the stream is named by its mailbox id (the server's HMAC). */
  byMailbox?: true;
  /** How many streams' state the write side keeps in memory (default 10,000). */
  cacheSize?: number;
  /** Whose personal data the events hold, where the stream's name does not say it. */
  subjectOf?: (state: State, command: Command) => string | undefined;
}

const kind = <State, Command, Event extends AnyEvent>(record: StreamKind<State, Command, Event>) =>
  record;

/** A kind of which there is one stream, named by its category alone (it takes no id). */
const single = <State, Command, Event extends AnyEvent>(
  record: StreamKind<State, Command, Event>,
) => ({ ...record, single: true as const });

/**
 * Every kind of stream of the ledger (docs/architecture.md, "Streams"). The API's `Ledger`, its
 * command metrics, `streams`, `decodeLogEvent` and the docs' streams tables (checked by a test)
 * follow this list: a new kind of stream is one record here.
 */
export const streamKinds = {
  user: kind({ category: 'user', decider: userDecider, decode: streamDecoders.user }),
  credits: kind({
    category: 'credits',
    decider: creditAccountDecider,
    decode: streamDecoders.credits,
  }),
  email: kind({
    category: 'email',
    decider: emailRegistryDecider,
    decode: streamDecoders.email,
    byMailbox: true,
  }),
  freeAllotment: kind({
    category: 'free-allotment',
    decider: freeAllotmentDecider,
    decode: streamDecoders.freeAllotment,
    byMailbox: true,
  }),
  // Commands on it run one at a time in a process: one stream to cache.
  admins: single({
    category: ADMINS_STREAM,
    decider: adminRegistryDecider,
    decode: streamDecoders.admins,
    cacheSize: 1,
  }),
  reading: kind({
    category: 'reading',
    decider: readingDecider,
    decode: streamDecoders.reading,
    // A reading's events hold its requester's personal data.
    subjectOf: (state, command) =>
      state.userId ?? ('userId' in command ? command.userId : undefined),
  }),
  // Before `stripe`: its name starts as a `stripe-{eventId}` would (an event id is `evt_…`).
  stripeBalance: single({
    category: 'stripe-balance',
    decider: stripeBalanceDecider,
    decode: streamDecoders.stripeBalance,
    cacheSize: 1,
  }),
  stripe: kind({
    category: 'stripe',
    decider: stripeEventDecider,
    decode: streamDecoders.stripe,
    cacheSize: 1000,
  }),
  // A feedback stream is written once and never read again: little worth caching.
  feedback: kind({
    category: 'feedback',
    decider: feedbackDecider,
    decode: streamDecoders.feedback,
    cacheSize: 100,
  }),
  // The months finance closed: one short stream, decided one close at a time.
  financeMonths: single({
    category: 'finance-months',
    decider: financeMonthsDecider,
    decode: streamDecoders.financeMonths,
    cacheSize: 1,
  }),
};

export type StreamKindName = keyof typeof streamKinds;
type KindOf<K extends StreamKindName> = (typeof streamKinds)[K];
export type StateOf<K extends StreamKindName> = ReturnType<KindOf<K>['decider']['initialState']>;
export type CommandOf<K extends StreamKindName> = Parameters<KindOf<K>['decider']['decide']>[0];
export type EventOf<K extends StreamKindName> = ReturnType<KindOf<K>['decider']['decide']>[number];
/** What names one stream of a kind: its id, or nothing for a kind of one stream. */
export type StreamIdOf<K extends StreamKindName> =
  KindOf<K> extends { single: true } ? null : string;

export const streamKindNames = Object.keys(streamKinds) as StreamKindName[];

/** A kind's record typed by its name (`streamKinds[name]` is a union for a generic `name`). */
export const streamKind = <K extends StreamKindName>(name: K) =>
  streamKinds[name] as StreamKind<StateOf<K>, CommandOf<K>, EventOf<K>> & { single?: true };

/** The name of a kind's stream: `{category}-{id}`, or the category of a kind of one stream. */
export const streamName = <K extends StreamKindName>(kindName: K, id: StreamIdOf<K>) => {
  const record = streamKind(kindName);
  return record.single ? record.category : `${record.category}-${id}`;
};

/**
 * Stream names of the ledger (see docs/events.md): `streams.credits(userId)`. A mailbox's streams
 * are named by its `mailboxId`: an HMAC of the normalized address under a key of the server's.
 */
export const streams = Object.fromEntries(
  streamKindNames.map((name) => [name, (id: never) => streamName(name, id)]),
) as { readonly [K in StreamKindName]: (id: StreamIdOf<K>) => string };

/** The kind of a stream by its name; null for a stream that is none of the app's. */
export const streamKindOf = (stream: string): StreamKindName | null =>
  streamKindNames.find((name) => {
    const record = streamKind(name);
    return record.single ? stream === record.category : stream.startsWith(`${record.category}-`);
  }) ?? null;

/**
 * An event of the log decoded as its stream's kind requires; null when the stream is none of
 * the app's (another writer's, e.g. a test's), which the app does not read.
 */
export const decodeLogEvent = (event: StoredEvent): Decoded | null => {
  const name = streamKindOf(event.stream);
  return name ? (streamKind(name).decode(event) as Decoded) : null;
};

/** The id after a stream's category prefix: `credits-abc` → `abc`. */
export const streamId = (stream: string, category: string) =>
  stream.startsWith(`${category}-`) ? stream.slice(category.length + 1) : null;

/**
 * The plain SHA-256 of an address that named mailbox streams before they were keyed by an HMAC
 * (`Keyring.mailboxId`): `privacy:migrate` renames them. Never for new streams: a dictionary of
 * addresses reverses it.
 */
export const legacyEmailKey = (email: string) =>
  createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
