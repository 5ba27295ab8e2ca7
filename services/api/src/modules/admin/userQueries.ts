import { ADMIN_USERS_COUNT_LIMIT, type AdminUser, adminMessages } from '@astra/contracts';
import { joinName } from '@astra/ledger';
import type { Profile, ReadDb } from '@astra/projections';

/** `GET /api/admin/users`: 20 a page. */
export const ADMIN_USERS_PAGE_SIZE = 20;

const iso = (value: Date | string) =>
  (value instanceof Date ? value : new Date(value)).toISOString();

/** `%` and `_` (and the escape itself) in a search are literal, not LIKE wildcards. */
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A profile as the admin panel shows it. */
export const adminUserView = (profile: Profile): AdminUser => ({
  id: profile.id,
  email: profile.email,
  displayName:
    profile.full_name?.trim() ||
    joinName(profile.first_name, profile.last_name) ||
    adminMessages.unnamed,
  firstName: profile.first_name,
  lastName: profile.last_name,
  balance: Number(profile.remaining_credits),
  status: profile.status as AdminUser['status'],
  role: profile.role === 'admin' ? 'admin' : 'user',
  subscription:
    profile.subscription_type === 'subscription' && profile.tier_id !== null
      ? {
          tierName: profile.subscription_tier ?? '',
          status: profile.subscription_status === 'cancelled' ? 'cancelled' : 'active',
        }
      : null,
  joinedAt: iso(profile.created_at),
  // The read model's last change of the user (any user or credit event).
  lastActivityAt: iso(profile.updated_at),
});

/**
 * The users an admin sees (deleted accounts are not listed), newest first. `search` is a
 * case-insensitive substring of the first name, last name, full name or e-mail: `ILIKE '%…%'`,
 * which the trigram indexes of migration 007 serve where `pg_trgm` exists (PostgreSQL), and a
 * scan of `profiles` elsewhere (PGlite).
 */
export async function adminUsersPage(read: ReadDb, search: string | undefined, page: number) {
  let query = read.selectFrom('profiles').where('status', '!=', 'deleted');
  const term = search?.trim();
  if (term) {
    const pattern = likePattern(term);
    query = query.where((eb) =>
      eb.or([
        eb('first_name', 'ilike', pattern),
        eb('last_name', 'ilike', pattern),
        eb('full_name', 'ilike', pattern),
        eb('email', 'ilike', pattern),
      ]),
    );
  }
  const [items, count] = await Promise.all([
    query
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(ADMIN_USERS_PAGE_SIZE)
      .offset((page - 1) * ADMIN_USERS_PAGE_SIZE)
      .execute(),
    // Counted up to the limit (and one more, to know there are more): a broad search over
    // 100,000 users stays as cheap as a narrow one.
    read
      .selectFrom(
        query
          .select('id')
          .limit(ADMIN_USERS_COUNT_LIMIT + 1)
          .as('matches'),
      )
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  const total = Number(count.total);
  return {
    items: items.map(adminUserView),
    total: Math.min(total, ADMIN_USERS_COUNT_LIMIT),
    totalCapped: total > ADMIN_USERS_COUNT_LIMIT,
  };
}

/** One user (deleted ones too: the answer of a deletion shows the account as it is now). */
export async function adminUserOf(read: ReadDb, userId: string) {
  const profile = await read
    .selectFrom('profiles')
    .selectAll()
    .where('id', '=', userId)
    .executeTakeFirst();
  return profile ? adminUserView(profile) : null;
}
