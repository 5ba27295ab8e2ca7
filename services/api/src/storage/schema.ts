import type { ColumnType } from 'kysely';

type Json<T> = ColumnType<T, string, string>;

/** Tables of the API itself (schema `app`): not projections, never rebuilt from events. */
export interface AppTables {
  sessions: {
    id_hash: string;
    user_id: string;
    created_at: ColumnType<Date, Date, Date>;
    expires_at: ColumnType<Date, Date, Date>;
    admin_unlocked_until: ColumnType<Date | null, Date | null, Date | null>;
    last_position: ColumnType<string | null, string | null, string | null>;
  };
  idempotency_keys: {
    key: string;
    request_hash: string;
    status: number | null;
    body: Json<unknown> | null;
    created_at: ColumnType<Date, Date, Date>;
  };
  avatars: {
    /** sha256 of the bytes, hex. */
    id: string;
    content_type: string;
    byte_size: number;
    /** `pg` reads bytea as a Buffer, PGlite as a Uint8Array. */
    bytes: ColumnType<Uint8Array, Uint8Array, never>;
    created_at: ColumnType<Date, Date, never>;
  };
  avatar_owners: {
    avatar_id: string;
    user_id: string;
    created_at: ColumnType<Date, Date, never>;
  };
  local_checkout_sessions: {
    id: string;
    user_id: string;
    tier_id: number;
    billing_type: 'subscription' | 'one_time';
    /** 'paying': claimed by one payment, its webhook events under way. */
    status: 'open' | 'paying' | 'paid' | 'canceled';
    payment_intent_id: string | null;
    subscription_id: string | null;
    created_at: ColumnType<Date, Date, never>;
  };
  /** The text of a reading while it is being written (`modules/readings/drafts.ts`). */
  reading_drafts: {
    reading_id: string;
    /** One writing of the reading (a re-run after a crash starts a new one). */
    run: string;
    /** The contract's `result` with its text still empty: the facts. */
    result: Json<Record<string, unknown>>;
    text: ColumnType<string, string | undefined, string>;
    updated_at: ColumnType<Date, Date | undefined, Date>;
  };
  /** Refunds of the local checkout (no money moves), one per invoice. */
  local_refunds: {
    invoice_id: string;
    payment_intent_id: string | null;
    charge_id: string | null;
    amount_minor: number | null;
    reason: string;
    created_at: ColumnType<Date, Date, never>;
  };
  /** Where each reactor is in the log (`reactors/`). */
  reactor_checkpoints: {
    name: string;
    /** A bigint: `pg` reads it as a string. */
    position: ColumnType<string, string | bigint, string | bigint>;
    updated_at: ColumnType<Date, Date | undefined, Date>;
  };
  /** Every side effect a reactor recorded, with its outcome (`reactors/outbox.ts`). */
  outbox: {
    id: string;
    reactor: string;
    /** Unique within the reactor: the event (and message) it answers, so it is recorded once. */
    key: string;
    kind: string;
    user_id: string | null;
    /** Personal: who it goes to (null once erased). */
    recipient: string | null;
    /** Personal: what it says (null once erased). */
    payload: Json<unknown> | null;
    status: 'pending' | 'sending' | 'sent' | 'parked' | 'erased';
    attempts: ColumnType<number, number | undefined, number>;
    next_attempt_at: ColumnType<Date, Date | undefined, Date>;
    last_error: string | null;
    /** The provider's answer to the accepted message (the SMTP server's queue id). */
    provider_id: string | null;
    claimed_by: string | null;
    claimed_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
    /** Its payload and recipient go once it is sent (the account-deleted message). */
    erase_after_send: ColumnType<boolean, boolean | undefined, boolean>;
    /** When the event it answers was recorded (the lag to `sent_at`). */
    event_at: ColumnType<Date | null, Date | null | undefined, never>;
    created_at: ColumnType<Date, Date | undefined, never>;
    sent_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  };
}
