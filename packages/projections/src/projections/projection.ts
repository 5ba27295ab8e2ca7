import { type Decoded, type EventMetadata, type EventSchemas, isEventOf } from '@astra/contracts';
import type { RecordedEvent } from '@astra/event-store';
import type { ReadDb } from '../database.ts';

/**
 * An event of the log as projections receive it: decoded (upcast and parsed by its contract) by
 * the projector when its stream is the app's; an event of any other stream as stored (no
 * projection reads those: `inCategory` takes only the app's, decoded).
 */
export type LogEvent = Decoded | ForeignEvent;
/** An event of a stream that is not the app's, as stored. */
export type ForeignEvent = RecordedEvent & { readonly foreign: true };

/**
 * A read model kept from events. `apply` receives a batch in global order inside the projector's
 * transaction, which also moves the projection's checkpoint: a batch lands whole or not at all.
 */
export interface Projection {
  readonly name: string;
  /** Tables this projection alone writes (compared by the rebuild test). */
  readonly tables: readonly string[];
  apply(db: ReadDb, events: readonly LogEvent[]): Promise<void>;
}

/** When the event happened by its metadata (the store's clock as a fallback). */
export const occurredAt = (event: RecordedEvent) =>
  new Date((event.metadata as Partial<EventMetadata>).occurredAt ?? event.recordedAt);

export const actorOf = (event: RecordedEvent) => {
  const actor = (event.metadata as Partial<EventMetadata>).actor;
  if (!actor) return { kind: 'system', id: null, role: null };
  return actor.kind === 'user'
    ? { kind: 'user', id: actor.userId, role: actor.role }
    : { kind: actor.kind, id: null, role: null };
};

/**
 * The events of one stream category (`credits`, `user`, …) with the id after the prefix, as the
 * category's events (`schemas`): another type in such a stream is an error, never skipped.
 */
export const inCategory = <S extends EventSchemas>(
  events: readonly LogEvent[],
  category: string,
  schemas: S,
) => {
  const prefix = `${category}-`;
  const of = isEventOf(schemas);
  return events.flatMap((event) => {
    if ('foreign' in event || !event.stream.startsWith(prefix)) return [];
    if (!of(event)) {
      throw new Error(
        `Event ${event.type} at position ${event.position} (stream ${event.stream}) is not an event of a ${prefix} stream`,
      );
    }
    return [{ id: event.stream.slice(prefix.length), event }];
  });
};

export const chunks = <T>(items: readonly T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
    items.slice(i * size, (i + 1) * size),
  );
