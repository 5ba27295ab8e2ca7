import type { ReadDb } from '@astra/projections';

export const LEDGER_PAGE_SIZE = 50;

/** A user's ledger entries, newest first; all of them when `page` is absent. */
export async function ledgerOf(read: ReadDb, userId: string, page?: number) {
  let query = read
    .selectFrom('ledger_entries')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('stream_revision', 'desc');
  if (page !== undefined)
    query = query.limit(LEDGER_PAGE_SIZE).offset((page - 1) * LEDGER_PAGE_SIZE);
  const [items, count] = await Promise.all([
    query.execute(),
    read
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.total) };
}

export const profileOf = (read: ReadDb, userId: string) =>
  read.selectFrom('profiles').selectAll().where('id', '=', userId).executeTakeFirst();
