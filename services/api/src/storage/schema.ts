import type { ColumnType } from 'kysely';

type Json<T> = ColumnType<T, string, string>;

/** Tables of the API itself (schema `app`): not projections, never rebuilt from events. */
export interface AppTables {
  sessions: {
    sid: string;
    user_id: string | null;
    data: Json<Record<string, unknown>>;
    expires_at: ColumnType<Date, Date, Date>;
  };
  idempotency_keys: {
    key: string;
    request_hash: string;
    status: number | null;
    body: Json<unknown> | null;
    created_at: ColumnType<Date, Date, Date>;
  };
}
