/**
 * @a3s-lab/hooks-node/approvals: deferred tool calls that wait for a person. A hook answers
 * `defer`; the agent parks the call in an approval store and may exit; whoever holds the inbox
 * (`a3s-hooks approvals`) decides, the first decision standing; the agent, this process or a
 * new one, claims the resume exactly once and runs or denies the call. The embedded store is a
 * folder (PGlite: PostgreSQL in WebAssembly); `postgres://…` shares one store between many
 * agents and inboxes on many machines, with LISTEN/NOTIFY carrying decisions. Both run the same
 * SQL and migrations.
 *
 * @example
 * ```ts
 * import { openApprovalStore } from "@a3s-lab/hooks-node/approvals";
 * const store = await openApprovalStore(".a3s/approvals");
 * const parked = await store.park({
 *   sessionId: "s1",
 *   toolName: "Bash",
 *   toolInput: { command: "git push" },
 *   reason: "pushing needs a person",
 * });
 * const decided = await store.waitForDecision(parked.id);
 * ```
 */
export type {
  Approval,
  ApprovalStatus,
  DeadlineAction,
  DecisionInput,
  ParkRequest,
} from "./approvals/approval.js";
export { DEADLINE_DECIDER, MAX_CONTEXT_BYTES, MAX_TOOL_INPUT_BYTES } from "./approvals/approval.js";
export type { ApprovalErrorReason } from "./approvals/approval-error.js";
export { ApprovalError } from "./approvals/approval-error.js";
export type {
  ApprovalFilter,
  ApprovalStore,
  ApprovalStoreOptions,
} from "./approvals/approval-store.js";
export type { InboxDecider } from "./approvals/inbox-deciders.js";
export type { InboxServer, InboxServerOptions } from "./approvals/inbox-server.js";
export { INBOX_MAX_BODY_BYTES, startInboxServer } from "./approvals/inbox-server.js";
export { openApprovalStore } from "./approvals/open-approval-store.js";
