import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import {
  type Approval,
  ApprovalError,
  type ApprovalStore,
  DEADLINE_DECIDER,
  openApprovalStore,
} from "@a3s-lab/hooks-node/approvals";
import type { ParkedDecision } from "./agent.js";
import { AgentError } from "./agent-error.js";
import type { ParkCall, ParkedCall } from "./parked-call.js";
import type { Style } from "./style.js";

/** Where parked calls go when neither `--store` nor `A3S_APPROVALS_STORE` says: `a3s-hooks`'s default too. */
export const DEFAULT_STORE = ".a3s/approvals";

/** Where the approvals live, as the commands were told and as they open it. */
export interface StoreLocation {
  /** A folder (absolute) or a `postgres://` URL. */
  location: string;
  /** What the user wrote with `--store`; the hints repeat it. Undefined for the default or env. */
  flag: string | undefined;
}

/** True for a `postgres://` (or `postgresql://`) URL: a store many processes share. */
export function isServerStore(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

const isUrl = isServerStore;

/**
 * The approval store of a command: `--store`, else `A3S_APPROVALS_STORE`, else
 * {@link DEFAULT_STORE}; a folder is resolved against `cwd`, as `a3s-hooks approvals` does, so
 * the agent, the inbox and `resume` agree when run from one folder.
 */
export function storeLocation(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  cwd: string,
): StoreLocation {
  const given = flag ?? (env.A3S_APPROVALS_STORE || DEFAULT_STORE);
  return { location: isUrl(given) ? given : path.resolve(cwd, given), flag };
}

/** A URL as it may be shown: without its password. */
export function shownLocation(location: string): string {
  if (!isUrl(location)) return location;
  try {
    const url = new URL(location);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "(a postgres URL)";
  }
}

/**
 * Open the approval store. A folder must be an embedded store, or (when `create`) missing or
 * empty: anything else is refused with `INVALID_INPUT` naming `store`, before the database
 * would try to make sense of it. A missing folder, when it must exist, is `NOT_FOUND`.
 */
export async function openStore(
  where: StoreLocation,
  options: { create: boolean },
): Promise<ApprovalStore> {
  const { location } = where;
  if (!isUrl(location)) await checkStoreFolder(location, options.create);
  try {
    return await openApprovalStore(location);
  } catch (error) {
    // The store's own refusals (another process has it) already name the store.
    if (ApprovalError.isReason(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new AgentError(
      "INVALID_INPUT",
      `store: cannot open the approval store ${shownLocation(location)}: ${message}`,
      { path: ["store"], cause: error },
    );
  }
}

async function checkStoreFolder(folder: string, create: boolean): Promise<void> {
  const info = await stat(folder).catch(() => undefined);
  if (info === undefined) {
    if (create) return;
    throw new AgentError("NOT_FOUND", `store: no approval store at ${folder}`, {
      path: ["store"],
    });
  }
  if (!info.isDirectory()) {
    throw new AgentError(
      "INVALID_INPUT",
      `store: ${folder} is not an approval store (it is a file, not a folder)`,
      { path: ["store"] },
    );
  }
  const entries = await readdir(folder);
  if (entries.length === 0 && create) return;
  // Every PostgreSQL data folder, PGlite's included, starts with its version file.
  if (!entries.includes("PG_VERSION")) {
    throw new AgentError(
      "INVALID_INPUT",
      `store: ${folder} is not an approval store (a folder without PG_VERSION)`,
      { path: ["store"] },
    );
  }
}

/**
 * The agent's `park` on a store opened the first time a call is deferred, so a run without a
 * deferred call never creates (or waits for) one. `close` closes it if it was opened.
 */
export function lazyParker(open: () => Promise<ApprovalStore>): {
  park: ParkCall;
  close(): Promise<void>;
} {
  let store: Promise<ApprovalStore> | undefined;
  return {
    park: async (request) => {
      store ??= open();
      return (await store).park(request);
    },
    close: async () => {
      if (store !== undefined) await (await store.catch(() => undefined))?.close();
    },
  };
}

/** The lines that tell the user a call waits, and how to decide it and pick the turn up. */
export function waitingLines(parked: ParkedCall, where: StoreLocation, style: Style): string[] {
  const store = where.flag === undefined ? "" : ` --store ${quote(where.flag)}`;
  return [
    style.yellow(`⏸ waiting for approval ${parked.approvalId}: ${parked.tool} (${parked.reason})`),
    style.dim(`  decide:  a3s-hooks approvals approve ${parked.approvalId}${store}   (or deny)`),
    style.dim(`  then:    a3s-demo-agent resume ${parked.sessionId}${store}`),
  ];
}

function quote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

/**
 * A decided approval as the agent resumes it. The edited input must be an object of tool
 * arguments; anything else is `INVALID_INPUT` naming `editedInput`.
 */
export function decisionOf(approval: Approval): ParkedDecision {
  if (approval.status === "pending") {
    throw new AgentError("INVALID_INPUT", `approval ${approval.id} is not decided yet`, {
      path: ["approval"],
    });
  }
  const edited = approval.editedInput;
  if (
    edited !== undefined &&
    (edited === null || typeof edited !== "object" || Array.isArray(edited))
  ) {
    throw new AgentError(
      "INVALID_INPUT",
      `approval ${approval.id}: editedInput: expected an object of tool arguments`,
      { path: ["editedInput"] },
    );
  }
  return {
    approvalId: approval.id,
    status: approval.status,
    decidedBy: approval.decidedBy ?? "(unknown)",
    byDeadline: approval.decidedBy === DEADLINE_DECIDER,
    ...(approval.decisionReason !== undefined ? { reason: approval.decisionReason } : {}),
    ...(edited !== undefined ? { editedInput: edited as Record<string, unknown> } : {}),
  };
}

/** One line saying who decided: what `resume` prints before it runs anything. */
export function decisionLine(approval: Approval, decision: ParkedDecision): string {
  const verb = decision.status === "allowed" ? "allowed" : "denied";
  const who = decision.byDeadline ? "the deadline" : decision.decidedBy;
  const why = decision.reason ? ` (${decision.reason})` : "";
  const edited = decision.editedInput === undefined ? "" : "; the input was edited";
  return `▶ resuming approval ${approval.id}: ${approval.toolName} ${verb} by ${who}${why}${edited}`;
}
