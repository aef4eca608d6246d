import {
  type AuditEvent,
  type FailBehavior,
  HookError,
  type HookEventName,
  type HookResponse,
  validateEvent,
} from "@a3s-lab/hooks-core";
import {
  checkHookResponse,
  InvocationContext,
  patchPaths,
  sendableAnswer,
} from "@a3s-lab/hooks-core/internal";
import {
  fromHookResponse,
  type HookEventMessage,
  type HookResponseMessage,
} from "@a3s-lab/hooks-core/wire";
import type { RemoteHookContext, RemoteHookHandler } from "./types.js";

/** One hook this client registered, as it keeps it locally. */
export interface LocalHook {
  readonly id: string;
  readonly event: HookEventName;
  readonly handler: RemoteHookHandler;
  readonly failBehavior: FailBehavior | undefined;
  readonly name: string | undefined;
}

export interface HookRunnerDeps {
  hook(id: string): LocalHook | undefined;
  /** Answer on whatever stream is open now (a reconnect may have replaced the one the event came on). */
  send(message: HookResponseMessage): void;
  error(error: HookError): void;
  /** Emit an audit record (the caller filters by level). */
  audit(record: AuditEvent): void;
  wantsAudit(type: AuditEvent["type"]): boolean;
}

const key = (eventId: string, hookId: string) => `${eventId}\n${hookId}`;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    typeof value === "object" &&
    typeof (value as PromiseLike<unknown>).then === "function"
  );
}

/** A firing's context on the client: core's, plus the agent's deadline. */
class RunContext extends InvocationContext implements RemoteHookContext {
  readonly deadline: number;

  constructor(hookId: string, message: HookEventMessage) {
    super(hookId, message);
    this.deadline = message.deadlineMs;
  }

  /** Abort the handler. A listener's failure is dropped: the agent stopped waiting, nobody is left to tell. */
  abort(reason: HookError): void {
    InvocationContext.abort(this, reason);
  }
}

/**
 * Runs the handlers for the firings the agent sends: one context per firing (aborted by the
 * agent's cancellation or a lost connection), one answer per firing, and a handler that throws
 * or answers garbage answers with its fail behaviour instead.
 */
export class HookRunner {
  readonly #deps: HookRunnerDeps;
  readonly #inflight = new Map<string, RunContext>();

  constructor(deps: HookRunnerDeps) {
    this.#deps = deps;
  }

  /** Firings whose handler is still running. */
  get inflight(): number {
    return this.#inflight.size;
  }

