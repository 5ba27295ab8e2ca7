import type { EventMetadata } from '@astra/contracts';
import type { RecordedEvent } from '@astra/event-store';
import type { ReadDb } from '../database.ts';

/**
 * A read model kept from events. `apply` receives a batch in global order inside the projector's
 * transaction, which also moves the projection's checkpoint: a batch lands whole or not at all.
 */
export interface Projection {
  readonly name: string;
  /** Tables this projection alone writes (compared by the rebuild test). */
  readonly tables: readonly string[];
  apply(db: ReadDb, events: readonly RecordedEvent[]): Promise<void>;
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

/** The events of one stream category (`credits`, `user`, …) with the id after the prefix. */
export const inCategory = (events: readonly RecordedEvent[], category: string) =>
  events.flatMap((event) =>
    event.stream.startsWith(`${category}-`)
      ? [{ id: event.stream.slice(category.length + 1), event }]
      : [],
  );

export const chunks = <T>(items: readonly T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
    items.slice(i * size, (i + 1) * size),
  );
