import { randomUUID } from 'node:crypto';
import {
  type Actor,
  type CreditEvent,
  type EmailEvent,
  type EventMetadata,
  type FeedbackEvent,
  type FreeAllotmentEvent,
  type ReadingEvent,
  SCHEMA_VERSION,
  type StripeEvent,
  streamDecoders,
  type UserEvent,
} from '@astra/contracts';
import {
  CommandHandler,
  type CommandHandlerOptions,
  type EventStore,
  type SnapshotStore,
} from '@astra/event-store';
import {
  type CreditAccount,
  type CreditCommand,
  creditAccountDecider,
  type EmailCommand,
  type EmailRegistration,
  emailRegistryDecider,
  type Feedback,
  type FeedbackCommand,
  type FreeAllotment,
  type FreeAllotmentCommand,
  feedbackDecider,
  freeAllotmentDecider,
  isDomainError,
  legacyEmailKey,
  type Reading,
  type ReadingCommand,
  readingDecider,
  type StripeEventCommand,
  type StripeEventRecord,
  streams,
  stripeEventDecider,
  type User,
  type UserCommand,
  userDecider,
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

/** The write side: every command of every stream goes through here. */
export class Ledger {
  private readonly creditHandler: CommandHandler<CreditAccount, CreditEvent>;
  private readonly userHandler: CommandHandler<User, UserEvent>;
  private readonly emailHandler: CommandHandler<EmailRegistration, EmailEvent>;
  private readonly allotmentHandler: CommandHandler<FreeAllotment, FreeAllotmentEvent>;
  private readonly readingHandler: CommandHandler<Reading, ReadingEvent>;
  private readonly stripeEventHandler: CommandHandler<StripeEventRecord, StripeEvent>;
  private readonly feedbackHandler: CommandHandler<Feedback, FeedbackEvent>;
  /** See `LedgerOptions.mailboxId`. */
  readonly mailboxId: (address: string) => string;

  constructor(
    readonly store: EventStore,
    options: LedgerOptions = {},
  ) {
    this.mailboxId = options.mailboxId ?? legacyEmailKey;
    this.creditHandler = new CommandHandler(store, creditAccountDecider, {
      decode: streamDecoders.credits,
      snapshots: options.snapshots ?? undefined,
      onSnapshotError: options.onSnapshotError,
      // A refusal is the decider's own error: any other, on a state from a snapshot, is a
      // snapshot that cannot be read (its purchases are decoded when first asked for).
      isRefusal: isDomainError,
    });
    this.userHandler = new CommandHandler(store, userDecider, { decode: streamDecoders.user });
    this.emailHandler = new CommandHandler(store, emailRegistryDecider, {
      decode: streamDecoders.email,
    });
    this.allotmentHandler = new CommandHandler(store, freeAllotmentDecider, {
      decode: streamDecoders.freeAllotment,
    });
    this.readingHandler = new CommandHandler(store, readingDecider, {
      decode: streamDecoders.reading,
    });
    this.stripeEventHandler = new CommandHandler(store, stripeEventDecider, {
      decode: streamDecoders.stripe,
      cacheSize: 1000,
    });
    // A feedback stream is written once and never read again: little worth caching.
    this.feedbackHandler = new CommandHandler(store, feedbackDecider, {
      decode: streamDecoders.feedback,
      cacheSize: 100,
    });
  }

  /** Resolves when the snapshots asked for so far are written (before the storage closes). */
  snapshotsSettled() {
    return this.creditHandler.snapshotsSettled();
  }

  credits(userId: string, command: CreditCommand, context: CommandContext) {
    return this.creditHandler.handle(
      streams.credits(userId),
      (state) => creditAccountDecider.decide(command, state),
      metadataOf(context),
    );
  }

  user(userId: string, command: UserCommand, context: CommandContext) {
    return this.userHandler.handle(
      streams.user(userId),
      (state) => userDecider.decide(command, state),
      metadataOf(context),
    );
  }

  email(email: string, command: EmailCommand, context: CommandContext) {
    return this.emailHandler.handle(
      streams.email(this.mailboxId(email)),
      (state) => emailRegistryDecider.decide(command, state),
      metadataOf(context),
    );
  }

  freeAllotment(email: string, command: FreeAllotmentCommand, context: CommandContext) {
    return this.allotmentHandler.handle(
      streams.freeAllotment(this.mailboxId(email)),
      (state) => freeAllotmentDecider.decide(command, state),
      metadataOf(context),
    );
  }

  feedback(feedbackId: string, command: FeedbackCommand, context: CommandContext) {
    return this.feedbackHandler.handle(
      streams.feedback(feedbackId),
      (state) => feedbackDecider.decide(command, state),
      metadataOf(context),
    );
  }

  reading(readingId: string, command: ReadingCommand, context: CommandContext) {
    const metadata = metadataOf(context);
    return this.readingHandler.handle(
      streams.reading(readingId),
      (state) => readingDecider.decide(command, state),
      // Whose personal data the reading's events hold: its requester's.
      (state) => {
        const subject = state.userId ?? ('userId' in command ? command.userId : undefined);
        return subject ? { ...metadata, subject } : metadata;
      },
    );
  }

  readingOf(readingId: string) {
    return this.readingHandler.load(streams.reading(readingId));
  }

  stripeEvent(eventId: string, command: StripeEventCommand, context: CommandContext) {
    return this.stripeEventHandler.handle(
      streams.stripe(eventId),
      (state) => stripeEventDecider.decide(command, state),
      metadataOf(context),
    );
  }

  stripeEventOf(eventId: string) {
    return this.stripeEventHandler.load(streams.stripe(eventId));
  }

  creditAccountOf(userId: string) {
    return this.creditHandler.load(streams.credits(userId));
  }

  userOf(userId: string) {
    return this.userHandler.load(streams.user(userId));
  }

  emailHolder(email: string) {
    return this.emailHandler.load(streams.email(this.mailboxId(email)));
  }
}

/** The latest of the positions a workflow's commands reached (what a reader must wait for). */
export const latestPosition = (...positions: (bigint | null)[]) =>
  positions.reduce<bigint | null>(
    (latest, p) => (p !== null && (latest === null || p > latest) ? p : latest),
    null,
  );
