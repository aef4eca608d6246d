import { HookError } from "@a3s-lab/hooks-core";
import type { WireFrame, WireMessageMap, WireMessageType } from "@a3s-lab/hooks-core/wire";
import {
  type AgentCallContext,
  type AgentService,
  answer,
  checkedGenerate,
} from "../hub/agent-service.js";

/** A frame to send, without its `type` checked at compile time (the hub's shapes vary). */
export type OutFrame = Record<string, unknown> & { type: string; id?: string };

/** At most this many AgentService calls run at once per socket. */
const MAX_CALLS = 64;

type AgentRequestType = "CreateSessionRequest" | "DestroySessionRequest" | "ExecuteToolRequest";

const UNARY: Record<AgentRequestType, [keyof AgentService, WireMessageType]> = {
  CreateSessionRequest: ["createSession", "CreateSessionResponse"],
  DestroySessionRequest: ["destroySession", "DestroySessionResponse"],
  ExecuteToolRequest: ["executeTool", "ExecuteToolResponse"],
};

/** The frame types that are AgentService calls. */
export function isAgentRequest(type: string): boolean {
  return type === "GenerateRequest" || Object.hasOwn(UNARY, type);
}

/** An `Error` frame for a failure, answering request `id`. */
export function errorFrame(error: unknown, id?: string): OutFrame {
  const e = HookError.from(error);
  return {
    type: "Error",
    ...(id !== undefined ? { id } : {}),
    code: e.code,
    message: e.message,
    ...(e.path.length > 0 ? { path: [...e.path] } : {}),
  };
}

/**
 * The AgentService calls of one WebSocket: each runs with an `AbortSignal` that a `Cancel`
 * frame, the socket closing or the server closing aborts, exactly as a gRPC call's does.
 */
export class WsAgentCalls {
  readonly #agent: AgentService | undefined;
  readonly #clientId: string;
  readonly #send: (frame: OutFrame) => void;
  readonly #closing: AbortSignal;
  readonly #calls = new Map<string, AbortController>();

  constructor(
    agent: AgentService | undefined,
    clientId: string,
    send: (frame: OutFrame) => void,
    closing: AbortSignal,
  ) {
    this.#agent = agent;
    this.#clientId = clientId;
    this.#send = send;
    this.#closing = closing;
  }

  /** Start one call; its answer (or `Error`) goes out as frames carrying `frame.id`. */
  handle(frame: WireFrame & { id: string }): void {
    const { id } = frame;
    if (!this.#agent) {
      this.#send(
        errorFrame(
          new HookError("UNAVAILABLE", "this agent does not serve AgentService", {
            details: { method: frame.type },
          }),
          id,
        ),
      );
      return;
    }
    if (this.#calls.has(id)) {
      this.#send(
        errorFrame(
          new HookError("INVALID_EVENT", `frame.id: ${id} is already in use by a running call`, {
            path: ["id"],
          }),
          id,
        ),
      );
      return;
    }
    if (this.#calls.size >= MAX_CALLS) {
      this.#send(
        errorFrame(
          new HookError(
            "LIMIT_EXCEEDED",
            `at most ${MAX_CALLS} agent calls may run at once per connection`,
          ),
          id,
        ),
      );
      return;
    }
    const controller = new AbortController();
    this.#calls.set(id, controller);
    const onClosing = () => controller.abort(new HookError("UNAVAILABLE", "the server is closing"));
    this.#closing.addEventListener("abort", onClosing, { once: true });
    const ctx: AgentCallContext = { clientId: this.#clientId, signal: controller.signal };
    const { type: _type, id: _id, ...request } = frame as WireFrame & Record<string, unknown>;
    const run =
      frame.type === "GenerateRequest"
        ? this.#generate(id, request as WireMessageMap["GenerateRequest"], ctx)
        : this.#unary(id, frame.type as AgentRequestType, request, ctx);
    void run
      .catch((error: unknown) => {
        if (!controller.signal.aborted) this.#send(errorFrame(error, id));
      })
      .finally(() => {
        this.#closing.removeEventListener("abort", onClosing);
        if (this.#calls.get(id) === controller) this.#calls.delete(id);
      });
  }

  /** The caller cancelled call `id`. */
  cancel(id: string): void {
    const controller = this.#calls.get(id);
    this.#calls.delete(id);
    controller?.abort(new HookError("ABORTED", "the caller cancelled"));
  }

  /** The socket is gone: abort every call still running. */
  abortAll(): void {
    for (const id of [...this.#calls.keys()]) this.cancel(id);
  }

  async #unary(
    id: string,
    type: AgentRequestType,
    request: unknown,
    ctx: AgentCallContext,
  ): Promise<void> {
    const [method, responseType] = UNARY[type];
    const call = this.#agent![method] as (r: unknown, c: AgentCallContext) => unknown;
    const response = answer(responseType, await call.call(this.#agent, request, ctx));
    if (!ctx.signal.aborted) this.#send({ ...response, type: responseType, id });
  }

  async #generate(
    id: string,
    request: WireMessageMap["GenerateRequest"],
    ctx: AgentCallContext,
  ): Promise<void> {
    for await (const event of checkedGenerate(this.#agent!, request, ctx)) {
      this.#send({ ...event, type: "GenerateEvent", id });
    }
  }
}
