/**
 * The little an approval store needs from a PostgreSQL-speaking database: both the embedded
 * store (PGlite) and a PostgreSQL server run the same SQL through it.
 */
export interface SqlDriver {
  /** Run one statement with `$1`-style parameters; resolves to its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Run `fn` in one transaction on one connection; rolled back when it throws. */
  transaction<T>(fn: (query: SqlDriver["query"]) => Promise<T>): Promise<T>;
  /** Call `onPayload` for every NOTIFY on `channel`; resolves to the undo. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /** Release the database (connections, files). */
  close(): Promise<void>;
}
