import { LIBRARY_PAGE_SIZE, type LibraryItem, type ReadingView } from '@astra/contracts';
import type { ReadDb, UsageLog } from '@astra/projections';

const iso = (value: Date | string) =>
  (value instanceof Date ? value : new Date(value)).toISOString();

/** A compatibility reading's second person, from its stored form (gone once erased). */
export const partnerOf = (input: Record<string, unknown>): string | null => {
  const person2 = (input as { person2?: { firstName?: unknown } }).person2;
  return typeof person2?.firstName === 'string' ? person2.firstName : null;
};

const itemOf = (row: UsageLog): LibraryItem => ({
  readingId: row.log_id,
  appId: row.app_id,
  appName: row.app_name,
  firstName: row.first_name,
  partnerName: partnerOf(row.input_data),
  question: row.question,
  creditsCharged: row.credits_charged,
  createdAt: iso(row.created_at),
  voiceUsed: row.voice_agent_used,
});

export const readingViewOf = (row: UsageLog): ReadingView => ({
  ...itemOf(row),
  input: row.input_data,
  result: row.reading_result_content,
});

/** One of the user's own completed readings; others' and unknown ones are alike: undefined. */
export const ownReading = (read: ReadDb, userId: string, readingId: string) =>
  read
    .selectFrom('usage_logs')
    .selectAll()
    .where('log_id', '=', readingId)
    .where('user_id', '=', userId)
    .where('status', '=', 'completed')
    .executeTakeFirst();

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The library: completed readings, newest first, searched over app name and question. */
export async function libraryOf(
  read: ReadDb,
  userId: string,
  {
    search,
    appId,
    page,
  }: { search?: string | undefined; appId?: number | undefined; page: number },
) {
  let query = read
    .selectFrom('usage_logs')
    .where('user_id', '=', userId)
    .where('status', '=', 'completed');
  const everything = query;
  if (appId !== undefined) query = query.where('app_id', '=', appId);
  if (search) {
    const pattern = likePattern(search);
    query = query.where((eb) =>
      eb.or([eb('app_name', 'ilike', pattern), eb('question', 'ilike', pattern)]),
    );
  }
  const [rows, count, apps] = await Promise.all([
    query
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('log_id')
      .limit(LIBRARY_PAGE_SIZE)
      .offset((page - 1) * LIBRARY_PAGE_SIZE)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
    everything.select(['app_id', 'app_name']).distinct().orderBy('app_id').execute(),
  ]);
  return {
    items: rows.map(itemOf),
    total: Number(count.total),
    page,
    pageSize: LIBRARY_PAGE_SIZE,
    apps: apps.map((a) => ({ appId: a.app_id, appName: a.app_name })),
  };
}
