import type { SqlDriver } from "./sql-driver.js";

/**
 * The schema, one entry per version, applied in order and never edited once released: a change
 * is a new entry. The same SQL runs on PGlite and on PostgreSQL.
 */
export const MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
CREATE TABLE a3s_approvals (
  id text PRIMARY KEY,
  session_id text NOT NULL,
  tool_name text NOT NULL,
  tool_use_id text,
  tool_input jsonb NOT NULL,
  reason text NOT NULL,
  deciders jsonb NOT NULL,
  deadline timestamptz,
  on_deadline text NOT NULL CHECK (on_deadline IN ('allow', 'deny')),
  context jsonb,
  created_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'allowed', 'denied')),
  decided_by text,
  decided_at timestamptz,
  decision_reason text,
  edited_input jsonb,
  resumed_at timestamptz,
  CHECK ((status = 'pending') = (decided_at IS NULL)),
  CHECK (resumed_at IS NULL OR decided_at IS NOT NULL)
);
CREATE INDEX a3s_approvals_by_status ON a3s_approvals (status, created_at);
CREATE INDEX a3s_approvals_by_session ON a3s_approvals (session_id, created_at);`,
  },
  {
    // When the resumed call finished: a claim without it is a resume that crashed part-way. A
    // resume recorded before this version meant "done", and keeps that meaning.
    version: 2,
    sql: `
ALTER TABLE a3s_approvals ADD COLUMN completed_at timestamptz;
ALTER TABLE a3s_approvals ADD CONSTRAINT a3s_approvals_completed_after_resumed
  CHECK (completed_at IS NULL OR resumed_at IS NOT NULL);
UPDATE a3s_approvals SET completed_at = resumed_at WHERE resumed_at IS NOT NULL;`,
  },
];

/**
 * Bring the schema up to the newest version. Safe to run from many processes at once: an
 * advisory lock makes them take turns, and each version is recorded in the same transaction
 * that applies it. Resolves to the schema version.
 */
export async function migrate(driver: SqlDriver): Promise<number> {
  return driver.transaction(async (query) => {
    await query("SELECT pg_advisory_xact_lock(hashtext('a3s_approvals_migrations'))");
    await query(
      "CREATE TABLE IF NOT EXISTS a3s_approvals_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    const rows = await query<{ version: number | null }>(
      "SELECT max(version) AS version FROM a3s_approvals_migrations",
    );
    let current = rows[0]?.version ?? 0;
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      for (const statement of migration.sql.split(";").map((s) => s.trim())) {
        if (statement !== "") await query(statement);
      }
      await query("INSERT INTO a3s_approvals_migrations (version) VALUES ($1)", [
        migration.version,
      ]);
      current = migration.version;
    }
    return current;
  });
}
