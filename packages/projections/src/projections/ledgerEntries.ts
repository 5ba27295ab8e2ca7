import { CREDIT_EVENT_LABELS, creditEventSchemas, ledgerDetailsOf } from '@astra/contracts';
import { balanceChange, creditEventReference, grantedBy } from '@astra/ledger';
import { type Insertable, sql } from 'kysely';
import { prepareInsert, writeRowsQuery } from '../bulkInsert.ts';
import type { ReadDb } from '../database.ts';
import type { LedgerEntriesTable } from '../schema.ts';
import {
  actorOf,
  applyingWrites,
  chunks,
  inCategory,
  type LogEvent,
  occurredText,
  type Projection,
} from './projection.ts';

/** Where an account stands after its latest entry. */
interface Standing {
  balance: number;
  total: number;
  revision: bigint;
}

/** The entries of the batch's credit events, moving each account's standing in `last`. */
function entriesOf(last: Map<string, Standing>, events: readonly LogEvent[]) {
  const entries: Insertable<LedgerEntriesTable>[] = [];
  for (const { id, event } of inCategory(events, 'credits', creditEventSchemas)) {
    const before = last.get(id) ?? { balance: 0, total: 0, revision: -1n };
    if (event.revision <= before.revision) continue; // applied already
    const amount = balanceChange(event);
    const after = {
      balance: before.balance + amount,
      total: before.total + grantedBy(event),
      revision: event.revision,
    };
    last.set(id, after);
    const actor = actorOf(event);
    const reference = creditEventReference(event);
    entries.push({
      event_id: event.id,
      user_id: id,
      position: event.position,
      stream_revision: event.revision,
      type: event.type,
      amount,
      balance_after: after.balance,
      credits_after: after.total,
      actor_kind: actor.kind,
      actor_id: actor.id,
      actor_role: actor.role,
      kind: CREDIT_EVENT_LABELS[event.type].kind,
      details: JSON.stringify(ledgerDetailsOf(event)),
      reference: reference && JSON.stringify(reference),
      occurred_at: occurredText(event),
    });
  }
  return entries;
}

/** Each account's latest entry among `users`. */
async function standings(db: ReadDb, users: readonly string[]) {
  const last = new Map<string, Standing>();
  for (const part of chunks(users, 1000)) {
    const rows = await db
      .selectFrom('ledger_entries')
      .select(['user_id', 'balance_after', 'credits_after', 'stream_revision'])
      .distinctOn('user_id')
      .where('user_id', 'in', part)
      .orderBy('user_id')
      .orderBy(sql`stream_revision`, 'desc')
      .execute();
    for (const row of rows) {
      last.set(row.user_id, {
        balance: row.balance_after,
        total: row.credits_after,
        revision: BigInt(row.stream_revision),
      });
    }
  }
  return last;
}

/** The batch's entries, each after its account's last one. */
async function ledgerEntriesWrites(db: ReadDb, events: readonly LogEvent[]) {
  const credits = inCategory(events, 'credits', creditEventSchemas);
  if (credits.length === 0) return [];
  const last = await standings(db, [...new Set(credits.map((c) => c.id))]);
  const query = writeRowsQuery('ledger_entries', entriesOf(last, events));
  return query ? [query] : [];
}

/**
 * `ledger_entries`: every credit event with the balance it left, its actor, its kind and the
 * parameters of its words (`ledgerDetailsOf`).
 */
export const ledgerEntriesProjection: Projection = {
  name: 'ledger_entries',
  tables: ['ledger_entries'],
  categories: ['credits'],
  writes: ledgerEntriesWrites,
  apply: applyingWrites(ledgerEntriesWrites),
  replay() {
    // Append-only: each account's standing stays in memory, the batch's entries go out at once.
    const last = new Map<string, Standing>();
    let entries: Insertable<LedgerEntriesTable>[] = [];
    return {
      fold(events) {
        for (const entry of entriesOf(last, events)) entries.push(entry);
      },
      flush() {
        const writes = entries.length ? [prepareInsert('ledger_entries', entries)] : [];
        entries = [];
        return writes;
      },
    };
  },
};
