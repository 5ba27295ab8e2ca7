import type { CreditEvent } from '@astra/contracts';
import { grantedBy } from '@astra/ledger';
import { chunks, inCategory, type Projection } from './projection.ts';

type Counter = 'active_users' | 'blocked_users' | 'deleted_users';
const counterOf: Record<string, Counter> = {
  active: 'active_users',
  blocked: 'blocked_users',
  deleted: 'deleted_users',
};
const statusAfter: Record<string, string> = {
  UserRegistered: 'active',
  UserBlocked: 'blocked',
  UserUnblocked: 'active',
  UserDeleted: 'deleted',
};

interface Known {
  status: string | null;
  user_revision: bigint;
  credits_revision: bigint;
}

/** `admin_stats`: the admin dashboard's counters, moved by each event exactly once. */
export const adminStatsProjection: Projection = {
  name: 'admin_stats',
  tables: ['admin_stats', 'admin_stats_users'],
  async apply(db, events) {
    const users = inCategory(events, 'user');
    const credits = inCategory(events, 'credits');
    if (users.length + credits.length === 0) return;
    const delta = {
      total_users: 0,
      active_users: 0,
      blocked_users: 0,
      deleted_users: 0,
      total_credits_used: 0,
      total_credits_granted: 0,
    };
    const ids = [...new Set([...users, ...credits].map((u) => u.id))];
    const known = new Map<string, Known>();
    for (const part of chunks(ids, 1000)) {
      for (const row of await db
        .selectFrom('admin_stats_users')
        .selectAll()
        .where('user_id', 'in', part)
        .execute()) {
        known.set(row.user_id, {
          status: row.status,
          user_revision: BigInt(row.user_revision),
          credits_revision: BigInt(row.credits_revision),
        });
      }
    }
    const blank = (): Known => ({ status: null, user_revision: -1n, credits_revision: -1n });

    for (const { id, event } of users) {
      const user = known.get(id) ?? blank();
      if (event.revision <= user.user_revision) continue; // counted already
      const after = statusAfter[event.type];
      if (after && after !== user.status) {
        if (user.status === null) delta.total_users++;
        else delta[counterOf[user.status]!]--;
        delta[counterOf[after]!]++;
      }
      known.set(id, { ...user, status: after ?? user.status, user_revision: event.revision });
    }
    for (const { id, event } of credits) {
      const user = known.get(id) ?? blank();
      if (event.revision <= user.credits_revision) continue;
      const credit = { type: event.type, data: event.data } as CreditEvent;
      if (credit.type === 'CreditsSpent') delta.total_credits_used += credit.data.amount;
      if (credit.type === 'SpendRefunded') delta.total_credits_used -= credit.data.amount;
      delta.total_credits_granted += grantedBy(credit);
      known.set(id, { ...user, credits_revision: event.revision });
    }

    for (const part of chunks(ids, 1000)) {
      await db
        .insertInto('admin_stats_users')
        .values(
          part.map((user_id) => {
            const user = known.get(user_id)!;
            return {
              user_id,
              status: user.status,
              user_revision: user.user_revision.toString(),
              credits_revision: user.credits_revision.toString(),
            };
          }),
        )
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet((eb) => ({
            status: eb.ref('excluded.status'),
            user_revision: eb.ref('excluded.user_revision'),
            credits_revision: eb.ref('excluded.credits_revision'),
          })),
        )
        .execute();
    }
    if (Object.values(delta).some((n) => n !== 0)) {
      await db
        .updateTable('admin_stats')
        .set((eb) =>
          Object.fromEntries(
            Object.entries(delta).map(([column, n]) => [
              column,
              eb(eb.ref(column as 'total_users'), '+', n),
            ]),
          ),
        )
        .where('id', '=', 1)
        .execute();
    }
  },
};
