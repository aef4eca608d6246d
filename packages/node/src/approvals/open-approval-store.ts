import {
  type ApprovalStore,
  type ApprovalStoreOptions,
  createSqlApprovalStore,
} from "./approval-store.js";
import { pgDriver } from "./pg-driver.js";
import { pgliteDriver } from "./pglite-driver.js";

/**
 * Open an approval store. A `postgres://` or `postgresql://` URL opens a PostgreSQL server that
 * many agents and inboxes on many machines share, with LISTEN/NOTIFY carrying decisions; any
 * other value is a folder for the embedded store (PGlite), created when missing. Either way the
 * schema is migrated to the newest version first.
 *
 * @example
 * ```ts
 * const store = await openApprovalStore(".a3s/approvals");
 * const parked = await store.park({
 *   sessionId: "s1", toolName: "Bash", toolInput: { command: "git push" },
 *   reason: "pushing needs a person", routing: { deadline: new Date(Date.now() + 3_600_000) },
 * });
 * const decided = await store.waitForDecision(parked.id); // someone runs `a3s-hooks approvals approve`
 * if (decided.status === "allowed") await store.claimResume(parked.id); // then run the call
 * ```
 */
export async function openApprovalStore(
  location: string,
  options: ApprovalStoreOptions = {},
): Promise<ApprovalStore> {
  const isServer = /^postgres(ql)?:\/\//i.test(location);
  const driver = isServer ? await pgDriver(location) : await pgliteDriver(location);
  try {
    return await createSqlApprovalStore(driver, {
      pollIntervalMs: isServer ? 5000 : 1000,
      ...options,
    });
  } catch (error) {
    await driver.close().catch(() => {});
    throw error;
  }
}
