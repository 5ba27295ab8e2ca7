import { ADMIN_USERS_COUNT_LIMIT, type AdminUser, adminMessages } from '@astra/contracts';
import { joinName } from '@astra/ledger';
import type { Profile, ReadDb } from '@astra/projections';
import { type Expression, type SqlBool, sql } from 'kysely';

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
  displayName: profile.erased_at
    ? adminMessages.erasedUser
    : profile.full_name?.trim() ||
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

/** The fields the search looks in. */
const SEARCHED = ['first_name', 'last_name', 'full_name', 'email'] as const;

/**
 * The searched fields, lower-cased and joined one a line: the expression of migration 009's
 * trigram index (`profiles_search_trgm`), written exactly as it is there, which is how PostgreSQL
 * knows the index serves the search. A change here is a new migration's index.
 */
const searchText = sql<string>`lower(coalesce(first_name, '') || E'\\n' || coalesce(last_name, '') || E'\\n' || coalesce(full_name, '') || E'\\n' || coalesce(email, ''))`;

/**
 * A profile whose first name, last name, full name or e-mail holds `term`, case-insensitively.
 * ILIKE is LIKE over `lower()` of both sides (in a UTF-8 database), so `lower(fields joined)
 * LIKE lower(pattern)` finds exactly the profiles where one field matches: a match across two
 * fields would need the line break that joins them in the term, and such a term (the API refuses
 * it) is checked field by field as well.
 */
const matching = (term: string): Expression<SqlBool> => {
  const pattern = likePattern(term);
  // One or two characters make no trigram: the index would be read whole, which is slower than
  // reading the rows. `strpos` asks the same question (a substring, wildcards or not) without it.
  const joined =
    [...term].length < 3
      ? sql<SqlBool>`strpos(${searchText}, lower(${term})) > 0`
      : sql<SqlBool>`${searchText} LIKE lower(${pattern})`;
  if (!term.includes('\n')) return joined;
  const eachField = sql.join(
    SEARCHED.map((field) => sql`${sql.ref(field)} ILIKE ${pattern}`),
    sql` OR `,
  );
  return sql<SqlBool>`(${joined} AND (${eachField}))`;
};

/**
 * How many of the newest users a broad search (more matches than the count's cap) walks through
 * for its page before it asks the trigram index instead.
 */
export const BROAD_SEARCH_WALK = 10_000;

/**
 * The users an admin sees (deleted accounts are not listed), newest first. `search` is a
 * case-insensitive substring of the first name, last name, full name or e-mail (`matching`),
 * served where `pg_trgm` exists (PostgreSQL) by migration 009's one trigram index, and by a scan
 * of `profiles` elsewhere (PGlite).
 *
 * A search first counts its matches up to the cap (`ADMIN_USERS_COUNT_LIMIT`, and one more to
 * know there are more) through the index, and with them, when that is all of them, the ids of
 * the page: a narrow term costs that and reading its 20 rows. A broad one (past the cap: a
 * surname, a domain) has too many matches to read and sort, and is common among the newest
 * users: its page is found by walking the newest users in order (the `created_at` index) and
 * keeping the matches, which stops at the page's last one. The walk covers the newest
 * `BROAD_SEARCH_WALK` users at most; a page it does not fill there, or one past the cap, is
 * left to the planner (the index, then a sort).
 */
export async function adminUsersPage(read: ReadDb, search: string | undefined, page: number) {
  const offset = (page - 1) * ADMIN_USERS_PAGE_SIZE;
  const listed = read.selectFrom('profiles').where('status', '!=', 'deleted');
  const term = search?.trim();
  if (!term) {
    const [items, count] = await Promise.all([
      listed
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(ADMIN_USERS_PAGE_SIZE)
        .offset(offset)
        .execute(),
      // Counted up to the limit (and one more, to know there are more).
      read
        .selectFrom(
          listed
            .select('id')
            .limit(ADMIN_USERS_COUNT_LIMIT + 1)
            .as('matches'),
        )
        .select((eb) => eb.fn.countAll<string>().as('total'))
        .executeTakeFirstOrThrow(),
    ]);
    return pageOf(items, Number(count.total));
  }

  const found = listed.where(matching(term));
  const counted = await read
    .selectFrom(
      found
        .select(['id', 'created_at'])
        .limit(ADMIN_USERS_COUNT_LIMIT + 1)
        .as('matches'),
    )
    .select((eb) => [
      eb.fn.countAll<string>().as('total'),
      sql<
        string[] | null
      >`(array_agg(id ORDER BY created_at DESC, id DESC))[${offset + 1}:${offset + ADMIN_USERS_PAGE_SIZE}]`.as(
        'ids',
      ),
    ])
    .executeTakeFirstOrThrow();
  const total = Number(counted.total);
  if (total <= ADMIN_USERS_COUNT_LIMIT) {
    // Every match was counted: the page is its ids, newest first.
    const ids = counted.ids ?? [];
    if (ids.length === 0) return pageOf([], total);
    const rows = await read
      .selectFrom('profiles')
      .selectAll()
      .where('id', 'in', ids)
      .where('status', '!=', 'deleted')
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return pageOf(
      ids.flatMap((id) => byId.get(id) ?? []),
      total,
    );
  }

  if (offset + ADMIN_USERS_PAGE_SIZE <= ADMIN_USERS_COUNT_LIMIT) {
    // The newest users in order (their LIMIT keeps the planner on the created_at index and the
    // search outside it), then the matches among them: the scan stops at the page's last match.
    const newest = listed
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(BROAD_SEARCH_WALK)
      .as('newest');
    const walked = await read
      .selectFrom(newest)
      .selectAll()
      .where(matching(term))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(ADMIN_USERS_PAGE_SIZE)
      .offset(offset)
      .execute();
    // A full page among the newest is the page: there are more matches than the cap.
    if (walked.length === ADMIN_USERS_PAGE_SIZE) return pageOf(walked, total);
  }
  const sorted = await found
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(ADMIN_USERS_PAGE_SIZE)
    .offset(offset)
    .execute();
  return pageOf(sorted, total);
}

/** The answer: the page's users, and the count capped at `ADMIN_USERS_COUNT_LIMIT`. */
const pageOf = (items: Profile[], total: number) => ({
  items: items.map(adminUserView),
  total: Math.min(total, ADMIN_USERS_COUNT_LIMIT),
  totalCapped: total > ADMIN_USERS_COUNT_LIMIT,
});

/** One user (deleted ones too: the answer of a deletion shows the account as it is now). */
export async function adminUserOf(read: ReadDb, userId: string) {
  const profile = await read
    .selectFrom('profiles')
    .selectAll()
    .where('id', '=', userId)
    .executeTakeFirst();
  return profile ? adminUserView(profile) : null;
}
