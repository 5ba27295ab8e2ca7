import { ConcurrencyError, type EventStore, isWrongExpectedRevision } from '@astra/event-store';
import { type CreditCommand, isDomainError } from '@astra/ledger';
import {
  type NarrativeWriter,
  streamingWriter,
  type WriteOptions,
  writerTexts,
} from '@astra/readings';
import { type CommandContext, Ledger, type LedgerOptions } from '../ledger/ledger.ts';
import type { Metrics } from './metrics.ts';

/** A stream's category: its name up to the id (`credits-…` → `credits`). */
const categoryOf = (stream: string) =>
  /^(credits|user|email|free-allotment|reading|stripe|feedback)-/.exec(stream)?.[1] ?? 'other';

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

type Handled = { newEvents: unknown[] };

/**
 * The ledger with every command counted by stream category and outcome: `appended`, `unchanged`
 * (nothing to append), `refused` (a domain refusal), `conflict` (the stream kept changing through
 * every retry: `409 conflict`) or `error`. Refunds of spends are counted by reason. The
 * `Ledger` itself is unchanged: this subclass wraps its command methods.
 */
export class ObservedLedger extends Ledger {
  constructor(
    store: EventStore,
    private readonly metrics: Metrics,
    options: LedgerOptions = {},
  ) {
    super(conflictCountingStore(store, metrics), options);
  }

  private async observe<T extends Handled>(category: string, run: () => Promise<T>) {
    try {
      const handled = await run();
      this.metrics.commands.inc({
        category,
        outcome: handled.newEvents.length ? 'appended' : 'unchanged',
      });
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

  override async credits(userId: string, command: CreditCommand, context: CommandContext) {
    const handled = await this.observe('credits', () => super.credits(userId, command, context));
    if (command.type === 'RefundSpend' && handled.newEvents.length)
      this.metrics.refunds.inc({ reason: command.reason });
    return handled;
  }
  override user(...args: Parameters<Ledger['user']>) {
    return this.observe('user', () => super.user(...args));
  }
  override email(...args: Parameters<Ledger['email']>) {
    return this.observe('email', () => super.email(...args));
  }
  override freeAllotment(...args: Parameters<Ledger['freeAllotment']>) {
    return this.observe('free-allotment', () => super.freeAllotment(...args));
  }
  override feedback(...args: Parameters<Ledger['feedback']>) {
    return this.observe('feedback', () => super.feedback(...args));
  }
  override reading(...args: Parameters<Ledger['reading']>) {
    return this.observe('reading', () => super.reading(...args));
  }
  override stripeEvent(...args: Parameters<Ledger['stripeEvent']>) {
    return this.observe('stripe', () => super.stripeEvent(...args));
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
