import { ConcurrencyError, type EventStore, isWrongExpectedRevision } from '@astra/event-store';
import {
  type CommandOf,
  isDomainError,
  type StreamIdOf,
  type StreamKindName,
  streamKindOf,
  streamKinds,
} from '@astra/ledger';
import {
  type NarrativeWriter,
  streamingWriter,
  type WriteOptions,
  writerTexts,
} from '@astra/readings';
import { type CommandContext, Ledger, type LedgerOptions } from '../ledger/ledger.ts';
import type { Metrics } from './metrics.ts';

/** A stream's category: its name up to the id (`credits-…` → `credits`), `other` if none. */
const categoryOf = (stream: string) => {
  const kind = streamKindOf(stream);
  return kind ? streamKinds[kind].category : 'other';
};

/**
 * The event store as the command handlers see it, counting each append refused for a wrong
 * expected revision (a conflict, which the handler retries) by stream category. Everything else
 * is the store itself.
 */
export function conflictCountingStore(store: EventStore, metrics: Metrics): EventStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property !== 'append') {
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      const append: EventStore['append'] = async (stream, events, options) => {
        try {
          return await target.append(stream, events, options);
        } catch (error) {
          if (isWrongExpectedRevision(error))
            metrics.conflicts.inc({ category: categoryOf(stream) });
          throw error;
        }
      };
      return append;
    },
  });
}

/** A credit account's refund of a spend (refunds are counted by reason). */
const isRefund = (command: {
  type: string;
}): command is Extract<CommandOf<'credits'>, { type: 'RefundSpend' }> =>
  command.type === 'RefundSpend';

/**
 * The ledger with every command counted by stream category and outcome: `appended`, `unchanged`
 * (nothing to append), `refused` (a domain refusal), `conflict` (the stream kept changing through
 * every retry: `409 conflict`) or `error`. Refunds of spends are counted by reason. The
 * `Ledger` itself is unchanged: this subclass wraps its one command method.
 */
export class ObservedLedger extends Ledger {
  constructor(
    store: EventStore,
    private readonly metrics: Metrics,
    options: LedgerOptions = {},
  ) {
    super(conflictCountingStore(store, metrics), options);
  }

  override async handle<K extends StreamKindName>(
    kind: K,
    id: StreamIdOf<K>,
    command: CommandOf<K>,
    context: CommandContext,
  ) {
    const { category } = streamKinds[kind];
    try {
      const handled = await super.handle(kind, id, command, context);
      const outcome = handled.newEvents.length ? 'appended' : 'unchanged';
      this.metrics.commands.inc({ category, outcome });
      if (outcome === 'appended' && isRefund(command))
        this.metrics.refunds.inc({ reason: command.reason });
      return handled;
    } catch (error) {
      const outcome = isDomainError(error)
        ? 'refused'
        : error instanceof ConcurrencyError
          ? 'conflict'
          : 'error';
      this.metrics.commands.inc({ category, outcome });
      throw error;
    }
  }
}

/** A text's pieces, timed: until the first piece, and until the last (or the failure). */
async function* timedPieces(
  pieces: AsyncIterable<string>,
  metrics: Metrics,
  labels: { kind: string; writer: string },
) {
  const end = metrics.readingGeneration.startTimer(labels);
  const firstText = metrics.readingFirstText.startTimer(labels);
  let first = true;
  try {
    for await (const piece of pieces) {
      if (first) firstText();
      first = false;
      yield piece;
    }
    end({ outcome: 'written' });
  } catch (error) {
    end({ outcome: 'failed' });
    throw error;
  }
}

/** The narrative writer, timed: how long each reading's text took, by kind and outcome. */
export function timedWriter(writer: NarrativeWriter, metrics: Metrics): NarrativeWriter {
  const timed = {} as Record<(typeof writerTexts)[number], unknown>;
  for (const kind of writerTexts) {
    const stream = writer.stream[kind].bind(writer.stream) as (
      facts: unknown,
      options?: WriteOptions,
    ) => AsyncIterable<string>;
    timed[kind] = (facts: unknown, options?: WriteOptions) =>
      timedPieces(stream(facts, options), metrics, { kind, writer: writer.id });
  }
  return streamingWriter(writer.id, timed as NarrativeWriter['stream']);
}
