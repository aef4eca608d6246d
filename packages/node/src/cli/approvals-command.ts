import { resolve } from "node:path";
import type { Approval } from "../approvals/approval.js";
import type { ApprovalStore } from "../approvals/approval-store.js";
import { openApprovalStore } from "../approvals/open-approval-store.js";
import type { CliIo } from "./cli-context.js";
import { CliError } from "./cli-error.js";

/** Where the approvals live when neither `--store` nor `A3S_APPROVALS_STORE` says. */
export const DEFAULT_APPROVALS_STORE = ".a3s/approvals";

export interface ApprovalsArgs {
  store?: string;
  json?: boolean;
  all?: boolean;
  session?: string;
  by?: string;
  reason?: string;
  input?: string;
}

export type ApprovalsAction = "list" | "show" | "approve" | "deny";

function location(args: ApprovalsArgs, io: CliIo): string {
  const given = args.store ?? io.env.A3S_APPROVALS_STORE ?? DEFAULT_APPROVALS_STORE;
  return /^postgres(ql)?:\/\//i.test(given) ? given : resolve(io.cwd, given);
}

function line(a: Approval): string {
  const who = a.decidedBy === undefined ? "" : ` by ${a.decidedBy}`;
  return `${a.id}  ${a.status}${who}  ${a.sessionId}  ${a.toolName}  ${a.reason}`;
}

function details(a: Approval): string {
  const rows: [string, string | undefined][] = [
    ["id", a.id],
    ["status", a.status],
    ["session", a.sessionId],
    ["tool", a.toolName],
    ["input", JSON.stringify(a.toolInput)],
    ["reason", a.reason],
    ["deciders", a.deciders.length === 0 ? "any token holder" : a.deciders.join(", ")],
    ["deadline", a.deadline === undefined ? "none" : `${a.deadline} (then ${a.onDeadline})`],
    ["parked", a.createdAt],
    ["decided", a.decidedAt === undefined ? undefined : `${a.decidedAt} by ${a.decidedBy}`],
    ["edited input", a.editedInput === undefined ? undefined : JSON.stringify(a.editedInput)],
    ["decision reason", a.decisionReason],
    ["resumed", a.resumedAt],
  ];
  return rows
    .filter((r): r is [string, string] => r[1] !== undefined)
    .map(([k, v]) => `${`${k}:`.padEnd(17)}${v}\n`)
    .join("");
}

function parseInput(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new CliError("USAGE", `--input: not JSON (${(cause as Error).message})`, undefined, {
      cause,
    });
  }
}

/**
 * `a3s-hooks approvals list|show|approve|deny`: the inbox of deferred tool calls, on the
 * embedded store (a folder) or a PostgreSQL server (`--store postgres://…`).
 */
export async function approvalsCommand(
  action: ApprovalsAction,
  id: string | undefined,
  args: ApprovalsArgs,
  io: CliIo,
): Promise<number> {
  const editedInput = action === "approve" ? parseInput(args.input) : undefined;
  if (args.input !== undefined && action !== "approve") {
    throw new CliError("USAGE", "--input: only approve can edit the tool input");
  }
  const store: ApprovalStore = await openApprovalStore(location(args, io));
  try {
    const print = (value: Approval | Approval[], text: string) =>
      io.stdout.write(args.json ? `${JSON.stringify(value)}\n` : text);
    if (action === "list") {
      await store.expireDue();
      const found = await store.list({
        ...(args.all ? {} : { status: "pending" as const }),
        ...(args.session === undefined ? {} : { sessionId: args.session }),
        limit: 1000,
      });
      const none = args.all ? "No approvals.\n" : "No pending approvals.\n";
      print(found, found.length === 0 ? none : found.map((a) => `${line(a)}\n`).join(""));
      return 0;
    }
    if (id === undefined)
      throw new CliError("USAGE", `approvals ${action}: which approval? (an id)`);
    if (action === "show") {
      await store.expireDue();
      const approval = await store.get(id);
      print(approval, details(approval));
      return 0;
    }
    const by = args.by ?? io.env.USER ?? "cli";
    const decided = await store.decide(id, {
      decision: action === "approve" ? "allow" : "deny",
      by,
      ...(args.reason === undefined ? {} : { reason: args.reason }),
      ...(editedInput === undefined ? {} : { editedInput }),
    });
    print(decided, `${decided.status === "allowed" ? "Approved" : "Denied"}: ${line(decided)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
