import { deferDeadlineMs } from "@a3s-lab/hooks-core/internal";
import * as z from "zod";
import { ApprovalError } from "./approval-error.js";

/** The largest tool input (as JSON) an approval holds; a bigger one is refused, not truncated. */
export const MAX_TOOL_INPUT_BYTES = 256 * 1024;
/** The largest resume context (as JSON) an approval holds. */
export const MAX_CONTEXT_BYTES = 1024 * 1024;

/** What happens to a pending approval when its deadline passes. */
export type DeadlineAction = "allow" | "deny";
/** Where an approval stands. A decided approval never goes back to `pending`. */
export type ApprovalStatus = "pending" | "allowed" | "denied";

/** Who wrote the decision when the deadline passed first. */
export const DEADLINE_DECIDER = "(deadline)";

const text = (max: number) => z.string().min(1).max(max);

const parkSchema = z.strictObject({
  sessionId: text(256),
  toolName: text(256),
  toolUseId: text(256).optional(),
  toolInput: z.unknown(),
  reason: z.string().max(4096),
  routing: z
    .strictObject({
      deciders: z.array(text(256)).max(100).optional(),
      deadline: z
        .union([z.date(), z.iso.datetime({ offset: true }), z.string().refine(isDuration)], {
          error: 'expected a Date, an ISO time with offset, or a duration such as "30m"',
        })
        .optional(),
      onDeadline: z.enum(["allow", "deny"]).optional(),
    })
    .optional(),
  context: z.unknown().optional(),
});

/** A tool call a hook deferred, as the agent asks the store to park it. */
export interface ParkRequest {
  /** The session the call belongs to; `resume <session>` finds it by this. */
  sessionId: string;
  /** The tool the agent wanted to run. */
  toolName: string;
  /** The tool call's own id, when the agent has one. */
  toolUseId?: string;
  /** The tool's input, any JSON (at most {@link MAX_TOOL_INPUT_BYTES}). */
  toolInput: unknown;
  /** The hook's reason for deferring, shown to whoever decides. */
  reason: string;
  /**
   * Who may decide and by when; without a deadline an approval waits for ever. A hook's
   * `defer` routing (`DeferRouting` of hooks-core) fits as it is.
   */
  routing?:
    | {
        /** Names allowed to decide; empty or absent means any token holder. */
        deciders?: string[] | undefined;
        /**
         * When the approval stops waiting: a time, or a duration from now (`"90s"`, `"30m"`,
         * `"2h"`, `"7d"`) as a deferring hook gives it.
         */
        deadline?: Date | string | undefined;
        /** What the deadline decides; `"deny"` unless the hook said otherwise. */
        onDeadline?: DeadlineAction | undefined;
      }
    | undefined;
  /** What the agent needs to resume (the conversation or a pointer to it), any JSON. */
  context?: unknown;
}

/** A parked tool call and, once there is one, its decision. */
export interface Approval {
  /** Unguessable id (a random UUID). */
  id: string;
  /** The session the call belongs to. */
  sessionId: string;
  /** The tool the agent wanted to run. */
  toolName: string;
  /** The tool call's own id, when the agent gave one. */
  toolUseId?: string;
  /** The tool input as the agent asked for it. */
  toolInput: unknown;
  /** The hook's reason for deferring. */
  reason: string;
  /** Who may decide; empty means any token holder. */
  deciders: string[];
  /** ISO time after which the deadline decides. */
  deadline?: string;
  /** What the deadline decides. */
  onDeadline: DeadlineAction;
  /** What the agent saved to resume. */
  context?: unknown;
  /** ISO time the call was parked. */
  createdAt: string;
  /** Pending, or the decision. */
  status: ApprovalStatus;
  /** Who decided; {@link DEADLINE_DECIDER} when the deadline did. */
  decidedBy?: string;
  /** ISO time of the decision. */
  decidedAt?: string;
  /** The decider's reason, or `"deadline passed"`. */
  decisionReason?: string;
  /** The input the decider replaced the tool input with; it must pass PreToolUse again. */
  editedInput?: unknown;
  /** When an agent claimed the resume; set once. */
  resumedAt?: string;
  /**
   * When the resumed call finished (ran, or was refused). A `resumedAt` without it is a resume
   * whose process stopped part-way: the call is never run again, and may or may not have run.
   */
  completedAt?: string;
}

