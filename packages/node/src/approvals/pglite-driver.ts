import type { SqlDriver } from "./sql-driver.js";
import { lockStore } from "./store-lock.js";

/**
 * The embedded database: PGlite (PostgreSQL compiled to WebAssembly) in a folder, so the embedded
 * store runs the very SQL and migrations a PostgreSQL server runs. One process at a time owns
 * the folder (a lock file beside it says which). Loaded on first use, so hosts that never park a
 * call do not pay for it.
 */
export async function pgliteDriver(dataDir: string): Promise<SqlDriver> {
  const unlock = await lockStore(dataDir);
  let db: import("@electric-sql/pglite").PGlite;
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    db = await PGlite.create(dataDir);
  } catch (error) {
    await unlock();
    throw error;
  }
  return {
    async query<Row>(sql: string, params: unknown[] = []) {
      return (await db.query<Row>(sql, params)).rows;
    },
    transaction(fn) {
      return db.transaction((tx) =>
        fn(
          async <Row>(sql: string, params: unknown[] = []) =>
            (await tx.query<Row>(sql, params)).rows,
        ),
      );
    },
    async listen(channel, onPayload) {
      const undo = await db.listen(channel, onPayload);
      return async () => undo();
    },
    async close() {
      try {
        await db.close();
      } finally {
        await unlock();
      }
    },
  };
}
