import { personalData } from '@astra/contracts';
import { CompiledQuery } from 'kysely';
import type { Write } from '../bulkInsert.ts';
import type { ReadDb } from '../database.ts';
import { chunks, type LogEvent, type Projection } from './projection.ts';

/**
 * Erasure in read models whose rows belong to a user but not to their `user-` stream (readings,
 * feedback): when the user's `PersonalDataErased` comes, their rows keep ids, figures and dates,
 * and their personal columns take the values the events' erased fields read as, which is what a
 * rebuild gives from the log (docs/events.md, "Personal data").
 */

/** The users whose personal data a batch erases (their `PersonalDataErased`). */
export const erasedUsersIn = (events: readonly LogEvent[]): string[] => {
  const users: string[] = [];
  for (const event of events) {
    if (!('foreign' in event) && event.type === 'PersonalDataErased') {
      users.push(event.stream.slice('user-'.length));
    }
  }
  return users;
};

/**
 * The events with the personal fields of `erased` subjects read as erased, as they would be
 * read now: an event decoded just before the key was destroyed (a key cached by this process)
 * brings no personal value into a row the erasure is blanking.
 */
export const withErasedSubjects = (
  events: readonly LogEvent[],
  erased: ReadonlySet<string>,
): LogEvent[] =>
  events.map((event) => {
    const fields = personalData.fields.get(event.type);
    if (!fields || 'foreign' in event || (event as { erased?: true }).erased) return event;
    const subject = personalData.subjectOf(event.stream, event.data, event.metadata);
    if (!subject || !erased.has(subject)) return event;
    const data = { ...(event.data as Record<string, unknown>) };
    for (const [field, value] of fields) if (data[field] !== undefined) data[field] = value;
    return { ...event, data, erased: true } as LogEvent;
  });

/**
 * `projection` that also follows `user-` streams and, on a user's `PersonalDataErased`, runs
 * `forget(userIds)` (an UPDATE of its table blanking their rows): first in a live batch, before
 * the batch's own rows are loaded and written (the projector joins writes into one statement,
 * whose parts do not see each other's rows); last in a replay, after every row is written.
 */
export function forgetting(
  projection: Projection,
  forget: (userIds: readonly string[]) => CompiledQuery,
): Projection {
  const forgetAll = async (db: ReadDb, users: readonly string[]) => {
    for (const part of chunks(users, 1000)) await db.executeQuery(forget(part));
  };
  /** Runs the erasure of the batch's users now; the batch as its projection must read it. */
  const eraseFirst = async (db: ReadDb, events: readonly LogEvent[]) => {
    const users = erasedUsersIn(events);
    if (users.length === 0) return events;
    await forgetAll(db, users);
    return withErasedSubjects(events, new Set(users));
  };
  const inner = projection.writes?.bind(projection);
  const innerReplay = projection.replay?.bind(projection);
  return {
    name: projection.name,
    tables: projection.tables,
    categories: projection.categories && [...projection.categories, 'user'],
    ...(inner ? { writes: async (db, events) => inner(db, await eraseFirst(db, events)) } : {}),
    apply: async (db, events) => projection.apply(db, await eraseFirst(db, events)),
    ...(innerReplay
      ? {
          replay(options) {
            const replay = innerReplay(options);
            const erased = new Set<string>();
            return {
              fold(events, db, settled) {
                const users = erasedUsersIn(events);
                for (const user of users) erased.add(user);
                return replay.fold(
                  users.length ? withErasedSubjects(events, erased) : events,
                  db,
                  settled,
                );
              },
              flush(final) {
                const writes = replay.flush(final);
                if (!final || erased.size === 0) return writes;
                const users = [...erased];
                const last: Write = (db) => forgetAll(db, users);
                return [...writes, last];
              },
            };
          },
        }
      : {}),
  };
}

/** `usage_logs` of erased users: kind, cost, status, dates and voice figures stay. */
export const forgetReadings = (userIds: readonly string[]) =>
  CompiledQuery.raw(
    `UPDATE usage_logs SET question = NULL, first_name = NULL, input_data = '{}'::jsonb,
      reading_result_content = '{}'::jsonb WHERE user_id = ANY($1::text[])`,
    [userIds],
  );

/** `feedback` of erased users: the messages go, the rows (who, when) stay. */
export const forgetFeedback = (userIds: readonly string[]) =>
  CompiledQuery.raw(`UPDATE feedback SET message = '' WHERE user_id = ANY($1::text[])`, [userIds]);
