import { randomUUID } from 'node:crypto';
import { type Actor, type CreditEvent, type EventMetadata, SCHEMA_VERSION } from '@astra/contracts';
import {
  CommandHandler,
  type CommandHandlerOptions,
  type EventStore,
  type Handled,
  type SnapshotStore,
} from '@astra/event-store';
import {
  type CommandOf,
  type EventOf,
  isDomainError,
  legacyEmailKey,
  type StateOf,
  type StreamIdOf,
  type StreamKindName,
  streamKind,
  streamKindNames,
  streamName,
} from '@astra/ledger';

/** Who asks, and which request this command belongs to (copied into every event's metadata). */
export interface CommandContext {
  actor: Actor;
  correlationId: string;
  causationId?: string | null;
}

export const systemContext = (correlationId: string = randomUUID()): CommandContext => ({
  actor: { kind: 'system' },
  correlationId,
});

const metadataOf = (context: CommandContext): EventMetadata => ({
  occurredAt: new Date().toISOString(),
  actor: context.actor,
  correlationId: context.correlationId,
  causationId: context.causationId ?? null,
  schemaVersion: SCHEMA_VERSION,
});

export interface LedgerOptions {
  /**
   * Where streams whose decider declares snapshots (credit accounts) keep their state, so that a
   * cold command on a long stream replays only the events after the latest one.
   */
  snapshots?: SnapshotStore | null;
  /** A snapshot not read or kept: logged, the command goes on without it. */
  onSnapshotError?: CommandHandlerOptions<CreditEvent>['onSnapshotError'];
  /**
   * The id naming a normalized address's mailbox streams (`Keyring.mailboxId`, an HMAC under a
   * key of the server's). Default, without a keyring (tools, benchmarks): the plain SHA-256.
   */
  mailboxId?: (address: string) => string;
}

type HandlerOf<K extends StreamKindName> = CommandHandler<StateOf<K>, EventOf<K>>;
/** What a command on a stream of kind `K` did: its new events, the state and where it ended. */
export type HandledOf<K extends StreamKindName> = Handled<StateOf<K>, EventOf<K>>;

/**
 * The write side: every command of every stream goes through `handle`, one command handler per
 * kind of stream (`streamKinds`, packages/ledger/src/streams.ts).
 */
export class Ledger {
  private readonly handlers: { [K in StreamKindName]: HandlerOf<K> };
  /** See `LedgerOptions.mailboxId`. */
  readonly mailboxId: (address: string) => string;

  constructor(
    readonly store: EventStore,
    options: LedgerOptions = {},
  ) {
    this.mailboxId = options.mailboxId ?? legacyEmailKey;
    const handlerOf = <K extends StreamKindName>(name: K) => {
      const { decider, decode, cacheSize } = streamKind(name);
      return new CommandHandler(store, decider, {
        decode,
        cacheSize,
        // Kept only for a decider that declares snapshots (the credit account's).
        snapshots: options.snapshots ?? undefined,
        onSnapshotError: options.onSnapshotError,
        // A refusal is the decider's own error: any other, on a state from a snapshot, is a
        // snapshot that cannot be read (its purchases are decoded when first asked for).
        isRefusal: isDomainError,
      });
    };
    this.handlers = Object.fromEntries(
      streamKindNames.map((name) => [name, handlerOf(name)]),
    ) as typeof this.handlers;
  }

  /** Resolves when the snapshots asked for so far are written (before the storage closes). */
  async snapshotsSettled() {
    await Promise.all(streamKindNames.map((name) => this.handlers[name].snapshotsSettled()));
  }

  /** Decides `command` on the stream `id` of kind `kind` and appends what it decided. */
  handle<K extends StreamKindName>(
    kind: K,
    id: StreamIdOf<K>,
    command: CommandOf<K>,
    context: CommandContext,
  ): Promise<HandledOf<K>> {
    const { decider, subjectOf } = streamKind(kind);
    const metadata = metadataOf(context);
    return this.handlers[kind].handle(
      this.streamOf(kind, id),
      (state) => decider.decide(command, state),
      subjectOf
        ? (state) => {
            const subject = subjectOf(state, command);
            return subject ? { ...metadata, subject } : metadata;
          }
        : metadata,
    );
  }

  /** The current state of the stream `id` of kind `kind` (and its revision). */
  load<K extends StreamKindName>(kind: K, id: StreamIdOf<K>) {
    return this.handlers[kind].load(this.streamOf(kind, id));
  }

  private streamOf<K extends StreamKindName>(kind: K, id: StreamIdOf<K>) {
    const mailbox = streamKind(kind).byMailbox && id !== null;
    return streamName(kind, (mailbox ? this.mailboxId(id) : id) as StreamIdOf<K>);
  }
}

/** The latest of the positions a workflow's commands reached (what a reader must wait for). */
export const latestPosition = (...positions: (bigint | null)[]) =>
  positions.reduce<bigint | null>(
    (latest, p) => (p !== null && (latest === null || p > latest) ? p : latest),
    null,
  );
