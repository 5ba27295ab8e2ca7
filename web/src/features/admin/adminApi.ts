import type {
  AdminCreditRequest,
  AdminSession,
  AdminStats,
  AdminStatsMoney,
  AdminUser,
  AdminUserAction,
  AdminUserLedger,
  AdminUsersPage,
} from '@astra/contracts';
import { api } from '../../app/api';
import { describeApiError } from '../../app/apiErrors';

/** `POST /api/admin/unlock`'s answer. */
export interface AdminUnlocked {
  ok: boolean;
  message: string;
  unlockedUntil: string;
}

/** `POST /api/admin/users/:id/credits`'s answer. */
export interface AdminCreditAdjusted {
  message?: string;
  userId: string;
  amount: number;
  remainingCredits: number;
}

export interface AdminUsersArgs {
  search: string;
  page: number;
}

export interface AdminCreditArgs extends AdminCreditRequest {
  userId: string;
  /** One key per intended adjustment: a retry of the same adjustment is never applied twice. */
  idempotencyKey: string;
}

export type AdminUserActionKind = 'block' | 'unblock' | 'promote' | 'demote' | 'delete';

const LOCKED: AdminSession = { unlocked: false, unlockedUntil: null };
const LIST = { type: 'AdminUser', id: 'LIST' } as const;
const userTag = (id: string) => ({ type: 'AdminUser' as const, id });
const ledgerTag = (id: string) => ({ type: 'AdminLedger' as const, id });
/** Every page of the audit ledger (the explorer's and users'), and balances as of an instant. */
export const AUDIT_LIST = { type: 'AdminAudit', id: 'LIST' } as const;
/** The admin activity pages. */
export const ACTIVITY_LIST = { type: 'AdminActivity', id: 'LIST' } as const;

/**
 * The admin panel's data. Its tags live here, not in the app's API, so nothing of the admin
 * panel reaches the bundle of pages that never open it.
 */
