import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import type { Approval } from "../approvals/approval.js";
import type { ApprovalStore } from "../approvals/approval-store.js";
import { readDecidersFile } from "../approvals/inbox-deciders.js";
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
  host?: string;
  port?: string;
  token?: string;
  deciders?: string;
}

export type ApprovalsAction = "list" | "show" | "approve" | "deny" | "serve";

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
    [
      "finished",
      a.resumedAt === undefined
        ? undefined
        : (a.completedAt ?? "not recorded (the resuming process stopped part-way, or still runs)"),
    ],
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
  if (action === "serve") return serveInbox(args, io);
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

/** `stopped` resolves on the first SIGINT or SIGTERM; `dispose` stops listening. */
function stopSignal(): { stopped: Promise<void>; dispose(): void } {
  let on: () => void = () => {};
  const stopped = new Promise<void>((done) => {
    on = () => done();
  });
  const dispose = () => {
    process.off("SIGINT", on);
    process.off("SIGTERM", on);
  };
  process.once("SIGINT", on);
  process.once("SIGTERM", on);
  return { stopped, dispose };
}

/**
 * `a3s-hooks approvals serve`: the web inbox over the store until SIGINT or SIGTERM. The token
 * is `--token`, else `A3S_TOKEN`, else a new random one shown only in the URL's fragment. With
 * `--deciders FILE`, each person has their own token and there is no shared one unless
 * `--token` or `A3S_TOKEN` gives it.
 */
async function serveInbox(args: ApprovalsArgs, io: CliIo): Promise<number> {
  const port = args.port === undefined ? 0 : Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CliError("USAGE", `--port: ${JSON.stringify(args.port)} is not a port (0-65535)`);
  }
  const host = args.host ?? "127.0.0.1";
  const given = args.token ?? io.env.A3S_TOKEN;
  if (given !== undefined && given.length === 0) throw new CliError("USAGE", "--token: empty");
  const people = args.deciders === undefined ? undefined : await readDecidersFile(args.deciders);
  if (people?.warning !== undefined) io.stderr.write(`warning: ${people.warning}\n`);
  const token = given ?? (people === undefined ? randomBytes(24).toString("base64url") : undefined);
  const where = location(args, io);
  const embedded = !/^postgres(ql)?:\/\//i.test(where);
  // Listen for the signals before the slow open, so a stop during it is not lost.
  const { stopped, dispose } = stopSignal();
  try {
    const store: ApprovalStore = await openApprovalStore(where);
    try {
      const { startInboxServer } = await import("../approvals/inbox-server.js");
      const inbox = await startInboxServer({
        store,
        token,
        deciders: people?.deciders,
        host,
        port,
        log: (text) => io.stderr.write(`${text}\n`),
      });
      const shown =
        people !== undefined
          ? `${inbox.url} (${people.deciders.length} decider(s) from ${args.deciders}: each opens ${inbox.url}#token=<their token>)`
          : given === undefined
            ? `${inbox.url}#token=${token}`
            : inbox.url;
      const lock = embedded
        ? ` (embedded store ${where}: agents cannot park while this inbox holds it; share a postgres:// store to run both)`
        : "";
      io.stderr.write(`inbox: ${shown}${lock}\n`);
      if (!["127.0.0.1", "localhost", "::1"].includes(host)) {
        io.stderr.write(
          `warning: --host ${host} is not loopback; anyone who can reach it and has the token can decide\n`,
        );
      }
      await stopped;
      await inbox.close();
      return 0;
    } finally {
      await store.close();
    }
  } finally {
    dispose();
  }
}
