import { creditEventSchemas } from '@astra/contracts';
import { balanceChange, creditEventReference, describeCreditEvent, grantedBy } from '@astra/ledger';
import { sql } from 'kysely';
import { actorOf, chunks, inCategory, occurredAt, type Projection } from './projection.ts';

/** `ledger_entries`: every credit event with the balance it left, its actor and its reason. */
export const ledgerEntriesProjection: Projection = {
  name: 'ledger_entries',
  tables: ['ledger_entries'],
  async apply(db, events) {
    const credits = inCategory(events, 'credits', creditEventSchemas);
    if (credits.length === 0) return;
    const users = [...new Set(credits.map((c) => c.id))];
    // Where each account stood before this batch: its latest entry.
    const last = new Map<string, { balance: number; total: number; revision: bigint }>();
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
    const entries: Record<string, unknown>[] = [];
    for (const { id, event } of credits) {
      const before = last.get(id) ?? { balance: 0, total: 0, revision: -1n };
      if (event.revision <= before.revision) continue; // applied already
      const credit = event;
      const after = {
        balance: before.balance + balanceChange(credit),
        total: before.total + grantedBy(credit),
        revision: event.revision,
      };
      last.set(id, after);
      const actor = actorOf(event);
      const reference = creditEventReference(credit);
      entries.push({
        event_id: event.id,
        user_id: id,
        position: event.position.toString(),
        stream_revision: event.revision.toString(),
        type: event.type,
        amount: balanceChange(credit),
        balance_after: after.balance,
        credits_after: after.total,
        actor_kind: actor.kind,
        actor_id: actor.id,
        actor_role: actor.role,
        reason: describeCreditEvent(credit),
        reference,
        occurred_at: occurredAt(event).toISOString(),
      });
    }
    // One JSON document per statement: far cheaper than thousands of bound values.
    for (const part of chunks(entries, 5000)) {
      await sql`INSERT INTO ledger_entries
        SELECT * FROM json_populate_recordset(NULL::ledger_entries, ${JSON.stringify(part)})`.execute(
        db,
      );
    }
  },
};
