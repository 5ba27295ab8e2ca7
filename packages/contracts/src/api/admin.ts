import { z } from 'zod';
import { roleSchema, userStatusSchema } from '../events/users.ts';
import { text } from './common.ts';
import { ledgerEntryViewSchema } from './me.ts';

export const adminUnlockRequestSchema = z.strictObject({
  password: z.string().min(1, 'is required').max(1000),
});

export const MAX_ADMIN_ADJUSTMENT = 1_000_000;
const ADJUSTMENT_RANGE = `must be between -${MAX_ADMIN_ADJUSTMENT.toLocaleString('en')} and ${MAX_ADMIN_ADJUSTMENT.toLocaleString('en')}`;

export const adminCreditRequestSchema = z.strictObject({
  amount: z
    // The type's message only: a number out of range is told its range, not "must be a number".
    .number({
      error: (issue) =>
        issue.code !== 'invalid_type'
          ? undefined
          : issue.input === undefined
            ? 'is required'
            : 'must be a number',
    })
    .int('must be a whole number')
    .min(-MAX_ADMIN_ADJUSTMENT, ADJUSTMENT_RANGE)
    .max(MAX_ADMIN_ADJUSTMENT, ADJUSTMENT_RANGE)
    .refine((amount) => amount !== 0, 'must not be 0'),
  reason: text().min(1, 'is required').max(500, 'must be at most 500 characters'),
  /**
   * The balance the admin saw: the adjustment is refused (`409 balance_changed`) when the balance
   * is another by the time it is decided. Optional for outside tools (absent: no check); the
   * admin panel always sends it.
   */
  expectedBalance: z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must not be negative')
    .optional(),
});
export type AdminCreditRequest = z.infer<typeof adminCreditRequestSchema>;

export const adminCreditResponseSchema = z.object({
  message: z.string().optional(),
  userId: z.string(),
  amount: z.number().int(),
  remainingCredits: z.number().int(),
  position: z.string(),
});

export const adminUserLedgerSchema = z.object({
  user: z.object({ id: z.string(), email: z.string().nullable(), fullName: z.string().nullable() }),
  items: z.array(ledgerEntryViewSchema),
  total: z.number().int(),
});
export type AdminUserLedger = z.infer<typeof adminUserLedgerSchema>;

/** The admin panel's spec messages (§8). */
export const adminMessages = {
  signInRequired: 'Please sign in to access admin panel',
  accessDenied: 'Access denied: Admin privileges required',
  verifyFailed: 'Failed to verify admin access',
  incorrectPassword: 'Incorrect password',
  verificationFailed: 'Verification failed. Please try again.',
  accessGranted: 'Admin access granted',
  loadFailed: 'Failed to load admin data',
  loadUsersFailed: 'Failed to load users',
  creditsFailed: 'Failed to update credits',
  invalidNumber: 'Please enter a valid number',
  statusFailed: 'Failed to update user status',
  roleFailed: 'Failed to update user role',
  deleted: 'User deleted successfully',
  deleteFailed: 'Failed to delete user',
  deleteConfirm: 'Are you sure you want to delete this user? This action cannot be undone.',
  blocked: 'User blocked successfully',
  unblocked: 'User unblocked successfully',
  promoted: 'User promoted to admin successfully',
  demoted: 'User demoted to user successfully',
  unnamed: 'Unnamed User',
  /** A deleted user whose personal data is erased: only ids, status and figures remain. */
  erasedUser: 'Erased user',
  accountBlocked: 'Your account has been blocked. Please contact support.',
} as const;

/** `GET /api/admin/session`: is this admin's session unlocked, and until when. */
export const adminSessionSchema = z.object({
  unlocked: z.boolean(),
  unlockedUntil: z.string().nullable(),
});
export type AdminSession = z.infer<typeof adminSessionSchema>;

/** One day of a dashboard series (UTC days, oldest first, 30 of them, today last). */
export const adminDailyPointSchema = z.object({ day: z.iso.date(), value: z.number() });

/** One currency's money this month (minor units), as the month report counts it. */
export const adminMonthMoneySchema = z.object({
  currency: z.string(),
  /** Revenue recognized this month: the month report's `recognized` for the month. */
  recognizedMinor: z.number().int(),
  /** Cash collected this month: payments (`cashInMinor`) less refunds (`refundsMinor`). */
  cashInMinor: z.number().int(),
  refundsMinor: z.number().int(),
  cashNetMinor: z.number().int(),
});
export type AdminMonthMoney = z.infer<typeof adminMonthMoneySchema>;

/**
 * `GET /api/admin/stats/money`: this month of the finance calendar (`YYYY-MM` of `timeZone`,
 * from `from` to `to`, half open) and its money by currency, by the month report's own fold of
 * the log.
 */
export const adminStatsMoneySchema = z.object({
  month: z.string(),
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  /** Every currency the ledger has money in, alphabetical, at 0 where the month had none. */
  money: z.array(adminMonthMoneySchema),
  /** The log position the money is through. */
  through: z.string(),
});
export type AdminStatsMoney = z.infer<typeof adminStatsMoneySchema>;

/**
 * `GET /api/admin/stats`: the cards and their last 30 days, from projections, with the moment
 * they are as of. `revenueThisMonthMinor` and the `revenueMinor` series are cash (Stripe's
 * amounts, net of refunds) in the pricing currency only, kept for the tools that read them:
 * `GET /api/admin/stats/money` has recognized revenue and cash in every currency.
 */
export const adminStatsSchema = z.object({
  /** Everyone who ever registered: active, blocked and deleted. */
  totalUsers: z.number().int(),
  activeUsers: z.number().int(),
  blockedUsers: z.number().int(),
  deletedUsers: z.number().int(),
  totalCreditsUsed: z.number().int(),
  revenueThisMonthMinor: z.number().int(),
  currency: z.string(),
  /** When the read models last changed (the newest event they applied), ISO. */
  asOf: z.string().nullable(),
  series: z.object({
    signups: z.array(adminDailyPointSchema),
    creditsUsed: z.array(adminDailyPointSchema),
    revenueMinor: z.array(adminDailyPointSchema),
  }),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

/** Matches are counted up to this many: an exact count of a broad search would cost a scan. */
export const ADMIN_USERS_COUNT_LIMIT = 1000;

/** `GET /api/admin/users?search=&page=`: newest first, 20 a page. */
export const adminUsersQuerySchema = z.object({
  // An empty search is no search; a NUL is named as such (not a union's "Invalid input").
  search: text({ base: z.string().max(200, 'must be at most 200 characters') }).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  /** The name to show: full name, else 'Unnamed User'. */
  displayName: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  balance: z.number().int(),
  status: userStatusSchema,
  role: roleSchema,
  subscription: z
    .object({ tierName: z.string(), status: z.enum(['active', 'cancelled']) })
    .nullable(),
  joinedAt: z.string(),
  lastActivityAt: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUsersPageSchema = z.object({
  items: z.array(adminUserSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Users that match, counted up to `ADMIN_USERS_COUNT_LIMIT`; `totalCapped` when there are more. */
  total: z.number().int(),
  totalCapped: z.boolean(),
});
export type AdminUsersPage = z.infer<typeof adminUsersPageSchema>;

/** `POST /api/admin/users/:id/role`. */
export const adminRoleRequestSchema = z.strictObject({ role: roleSchema });

/** Block, unblock, role change and deletion answer with the user as it is now and a message. */
export const adminUserActionSchema = z.object({
  message: z.string(),
  user: adminUserSchema,
});
export type AdminUserAction = z.infer<typeof adminUserActionSchema>;