/** A person's decision on a parked call. */
export interface DecisionInput {
  /** Run the call, or refuse it. */
  decision: "allow" | "deny";
  /** Who decides (a name from the routing's `deciders` when it has any). */
  by: string;
  /** Why, kept with the decision. */
  reason?: string;
  /** A replacement tool input, for an `allow`. */
  editedInput?: unknown;
}

const decisionSchema = z.strictObject({
  decision: z.enum(["allow", "deny"]),
  by: text(256),
  reason: z.string().max(4096).optional(),
  editedInput: z.unknown().optional(),
});

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function invalid(error: z.ZodError, root: string): ApprovalError {
  const issue = error.issues[0];
  const path = [root, ...(issue?.path ?? [])].filter((p) => typeof p !== "symbol") as (
    | string
    | number
  )[];
  return new ApprovalError("INVALID_INPUT", `${path.join(".")}: ${issue?.message ?? "invalid"}`, {
    path,
  });
}

function jsonSize(value: unknown, field: string, max: number): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (cause) {
    throw new ApprovalError("INVALID_INPUT", `${field}: not JSON (${String(cause)})`, {
      path: [field],
    });
  }
  if (json === undefined) {
    throw new ApprovalError("INVALID_INPUT", `${field}: not JSON`, { path: [field] });
  }
  const bytes = Buffer.byteLength(json);
  if (bytes > max) {
    throw new ApprovalError("INVALID_INPUT", `${field}: ${bytes} bytes, at most ${max}`, {
      path: [field],
      details: { bytes, max },
    });
  }
  return json;
}

/** A checked park request: fields validated, JSON serialised once. */
export interface CheckedPark {
  request: ParkRequest;
  toolInputJson: string;
  contextJson: string | null;
  deadline: Date | null;
}

/**
 * Check a park request; throws `INVALID_INPUT` naming the field. A duration deadline counts
 * from `now`.
 */
export function checkPark(value: unknown, now: Date = new Date()): CheckedPark {
  const parsed = parkSchema.safeParse(value);
  if (!parsed.success) throw invalid(parsed.error, "request");
  const request = parsed.data as ParkRequest;
  const toolInputJson = jsonSize(request.toolInput, "toolInput", MAX_TOOL_INPUT_BYTES);
  const contextJson =
    request.context === undefined ? null : jsonSize(request.context, "context", MAX_CONTEXT_BYTES);
  return {
    request,
    toolInputJson,
    contextJson,
    deadline: deadlineOf(request.routing?.deadline, now),
  };
}

function isDuration(text: string): boolean {
  return deferDeadlineMs(text) !== undefined;
}

/** A duration counts from the park, on the store's clock. */
function deadlineOf(raw: Date | string | undefined, now: Date): Date | null {
  if (raw === undefined) return null;
  const ms = typeof raw === "string" ? deferDeadlineMs(raw) : undefined;
  return ms === undefined ? new Date(raw) : new Date(now.getTime() + ms);
}

/** Check a decision; throws `INVALID_INPUT` naming the field. */
export function checkDecision(value: unknown): { input: DecisionInput; editedJson: string | null } {
  const parsed = decisionSchema.safeParse(value);
  if (!parsed.success) throw invalid(parsed.error, "decision");
  const input = parsed.data as DecisionInput;
  if (input.editedInput !== undefined && input.decision === "deny") {
    throw new ApprovalError("INVALID_INPUT", "decision.editedInput: only an allow can edit", {
      path: ["decision", "editedInput"],
    });
  }
  const editedJson =
    input.editedInput === undefined
      ? null
      : jsonSize(input.editedInput, "editedInput", MAX_TOOL_INPUT_BYTES);
  return { input, editedJson };
}

/** Check an approval id (a UUID); throws `INVALID_INPUT` naming `id`. */
export function checkId(id: unknown): string {
  if (typeof id !== "string" || !ID.test(id)) {
    const shown = typeof id === "string" ? JSON.stringify(id.slice(0, 60)) : typeof id;
    throw new ApprovalError("INVALID_INPUT", `id: ${shown} is not an approval id`, {
      path: ["id"],
    });
  }
  return id;
}
