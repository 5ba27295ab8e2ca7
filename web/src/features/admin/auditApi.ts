import type {
  AdminActivityPage,
  ClosedMonth,
  ClosedMonths,
  ExportFormat,
  LedgerExplorerPage,
  LedgerExportChecksum,
  MonthlyReport,
  PayoutReport,
  ProjectionsOverview,
  ReactorMessage,
  RebuildStatus,
  TotalBalanceAt,
  UserBalanceAt,
  VerifyResult,
} from '@astra/contracts';
import { ACTIVITY_LIST, AUDIT_LIST, adminApi } from './adminApi';

/** Who acted, as the explorer filters it. */
export type ActorKind = 'user' | 'admin' | 'system' | 'stripe';

/** `GET /api/admin/ledger`'s filters and page (`after`: the position the page starts after). */
export interface LedgerPageArgs {
  types?: string[];
  actor?: ActorKind;
  userId?: string;
  from?: string;
  to?: string;
  after?: string;
  limit: number;
}

/** A reactor's message to try again (`POST /api/admin/reactors/{reactor}/messages/{id}/retry`). */
export interface ReactorMessageRef {
  reactor: string;
  id: string;
}

export interface ExportRange {
  from?: string;
  to?: string;
}

const USER_PAGE = 100;
const PROJECTIONS = 'AdminProjections' as const;
const monthTag = (month: string) => ({ type: 'AdminFinance' as const, id: month });
const CHECKSUMS = { type: 'AdminFinance', id: 'CHECKSUM' } as const;
const CLOSED_MONTHS = { type: 'AdminFinance', id: 'CLOSED' } as const;

/** A query string without the filters that are not set. */
const params = (values: Record<string, string | number | undefined>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(values).flatMap(([key, value]) =>
      value === undefined || value === '' ? [] : [[key, String(value)]],
    ),
  );

/** Export and report addresses are plain links (the browser downloads them, never into memory). */
export const ledgerExportUrl = (format: ExportFormat, range: ExportRange) =>
  `/api/admin/exports/ledger?${new URLSearchParams(params({ format, ...range }))}`;
export const monthlyReportCsvUrl = (month: string) =>
  `/api/admin/reports/monthly?${new URLSearchParams({ month, format: 'csv' })}`;

/**
 * Audit and finance (issue 12): every view reads the event log by replay on the server, so each
 * answer is fresh when a view opens (`refetchOnMountOrArgChange` at the call sites), and tags
 * keep the open views right after the panel's own commands.
 */
export const auditApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    getAuditLedger: build.query<LedgerExplorerPage, LedgerPageArgs>({
      query: ({ types, actor, userId, from, to, after, limit }) => ({
        url: '/admin/ledger',
        params: params({ type: types?.join(','), actor, userId, from, to, after, limit }),
      }),
      providesTags: [AUDIT_LIST],
    }),
    /** One user's audit ledger, oldest first, a page of 100 at a time (`fetchNextPage`). */
    getUserAuditLedger: build.infiniteQuery<LedgerExplorerPage, string, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.next,
      },
      query: ({ queryArg: userId, pageParam }) => ({
        url: '/admin/ledger',
        params: params({ userId, after: pageParam ?? undefined, limit: USER_PAGE }),
      }),
      providesTags: [AUDIT_LIST],
    }),
    getUserBalanceAt: build.query<UserBalanceAt, { userId: string; at?: string }>({
      query: ({ userId, at }) => ({
        url: `/admin/users/${encodeURIComponent(userId)}/balance`,
        params: params({ at }),
      }),
      providesTags: [AUDIT_LIST],
    }),
    getTotalBalanceAt: build.query<TotalBalanceAt, { at?: string }>({
      query: ({ at }) => ({ url: '/admin/balance', params: params({ at }) }),
      providesTags: [AUDIT_LIST],
    }),
    getAdminActivity: build.query<
      AdminActivityPage,
      { before?: string; types?: readonly string[]; limit: number }
    >({
      query: ({ before, types, limit }) => ({
        url: '/admin/activity',
        params: params({ before, type: types?.join(','), limit }),
      }),
      providesTags: [ACTIVITY_LIST],
    }),
    getMonthlyReport: build.query<MonthlyReport, string>({
      query: (month) => ({ url: '/admin/reports/monthly', params: { month } }),
      providesTags: (_result, _error, month) => [monthTag(month)],
    }),
    getClosedMonths: build.query<ClosedMonths, void>({
      query: () => '/admin/finance/months',
      providesTags: [CLOSED_MONTHS],
    }),
    /** Closes a month: its report now says so, and the close is on the activity list. */
    closeMonth: build.mutation<ClosedMonth, string>({
      query: (month) => ({
        url: `/admin/finance/months/${encodeURIComponent(month)}/close`,
        method: 'POST',
      }),
      invalidatesTags: (_result, error, month) =>
        error ? [] : [monthTag(month), CLOSED_MONTHS, ACTIVITY_LIST],
    }),
    getPayoutReport: build.query<PayoutReport, string>({
      query: (month) => ({ url: '/admin/reports/payouts', params: { month } }),
      providesTags: (_result, _error, month) => [monthTag(month)],
    }),
    getExportChecksum: build.query<LedgerExportChecksum, ExportRange & { format: ExportFormat }>({
      query: ({ format, from, to }) => ({
        url: '/admin/exports/ledger/checksum',
        params: params({ format, from, to }),
      }),
      providesTags: [CHECKSUMS],
    }),
    getProjections: build.query<ProjectionsOverview, void>({
      query: () => '/admin/projections',
      providesTags: [PROJECTIONS],
    }),
    /** 202 with the rebuild's status; 409 `rebuild_running` when one runs already. */
    rebuildProjections: build.mutation<RebuildStatus, void>({
      query: () => ({ url: '/admin/projections/rebuild', method: 'POST' }),
      // Started, or running already: either way the overview now shows (and polls) its progress.
      invalidatesTags: (_result, error) =>
        !error || (typeof error.status === 'number' && error.status === 409) ? [PROJECTIONS] : [],
    }),
    /**
     * Tries a failing or parked message again now; a sent one is left as it is. Either way, and
     * when the message is gone (404), the overview is read again: its reactors' lists changed.
     */
    retryReactorMessage: build.mutation<ReactorMessage, ReactorMessageRef>({
      query: ({ reactor, id }) => ({
        url: `/admin/reactors/${encodeURIComponent(reactor)}/messages/${encodeURIComponent(id)}/retry`,
        method: 'POST',
      }),
      invalidatesTags: (_result, error) =>
        !error || (typeof error.status === 'number' && error.status === 404) ? [PROJECTIONS] : [],
    }),
    verifyLedger: build.mutation<VerifyResult, void>({
      query: () => ({ url: '/admin/projections/verify', method: 'POST' }),
      invalidatesTags: (_result, error) => (error ? [] : [PROJECTIONS]),
    }),
  }),
});

export const {
  useGetAuditLedgerQuery,
  useGetUserAuditLedgerInfiniteQuery,
  useGetUserBalanceAtQuery,
  useGetTotalBalanceAtQuery,
  useGetAdminActivityQuery,
  useGetMonthlyReportQuery,
  useGetClosedMonthsQuery,
  useCloseMonthMutation,
  useGetPayoutReportQuery,
  useGetExportChecksumQuery,
  useGetProjectionsQuery,
  useRebuildProjectionsMutation,
  useRetryReactorMessageMutation,
  useVerifyLedgerMutation,
} = auditApi;
