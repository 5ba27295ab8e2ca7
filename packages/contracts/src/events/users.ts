import { z } from 'zod';
import { personal } from './personal.ts';

export const roleSchema = z.enum(['user', 'admin']);
export type Role = z.infer<typeof roleSchema>;
/**
 * Why a user has their role: `admin_emails` follows the `ADMIN_EMAILS` setting at each sign-in;
 * `admin` was an admin's decision and stays until an admin changes it.
 */
export const roleSourceSchema = z.enum(['admin_emails', 'admin']);
export type RoleSource = z.infer<typeof roleSourceSchema>;
export const userStatusSchema = z.enum(['active', 'blocked', 'deleted']);
export type UserStatus = z.infer<typeof userStatusSchema>;

/** Profile fields a user edits; absent means unchanged, null means cleared. */
export const profileFieldsSchema = z.object({
  firstName: personal(z.string().nullable(), null),
  lastName: personal(z.string().nullable(), null),
  birthDate: personal(z.iso.date().nullable(), null),
  birthTime: personal(
    z
      .string()
      .regex(/^\d{2}:\d{2}$/)
      .nullable(),
    null,
  ),
  /** "I don't know my birth time": charts from the profile are drawn without one. */
  birthTimeUnknown: personal(z.boolean().nullable(), null),
  birthCity: personal(z.string().nullable(), null),
  birthCountry: personal(z.string().nullable(), null),
  language: z.string().nullable(),
});
export type ProfileFields = z.infer<typeof profileFieldsSchema>;

/**
 * The birthplace as the profile keeps it: a place of the place index, with what readings need
 * (coordinates and time zone). Events keep it as it was chosen; the schema is loose to read
 * any later additions.
 */
export const birthPlaceRecordSchema = z.object({
  name: z.string(),
  country: z.string(),
  countryName: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  timezone: z.string(),
  label: z.string(),
});
export type BirthPlaceRecord = z.infer<typeof birthPlaceRecordSchema>;

/** Events of the `user-{userId}` stream. */
export const userEventSchemas = {
  /** An erased user's `email` reads as `""` (see `personal`). */
  UserRegistered: z.object({
    userId: z.string(),
    email: personal(z.string(), ''),
    fullName: personal(z.string().nullable(), null),
    firstName: personal(z.string().nullable(), null),
    lastName: personal(z.string().nullable(), null),
    avatarUrl: personal(z.string().nullable(), null),
    provider: z.enum(['dev', 'google', 'apple']),
  }),
  UserProfileUpdated: profileFieldsSchema.partial(),
  /**
   * The birthplace as a found place (coordinates and zone), or null: none found for the
   * profile's city and country, which then stay free text.
   */
  UserBirthPlaceChanged: z.object({
    birthPlace: personal(birthPlaceRecordSchema.nullable(), null),
  }),
  UserAvatarChanged: z.object({ avatarUrl: personal(z.string().nullable(), null) }),
  /**
   * `adminId`: the admin who decided, with source `admin`. Events of schema version 1 may lack
   * `source`: they were all appended by sign-in for `ADMIN_EMAILS`, and are upcast to
   * `source: "admin_emails"` (see `upcasters` in decode.ts).
   */
  UserRoleChanged: z.object({
    role: roleSchema,
    source: roleSourceSchema,
    adminId: z.string().optional(),
  }),
  /** `adminId`: the admin who blocked (optional: absent on events written before it). */
  UserBlocked: z.object({ adminId: z.string().optional() }),
  UserUnblocked: z.object({ adminId: z.string().optional() }),
  /** `reason` is `user_requested` or `deleted_by_admin` (then with `adminId`). */
  UserDeleted: z.object({ reason: z.string(), adminId: z.string().optional() }),
  /**
   * The user's personal data is erased: their data key is destroyed, so every personal field of
   * their events reads as erased from now on (see `personal`). Follows `UserDeleted`; it holds no
   * personal data itself. `reason` and `adminId` as on `UserDeleted`.
   */
  PersonalDataErased: z.object({ reason: z.string(), adminId: z.string().optional() }),
  /** The admin unlocked the admin panel with the admin password, until `until` (ISO). */
  AdminUnlocked: z.object({ until: z.string().optional() }),
  /** A wrong admin password was given by this admin (the attempt, recorded with its actor). */
  AdminUnlockFailed: z.object({}),
  /**
   * This admin's unlock attempt was refused before the password was looked at: `rate_limited`,
   * over the unlock route's limit (the first refusal of each window and address is recorded).
   */
  AdminUnlockRefused: z.object({ reason: z.enum(['rate_limited', 'blocked']) }),
  /** This admin locked the admin panel again (`POST /api/admin/lock`). */
  AdminLocked: z.object({}),
  /**
   * This admin asked for the ledger export (`GET /api/admin/exports/ledger`): recorded before its
   * first byte is sent (no record, no export), so a download cut off by a crash is on record too.
   * Its `AdminDataExported` follows when the body has ended.
   */
  AdminExportStarted: z.object({
    format: z.enum(['csv', 'jsonl', 'journal']),
    from: z.string().nullable(),
    to: z.string().nullable(),
  }),
  /**
   * This admin downloaded finance data: the ledger export (`kind: "ledger"`, a range `from`/`to`,
   * null for open ends) or a month report (`kind: "report"`, `month`), in `format`. `complete`:
   * the whole body was sent; then `sha256` (hex) is the body's checksum. A body cut short (the
   * client left, or the log could not be read) has `complete: false` and `sha256: null`, with the
   * `bytes` and `rows` that were sent before it stopped.
   */
  AdminDataExported: z.object({
    kind: z.enum(['ledger', 'report']),
    format: z.enum(['csv', 'jsonl', 'journal', 'json']),
    from: z.string().nullable().optional(),
    to: z.string().nullable().optional(),
    month: z.string().optional(),
    complete: z.boolean(),
    sha256: z.string().nullable(),
    bytes: z.number().int(),
    rows: z.number().int().optional(),
  }),
  /**
   * This admin ran `ledger:verify` from the panel: the run's outcome (`ok`) and when it ran
   * (`at`, as the projections page shows it; a second request while one runs shares it).
   */
  AdminVerifyRun: z.object({ ok: z.boolean(), at: z.string() }),
  /**
   * This admin started a rebuild of the read models from the panel: its run (`rebuildId`, its row
   * in `rebuild_runs`) and the log's events when it began (`target`, 0: not counted).
   */
  AdminRebuildStarted: z.object({ rebuildId: z.string(), target: z.number().int() }),
} as const;

