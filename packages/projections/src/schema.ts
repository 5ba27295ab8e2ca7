import type { BirthPlaceRecord, LedgerDetails, LedgerKind } from '@astra/contracts';
import type { CreditLot, Voice } from '@astra/ledger';
import type { ColumnType, Insertable, Selectable } from 'kysely';

/** `bigint` columns arrive as strings from both `pg` and PGlite. */
type Int8 = ColumnType<string, string | bigint | number, string | bigint | number>;
/**
 * Credit amounts, balances and counters: `bigint` in SQL, numbers in TypeScript. `readModels`
 * turns them into numbers as they are read, checking each is exact (`creditNumber`); the ledger's
 * ceiling (`MAX_BALANCE`) keeps every account far inside that.
 */
type Credits = ColumnType<number, number | bigint | string, number | bigint | string>;
type CreditsOrNull = ColumnType<
  number | null,
  number | bigint | string | null,
  number | bigint | string | null
>;
type Json<T = unknown> = ColumnType<T, string, string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** One row per user: the spec's `profiles`, kept from the user and credit streams. */
export interface ProfilesTable {
  id: string;
  email: string | null;
  full_name: string | null;
  first_name: string | null;
  last_name: string | null;
  avatar_url: string | null;
  birth_date: string | null;
  birth_time: string | null;
  /** "I don't know my birth time"; null when not said. */
  birth_time_unknown: boolean | null;
  birth_city: string | null;
  birth_country: string | null;
  /** The birthplace found for city and country (coordinates and zone); null: free text. */
  birth_place: Json<BirthPlaceRecord> | null;
  language: string | null;
  remaining_credits: Credits;
  /** Total credits ever granted. */
  credits: Credits;
  credits_per_month: CreditsOrNull;
  credits_rollover_remaining: CreditsOrNull;
  /** The balance in lots by source, as the ledger keeps it, and its totals by source. */
  credit_lots: Json<CreditLot[]>;
  subscription_credits: Credits;
  free_credits: Credits;
  promotional_credits: Credits;
  purchased_credits: Credits;
  tier_id: number | null;
  subscription_tier: string | null;
  subscription_type: string | null;
  subscription_status: string | null;
  subscription_id: string | null;
  next_renewal_date: string | null;
  last_credit_refresh_date: string | null;
  subscription_update_date: Timestamp | null;
  status: string;
  cancellation_date: Timestamp | null;
  role: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** When the user's personal data was erased (`PersonalDataErased`); the personal columns are null. */
  erased_at: Timestamp | null;
  /** Last applied revisions of `user-{id}` and `credits-{id}`: replays apply nothing twice. */
  user_revision: Int8;
  credits_revision: Int8;
}

/** Every credit event of every user, with the balance it left. */
export interface LedgerEntriesTable {
  position: Int8;
  event_id: string;
  user_id: string;
  stream_revision: Int8;
  type: string;
  amount: Credits;
  balance_after: Credits;
  credits_after: Credits;
  actor_kind: string;
  actor_id: string | null;
  actor_role: string | null;
  /** The type's group (`CREDIT_EVENT_LABELS`). */
  kind: LedgerKind;
  /** The parameters the entry's words are built from (`ledgerDetailsOf`): never a sentence. */
  details: Json<LedgerDetails>;
  reference: Json<Record<string, string>> | null;
  occurred_at: Timestamp;
}

export interface AppsTable {
  app_id: number;
  slug: string;
  app_name: string;
  description: string;
  credit_cost_per_execution: number;
  voice_minutes_included: number;
}

export interface PricingTiersTable {
  tier_id: number;
  tier_name: string;
  description: string;
  credits_per_month: number;
  display_order: number;
  popular: boolean;
  features: Json<string[]>;
}

export interface PricingRowsTable {
  tier_id: number;
  billing_type: 'subscription' | 'one_time';
  price_minor: number;
  currency: string;
  credits_included: number;
  provider_price_id: string | null;
}

/** The library: one row per reading (the spec's `usage_logs`). */
export interface UsageLogsTable {
  log_id: string;
  user_id: string;
  app_id: number;
  app_name: string;
  question: string | null;
  first_name: string | null;
  input_data: Json<Record<string, unknown>>;
  reading_result_id: string;
  reading_result_content: Json<Record<string, unknown>>;
  status: string;
  credits_charged: Credits;
  voice_agent_used: boolean;
  voice_reactivation: boolean;
  voice_credits_charged: Credits;
  created_at: Timestamp;
  reading_revision: Int8;
  /** The reading's voice state, folded by the ledger's `evolveVoice` (`{}` before any session). */
  voice: Json<Partial<Voice>>;
  /** 'requested' (being started) or 'active' (running); null when no session is under way. */
  voice_session_status: 'requested' | 'active' | null;
  voice_requested_at: Timestamp | null;
  voice_ends_at: Timestamp | null;
  voice_refund_owed: boolean;
}

export interface AdminStatsTable {
  id: number;
  total_users: Credits;
  active_users: Credits;
  blocked_users: Credits;
  deleted_users: Credits;
  total_credits_used: Credits;
  total_credits_granted: Credits;
  /** The newest applied event's `occurredAt`: the moment the figures are as of. */
  as_of: Timestamp | null;
}

/** One UTC day of the admin dashboard's series (days with an event of a user or credit stream). */
export interface AdminStatsDailyTable {
  /** `YYYY-MM-DD` (a `date`; read it as `day::text`, drivers turn dates into local times). */
  day: ColumnType<unknown, string, string>;
  signups: Int8;
  /** Credits spent that day less spends refunded that day. */
  credits_used: Int8;
  /** Payments less refunds that day, by currency (lower case), in minor units. */
  revenue_minor: Json<Record<string, number>>;
}

export interface AdminStatsUsersTable {
  user_id: string;
  status: string | null;
  user_revision: Int8;
  credits_revision: Int8;
}

/** Messages users sent from the About page. */
export interface FeedbackTable {
  feedback_id: string;
  user_id: string;
  message: string;
  created_at: Timestamp;
}

/** Projections that could not apply an event, while they cannot (see the projector). */
export interface ProjectionFailuresTable {
  name: string;
  /** Its checkpoint: the event after it is the one it fails on. */
  position: Int8;
  error: string;
  failed_at: Timestamp;
  updated_at: Timestamp;
}

export interface CheckpointsTable {
  name: string;
  position: Int8;
}

export interface ReadModels {
  profiles: ProfilesTable;
  ledger_entries: LedgerEntriesTable;
  apps: AppsTable;
  pricing_tiers: PricingTiersTable;
  pricing_rows: PricingRowsTable;
  usage_logs: UsageLogsTable;
  admin_stats: AdminStatsTable;
  admin_stats_users: AdminStatsUsersTable;
  admin_stats_daily: AdminStatsDailyTable;
  feedback: FeedbackTable;
  checkpoints: CheckpointsTable;
  projection_failures: ProjectionFailuresTable;
}

export type Profile = Selectable<ProfilesTable>;
export type NewProfile = Insertable<ProfilesTable>;
export type LedgerEntry = Selectable<LedgerEntriesTable>;
export type App = Selectable<AppsTable>;
export type UsageLog = Selectable<UsageLogsTable>;
export type FeedbackEntry = Selectable<FeedbackTable>;
