import { z } from 'zod';

/**
 * Personal data in events (docs/events.md, "Personal data"). A field wrapped in `personal()` is
 * data about the stream's data subject: the event store's boundary encrypts it under that
 * person's own key before it is stored, and decrypts it when it is read, so deciders,
 * projections and screens see plain values. When the person's data is erased their key is
 * destroyed, and the field reads as its `erased` value from then on (a tombstone the field's
 * schema accepts: null, an empty string or an empty object).
 */
const personalRegistry = z.registry<{ erased: unknown }>();

/** Marks a field of an event as personal data; `erased` is what it reads as once erased. */
export const personal = <T extends z.ZodType>(schema: T, erased: z.output<T>): T => {
  personalRegistry.add(schema, { erased });
  return schema;
};

/** What a field reads as once its subject's key is gone, or undefined when it is not personal. */
const erasedValueOf = (schema: z.ZodType): { erased: unknown } | undefined => {
  let current: z.ZodType | undefined = schema;
  // `.partial()`, `.optional()`, `.nullable()` and `.default()` wrap the marked schema: look inside.
  while (current) {
    const marked = personalRegistry.get(current);
    if (marked) return marked;
    current =
      current instanceof z.ZodOptional ||
      current instanceof z.ZodNullable ||
      current instanceof z.ZodDefault
        ? (current.unwrap() as z.ZodType)
        : undefined;
  }
  return undefined;
};

/** The personal fields of each event type, with the value each reads as once erased. */
export type PersonalFields = ReadonlyMap<string, ReadonlyMap<string, unknown>>;

/** Collects the `personal()` fields of event schemas (top-level fields of their data). */
export const personalFieldsOf = (schemas: Record<string, z.ZodType>): PersonalFields => {
  const byType = new Map<string, Map<string, unknown>>();
  for (const [type, schema] of Object.entries(schemas)) {
    if (!(schema instanceof z.ZodObject)) continue;
    const fields = new Map<string, unknown>();
    for (const [field, fieldSchema] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      const marked = erasedValueOf(fieldSchema);
      if (marked) fields.set(field, marked.erased);
    }
    if (fields.size) byType.set(type, fields);
  }
  return byType;
};

/**
 * Whose data an event's personal fields are: the one the writer names in the metadata's
 * `subject` (a reading's requester, also for the second person of a compatibility reading),
 * else the owner of a `user-{id}` or `credits-{id}` stream, else the event's `userId`.
 */
export const dataSubjectOf = (
  stream: string,
  data: unknown,
  metadata: Record<string, unknown> | undefined,
): string | null => {
  if (typeof metadata?.subject === 'string') return metadata.subject;
  const owned = /^(?:user|credits)-(.+)$/.exec(stream);
  if (owned?.[1]) return owned[1];
  const userId = (data as { userId?: unknown } | null)?.userId;
  return typeof userId === 'string' ? userId : null;
};
