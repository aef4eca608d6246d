import { HookError } from "@a3s-lab/hooks-core";
import {
  parseWireMessage,
  type WireMessageMap,
  type WireMessageType,
} from "@a3s-lab/hooks-core/wire";
import type {
  ServerUnaryCall,
  ServerWritableStream,
  UntypedServiceImplementation,
} from "@grpc/grpc-js";
import {
  type AgentCallContext,
  type AgentService,
  answer,
  checkedGenerate,
} from "../hub/agent-service.js";
import type { Authenticator } from "../hub/authenticator.js";
import { authenticateCall, unaryHandler } from "./grpc-hook-service.js";
import { toStatus } from "./grpc-status.js";
import { convertFromProto, toProto } from "./wire-codec.js";

/** Check a request, or fail the call with INVALID_ARGUMENT naming the field. */
function checked<K extends WireMessageType>(type: K, value: unknown): WireMessageMap[K] {
  const result = parseWireMessage(type, value);
  if (!result.success) {
    throw new HookError("INVALID_EVENT", result.error.message, {
      path: result.error.path,
      cause: result.error,
    });
  }
  return result.data;
}

function contextOf(
  clientId: string,
  call: ServerUnaryCall<unknown, unknown> | ServerWritableStream<unknown, unknown>,
  closing: AbortSignal,
): AgentCallContext & { done(): void } {
  const controller = new AbortController();
  const onCancel = () => controller.abort(new HookError("ABORTED", "the caller cancelled"));
  const onClosing = () => controller.abort(new HookError("UNAVAILABLE", "the server is closing"));
  call.on("cancelled", onCancel);
  closing.addEventListener("abort", onClosing, { once: true });
  return {
    clientId,
    signal: controller.signal,
    done: () => {
      call.off("cancelled", onCancel);
      closing.removeEventListener("abort", onClosing);
    },
  };
}

/** AgentService over gRPC: the host's implementation, behind the same authentication. */
export function grpcAgentService(
  agent: AgentService,
  authenticate: Authenticator,
  closing: AbortSignal,
): UntypedServiceImplementation {
  const unary = <In extends WireMessageType, Out extends WireMessageType>(
    requestType: In,
    responseType: Out,
    run: (request: WireMessageMap[In], ctx: AgentCallContext) => unknown,
  ) =>
    unaryHandler(authenticate, requestType, responseType, async ({ clientId }, request, call) => {
      const ctx = contextOf(clientId, call, closing);
      try {
        return answer(responseType, await run(checked(requestType, request), ctx));
      } finally {
        ctx.done();
      }
    });

  return {
    CreateSession: unary("CreateSessionRequest", "CreateSessionResponse", (r, ctx) =>
      agent.createSession(r, ctx),
    ),
    DestroySession: unary("DestroySessionRequest", "DestroySessionResponse", (r, ctx) =>
      agent.destroySession(r, ctx),
    ),
    ExecuteTool: unary("ExecuteToolRequest", "ExecuteToolResponse", (r, ctx) =>
      agent.executeTool(r, ctx),
    ),
    Generate: (call: ServerWritableStream<unknown, unknown>) => {
      void (async () => {
        let ctx: (AgentCallContext & { done(): void }) | undefined;
        try {
          const clientId = authenticateCall(authenticate, call.metadata);
          const request = checked(
            "GenerateRequest",
            convertFromProto("GenerateRequest", call.request),
          );
          ctx = contextOf(clientId, call, closing);
          for await (const event of checkedGenerate(agent, request, ctx)) {
            call.write(toProto("GenerateEvent", event));
          }
          call.end();
        } catch (error) {
          if (!call.cancelled) call.emit("error", toStatus(error));
        } finally {
          ctx?.done();
        }
      })();
    },
  };
}
