import { z } from 'zod';
import { readingViewSchema } from './readings.ts';

/**
 * A reading whose text is streamed as it is written: `POST /api/readings/{kind}/start` answers
 * at once with the facts (chart, cards, numbers), and `GET /api/readings/{id}/stream` sends the
 * text as server-sent events while the writer writes it (see docs/api.md).
 */

/**
 * `202` of `POST /api/readings/{kind}/start`: the reading as `GET /api/readings/:id` will show
 * it, with its facts and its text field still empty (the 201's `readingId`, `appId`,
 * `remainingCredits` and `result` among them), and where its text arrives.
 */
export const readingStartedSchema = readingViewSchema.extend({
  /** The result's field the text goes in; it is `""` here. */
  textField: z.string(),
  /** The balance right after the spend. */
  remainingCredits: z.number().int(),
  /** Where the text arrives: `/api/readings/{readingId}/stream`. */
  stream: z.string(),
});
export type ReadingStarted = z.infer<typeof readingStartedSchema>;

/**
 * `GET /api/readings/{id}/stream?from=`: `from` (or the `Last-Event-ID` header an EventSource
 * sends when it reconnects, which wins) is how many characters of the text the client has.
 */
export const readingStreamQuerySchema = z.object({
  from: z.coerce.number().int().min(0).max(10_000_000).optional(),
});

/** The SSE event `reading`, first on every connection: the reading with its facts. */
export const readingDraftSchema = readingViewSchema.extend({
  /** The result's field the text goes in; the `text` events fill it. */
  textField: z.string(),
  status: z.enum(['writing', 'completed']),
});
export type ReadingDraft = z.infer<typeof readingDraftSchema>;

/** The SSE event `text` (its `id` is `offset` + the text's length): more of the text. */
export const readingTextChunkSchema = z.object({
  /** Where in the text this piece starts (characters); a piece may repeat what came before. */
  offset: z.number().int().min(0),
  text: z.string(),
});
export type ReadingTextChunk = z.infer<typeof readingTextChunkSchema>;

/** The SSE event `done`: the reading is recorded, with its whole result; the stream ends. */
export const readingDoneSchema = z.object({ result: z.record(z.string(), z.unknown()) });

/** The SSE event `failed`: the reading was given up on; the stream ends. */
export const readingStreamFailedSchema = z.object({
  error: z.literal('generation_failed'),
  message: z.string(),
  /** Its credits were given back (false: it cost nothing, or nothing could be given back). */
  refunded: z.boolean(),
});
export type ReadingStreamFailed = z.infer<typeof readingStreamFailedSchema>;

/** Every event of the reading stream by its SSE `event` name. */
export const readingStreamEvents = {
  reading: readingDraftSchema,
  text: readingTextChunkSchema,
  done: readingDoneSchema,
  failed: readingStreamFailedSchema,
} as const;
export type ReadingStreamEventName = keyof typeof readingStreamEvents;
