/**
 * The few calls the PostgreSQL adapter needs. A `pg` pool and PGlite both serve it (see
 * `connection.ts`), so the adapter runs the same SQL on either.
 */
export interface SqlClient {
  query<Row>(text: string, params?: readonly unknown[]): Promise<{ rows: Row[] }>;
  /** Runs several statements as one implicit transaction (simple query protocol). */
  exec(script: string): Promise<void>;
}
