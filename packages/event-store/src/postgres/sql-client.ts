/**
 * The few calls the PostgreSQL adapter needs. A `pg` pool and PGlite both serve it (see
 * `connection.ts`), so the adapter runs the same SQL on either.
 */
export interface SqlClient {
  /** `name` lets a server keep the statement prepared across calls. */
  query<Row>(text: string, params?: readonly unknown[], name?: string): Promise<{ rows: Row[] }>;
  /** Runs several statements as one implicit transaction (simple query protocol). */
  exec(script: string): Promise<void>;
}