export const adminApi = api
  .enhanceEndpoints({
    addTagTypes: [
      'AdminSession',
      'AdminStats',
      'AdminUser',
      'AdminLedger',
      // The audit and finance views (auditApi.ts), read from the log by replay.
      'AdminAudit',
      'AdminActivity',
      'AdminFinance',
      'AdminProjections',
    ],
  })
  .injectEndpoints({
    endpoints: (build) => ({
      /** Unlocked, and until when. A missing route or a refusal reads as locked: the gate shows. */
      getAdminSession: build.query<AdminSession, void>({
        async queryFn(_arg, _api, _extra, baseQuery) {
          const result = await baseQuery('/admin/session');
          if (result.error) {
            const status = result.error.status;
            if (status === 404 || status === 403) return { data: LOCKED };
            return { error: result.error };
          }
          return { data: result.data as AdminSession };
        },
        providesTags: ['AdminSession'],
      }),
      unlockAdmin: build.mutation<AdminUnlocked, string>({
        query: (password) => ({ url: '/admin/unlock', method: 'POST', body: { password } }),
        async onQueryStarted(_password, { dispatch, queryFulfilled }) {
          try {
            const { data } = await queryFulfilled;
            dispatch(
              adminApi.util.upsertQueryData('getAdminSession', undefined, {
                unlocked: true,
                unlockedUntil: data.unlockedUntil,
              }),
            );
          } catch {
            // the gate shows the error
          }
        },
      }),
      lockAdmin: build.mutation<unknown, void>({
        query: () => ({ url: '/admin/lock', method: 'POST' }),
        async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
          try {
            await queryFulfilled;
          } finally {
            // Locked on the server or not, this page stops showing admin data now.
            dispatch(adminApi.util.upsertQueryData('getAdminSession', undefined, LOCKED));
          }
        },
      }),
      getAdminStats: build.query<AdminStats, void>({
        query: () => '/admin/stats',
        providesTags: ['AdminStats'],
      }),
      /** This month's money in every currency (its first answer after a start may take a while). */
      getAdminStatsMoney: build.query<AdminStatsMoney, void>({
        query: () => '/admin/stats/money',
        providesTags: ['AdminStats'],
      }),
      getAdminUsers: build.query<AdminUsersPage, AdminUsersArgs>({
        query: ({ search, page }) => ({
          url: '/admin/users',
          params: search ? { search, page } : { page },
        }),
        providesTags: (result) => [LIST, ...(result?.items ?? []).map((user) => userTag(user.id))],
      }),
      /** One user as the read models show them now: the customer Credit Management is bound to. */
      getAdminUser: build.query<AdminUser, string>({
        query: (userId) => `/admin/users/${encodeURIComponent(userId)}`,
        providesTags: (_result, _error, userId) => [userTag(userId)],
      }),
      getAdminUserLedger: build.query<AdminUserLedger, string>({
        query: (userId) => `/admin/users/${encodeURIComponent(userId)}/ledger`,
        providesTags: (_result, _error, userId) => [ledgerTag(userId)],
      }),
      adjustCredits: build.mutation<AdminCreditAdjusted, AdminCreditArgs>({
        query: ({ userId, idempotencyKey, amount, reason, expectedBalance }) => ({
          url: `/admin/users/${encodeURIComponent(userId)}/credits`,
          method: 'POST',
          headers: { 'Idempotency-Key': idempotencyKey },
          // `expectedBalance`: the balance the admin saw; the server refuses if it moved.
          body: { amount, reason, expectedBalance },
        }),
        // The user's balance in the list and their ledger, the audit ledger and the admin activity
        // that now hold the adjustment; not the stats (credits used count spends). A balance that
        // moved since the admin saw it: the user is read again.
        invalidatesTags: (_result, error, { userId }) =>
          error
            ? describeApiError(error).code === 'balance_changed'
              ? [userTag(userId)]
              : []
            : [userTag(userId), ledgerTag(userId), AUDIT_LIST, ACTIVITY_LIST],
      }),
      adminUserAction: build.mutation<
        AdminUserAction,
        { user: Pick<AdminUser, 'id'>; action: AdminUserActionKind }
      >({
        query: ({ user, action }) => {
          const base = `/admin/users/${encodeURIComponent(user.id)}`;
          switch (action) {
            case 'block':
            case 'unblock':
              return { url: `${base}/${action}`, method: 'POST' };
            case 'promote':
              return { url: `${base}/role`, method: 'POST', body: { role: 'admin' } };
            case 'demote':
              return { url: `${base}/role`, method: 'POST', body: { role: 'user' } };
            case 'delete':
              return { url: base, method: 'DELETE' };
          }
        },
        // Each action is an admin command: the admin activity holds it.
        invalidatesTags: (_result, error, { user, action }) => {
          if (error) return [];
          switch (action) {
            // Active Users counts the non-blocked.
            case 'block':
            case 'unblock':
              return [userTag(user.id), 'AdminStats', ACTIVITY_LIST];
            case 'promote':
            case 'demote':
              return [userTag(user.id), ACTIVITY_LIST];
            // Every later page moves up by one, and Total Users drops; the credits are forfeited.
            case 'delete':
              return [
                LIST,
                userTag(user.id),
                ledgerTag(user.id),
                'AdminStats',
                ACTIVITY_LIST,
                AUDIT_LIST,
              ];
          }
        },
      }),
    }),
  });

export const {
  useGetAdminSessionQuery,
  useUnlockAdminMutation,
  useLockAdminMutation,
  useGetAdminStatsQuery,
  useGetAdminStatsMoneyQuery,
  useGetAdminUsersQuery,
  useGetAdminUserQuery,
  useGetAdminUserLedgerQuery,
  useAdjustCreditsMutation,
  useAdminUserActionMutation,
} = adminApi;

/** The unlock ran out (or was ended elsewhere): ask the server again, which shows the gate. */
export const relockIfExpired = (error: unknown) =>
  describeApiError(error).code === 'admin_locked'
    ? adminApi.util.invalidateTags(['AdminSession'])
    : null;
