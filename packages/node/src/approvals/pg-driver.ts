import type { SqlDriver } from "./sql-driver.js";

/**
 * A PostgreSQL server through node-postgres: a pool for queries and one held connection for
 * LISTEN, so a decision made on another machine reaches a waiting agent at once.
 */
export async function pgDriver(connectionString: string): Promise<SqlDriver> {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString, max: 4 });
  // An idle client that loses its server emits here; without a listener it would crash the host.
  pool.on("error", () => {});
  await pool.query("SELECT 1");
  return {
    async query<Row>(sql: string, params: unknown[] = []) {
      return (await pool.query(sql, params)).rows as Row[];
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn(
          async <Row>(sql: string, params: unknown[] = []) =>
            (await client.query(sql, params)).rows as Row[],
        );
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async listen(channel, onPayload) {
      const client = new pg.Client({ connectionString });
      client.on("error", () => {});
      await client.connect();
      client.on("notification", (message) => {
        if (message.channel === channel) onPayload(message.payload ?? "");
      });
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      return async () => {
        await client.end().catch(() => {});
      };
    },
    close: () => pool.end(),
  };
}