/** What an admin did that is recorded on their own user stream and changes nothing in it. */
export const ADMIN_RECORD_TYPES = [
  'AdminUnlockRefused',
  'AdminLocked',
  'AdminExportStarted',
  'AdminDataExported',
  'AdminVerifyRun',
  'AdminRebuildStarted',
] as const;
export type AdminRecordType = (typeof ADMIN_RECORD_TYPES)[number];

type Schemas = typeof userEventSchemas;
export type UserEventType = keyof Schemas;
export type UserEvent = {
  [K in UserEventType]: { type: K; data: z.infer<Schemas[K]> };
}[UserEventType];

/**
 * `admins`: the one registry of who is an admin, so that the last-admin rule is decided on the
 * write side (see docs/events.md). `AdminRevoked` with `by: "admin"` (a demotion or a deletion
 * by an admin) is final until an admin promotes the user again; with `by: "reconcile"` the
 * user's own stream no longer showed the role (e.g. `ADMIN_EMAILS` took it back).
 */
export const adminRegistryEventSchemas = {
  AdminRegistered: z.object({ userId: z.string() }),
  AdminRevoked: z.object({
    userId: z.string(),
    by: z.enum(['admin', 'reconcile']),
    reason: z.string().optional(),
  }),
} as const;
export type AdminRegistryEvent = {
  [K in keyof typeof adminRegistryEventSchemas]: {
    type: K;
    data: z.infer<(typeof adminRegistryEventSchemas)[K]>;
  };
}[keyof typeof adminRegistryEventSchemas];

/** `email-{sha256}`: which user holds an e-mail address now. */
export const emailEventSchemas = {
  EmailClaimed: z.object({ userId: z.string() }),
  EmailReleased: z.object({ userId: z.string() }),
} as const;
export type EmailEvent = {
  [K in keyof typeof emailEventSchemas]: { type: K; data: z.infer<(typeof emailEventSchemas)[K]> };
}[keyof typeof emailEventSchemas];

/** `free-allotment-{sha256}`: the one claim of free credits an e-mail address ever gets. */
export const freeAllotmentEventSchemas = {
  FreeAllotmentClaimed: z.object({ userId: z.string(), amount: z.number().int().positive() }),
} as const;
export type FreeAllotmentEvent = {
  type: 'FreeAllotmentClaimed';
  data: z.infer<(typeof freeAllotmentEventSchemas)['FreeAllotmentClaimed']>;
};

/** `feedback-{feedbackId}`: a message a signed-in user sent from the About page. */
export const feedbackEventSchemas = {
  FeedbackSubmitted: z.object({
    feedbackId: z.string(),
    userId: z.string(),
    message: personal(z.string(), ''),
  }),
} as const;
export type FeedbackEvent = {
  type: 'FeedbackSubmitted';
  data: z.infer<(typeof feedbackEventSchemas)['FeedbackSubmitted']>;
};