  handle(message: HookEventMessage): void {
    const k = key(message.eventId, message.hookId);
    if (message.cancel) {
      const running = this.#inflight.get(k);
      this.#inflight.delete(k);
      running?.abort(
        new HookError(
          "ABORTED",
          `the agent stopped waiting: ${message.cancelReason || "cancelled"}`,
        ),
      );
      return;
    }
    const hook = this.#deps.hook(message.hookId);
    if (!hook) {
      // Unregistered here while the agent was sending: answer so it does not wait for a timeout.
      this.#send({
        hookId: message.hookId,
        eventId: message.eventId,
        action: "continue",
        error: `this client has no hook ${message.hookId}`,
      });
      return;
    }
    const checked = validateEvent(message.payload);
    if (!checked.success) {
      this.#fail(hook, message, new HookError("INVALID_EVENT", checked.error.message));
      return;
    }
    const ctx = new RunContext(hook.id, message);
    this.#inflight.set(k, ctx);
    const started = Date.now();
    if (this.#deps.wantsAudit("started")) {
      this.#deps.audit({
        type: "started",
        time: started,
        hookId: hook.id,
        event: hook.event,
        eventId: message.eventId,
      });
    }
    const settle = (value: unknown, failure?: unknown) => {
      // Cancelled or disconnected meanwhile: the agent is no longer waiting for this answer.
      if (this.#inflight.get(k) !== ctx) return;
      this.#inflight.delete(k);
      if (failure !== undefined) {
        return this.#fail(hook, message, HookError.from(failure, "HANDLER_FAILED"), started);
      }
      const response = checkHookResponse(value);
      if (response instanceof HookError) return this.#fail(hook, message, response, started);
      // Long text is cut to fit; only a `modified` too big to send can fail here.
      const answer = sendableAnswer(fromHookResponse(hook.id, message.eventId, response));
      if (!answer.success) return this.#fail(hook, message, answer.error, started);
      this.#deps.send(answer.data);
      this.#report(hook, message, response, started);
    };
    let value: unknown;
    try {
      value = hook.handler(checked.data as never, ctx);
    } catch (error) {
      settle(undefined, error ?? new Error("the handler threw"));
      return;
    }
    if (!isThenable(value)) {
      settle(value);
      return;
    }
    value.then(
      (v) => settle(v),
      (error: unknown) => settle(undefined, error ?? new Error("the handler rejected")),
    );
  }

  /** A message that is not a valid HookEvent: answer it with an error when it names a firing. */
  invalid(error: HookError, raw: unknown): void {
    const hookId = (raw as { hookId?: unknown } | null)?.hookId;
    const eventId = (raw as { eventId?: unknown } | null)?.eventId;
    this.#deps.error(
      new HookError("INVALID_EVENT", `the agent sent an unreadable event: ${error.message}`),
    );
    if (typeof hookId === "string" && typeof eventId === "string" && hookId && eventId) {
      this.#send({ hookId, eventId, action: "continue", error: error.message });
    }
  }

  /** Abort every running handler (the connection dropped, or the client closes). */
  abortAll(reason: HookError): void {
    const all = [...this.#inflight.values()];
    this.#inflight.clear();
    for (const ctx of all) ctx.abort(reason);
  }

  /** Send an answer that carries no `modified`: bounded, it always fits. */
  #send(message: HookResponseMessage): void {
    const answer = sendableAnswer(message);
    if (answer.success) this.#deps.send(answer.data);
  }

  #fail(hook: LocalHook, message: HookEventMessage, error: HookError, started = Date.now()): void {
    const label = hook.name ?? hook.id;
    const reason = `hook ${label} failed: ${error.message}`;
    this.#send({
      hookId: hook.id,
      eventId: message.eventId,
      // The agent applies the registered fail behaviour because `error` is set; the action
      // says the same for agents that only read the action.
      action: hook.failBehavior === "block" ? "block" : "continue",
      ...(hook.failBehavior === "block" ? { reason } : {}),
      error: error.message || "failed",
    });
    this.#deps.error(
      new HookError(error.code, reason, {
        cause: error,
        details: { hookId: hook.id, eventId: message.eventId },
      }),
    );
    if (this.#deps.wantsAudit("failed")) {
      this.#deps.audit({
        type: "failed",
        time: Date.now(),
        hookId: hook.id,
        event: hook.event,
        eventId: message.eventId,
        code: error.code,
        message: error.message,
        duration: Date.now() - started,
      });
    }
  }

  #report(hook: LocalHook, message: HookEventMessage, response: HookResponse, started: number) {
    const completed = this.#deps.wantsAudit("completed");
    const blocked = response.action === "block" && this.#deps.wantsAudit("blocked");
    const responded = response.action === "respond" && this.#deps.wantsAudit("responded");
    const modified =
      response.action === "continue" &&
      response.modified !== undefined &&
      this.#deps.wantsAudit("modified");
    // The usual case (audit off, or nobody listening) builds no record.
    if (!completed && !blocked && !responded && !modified) return;
    const base = { time: Date.now(), hookId: hook.id, event: hook.event, eventId: message.eventId };
    if (completed) {
      this.#deps.audit({
        type: "completed",
        ...base,
        action: response.action,
        duration: base.time - started,
      });
    }
    if (blocked) this.#deps.audit({ type: "blocked", ...base, reason: response.reason });
    if (responded) {
      this.#deps.audit({ type: "responded", ...base, outputLength: response.output.length });
    }
    if (modified) {
      const paths = patchPaths(response.modified).map((p) => p.join("."));
      this.#deps.audit({ type: "modified", ...base, paths, conflicts: [] });
    }
  }
}
