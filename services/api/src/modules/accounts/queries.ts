import type { ReadDb } from '@astra/projections';

export const LEDGER_PAGE_SIZE = 50;

/** A user's ledger entries, newest first; all of them when `page` is absent. */
/** A user's ledger entries, newest first; `changesOnly` leaves out those that moved no credit. */
export async function ledgerOf(
  read: ReadDb,
  userId: string,
  page?: number,
  { changesOnly = false } = {},
) {
  let entries = read.selectFrom('ledger_entries').where('user_id', '=', userId);
  if (changesOnly) entries = entries.where('amount', '<>', 0);
  let query = entries.selectAll().orderBy('stream_revision', 'desc');
  if (page !== undefined)
    query = query.limit(LEDGER_PAGE_SIZE).offset((page - 1) * LEDGER_PAGE_SIZE);
  const [items, count] = await Promise.all([
    query.execute(),
    entries.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.total) };
}

export const profileOf = (read: ReadDb, userId: string) =>
  read.selectFrom('profiles').selectAll().where('id', '=', userId).executeTakeFirst();
