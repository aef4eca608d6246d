import { HookError } from "@a3s-lab/hooks-core";
import { Metadata, status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { fromStatus, grpcStatusOf, protoFieldNames, toStatus } from "./grpc-status.js";

describe("gRPC status mapping", () => {
  it("maps HookError codes to the statuses the protocol documents", () => {
    expect(grpcStatusOf("UNAUTHENTICATED")).toBe(status.UNAUTHENTICATED);
    expect(grpcStatusOf("PERMISSION_DENIED")).toBe(status.PERMISSION_DENIED);
    expect(grpcStatusOf("LIMIT_EXCEEDED")).toBe(status.RESOURCE_EXHAUSTED);
    expect(grpcStatusOf("INVALID_PATTERN")).toBe(status.INVALID_ARGUMENT);
    expect(grpcStatusOf("UNKNOWN_EVENT")).toBe(status.INVALID_ARGUMENT);
    expect(grpcStatusOf("NOT_FOUND")).toBe(status.NOT_FOUND);
    expect(grpcStatusOf("UNAVAILABLE")).toBe(status.UNAVAILABLE);
    expect(grpcStatusOf("INTERNAL")).toBe(status.INTERNAL);
  });

  it("round-trips the exact code through the x-a3s-error-code trailer", () => {
    const wire = toStatus(new HookError("INVALID_PATTERN", "matcher.tool: bad regex"));
    expect(wire.code).toBe(status.INVALID_ARGUMENT);
    const back = fromStatus({ code: wire.code!, details: wire.details!, metadata: wire.metadata! });
    expect(back).toMatchObject({ code: "INVALID_PATTERN", message: "matcher.tool: bad regex" });
  });

  it("falls back to the status when the trailer is missing or unknown", () => {
    expect(fromStatus({ code: status.RESOURCE_EXHAUSTED, details: "too big" }).code).toBe(
      "LIMIT_EXCEEDED",
    );
    const md = new Metadata();
    md.set("x-a3s-error-code", "NOT_A_CODE");
    expect(fromStatus({ code: status.UNAVAILABLE, details: "", metadata: md }).code).toBe(
      "UNAVAILABLE",
    );
    expect(fromStatus({ code: status.DATA_LOSS, details: "x" }).code).toBe("INTERNAL");
  });

  it("says grpc-js's no-connection errors plainly, marking a refused connection", () => {
    const refused = fromStatus({
      code: status.UNAVAILABLE,
      details:
        "No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:9. Resolution note: ",
    });
    expect(refused).toMatchObject({
      code: "UNAVAILABLE",
      message: "connection refused by 127.0.0.1:9",
      details: { grpcStatus: "UNAVAILABLE", connectionRefused: true },
    });
    const unresolved = fromStatus({
      code: status.UNAVAILABLE,
      details:
        "No connection established. Last error: Error: getaddrinfo ENOTFOUND nohost. Resolution note: DNS lookup failed",
    });
    expect(unresolved.message).toBe("getaddrinfo ENOTFOUND nohost (DNS lookup failed)");
    expect(unresolved.details.connectionRefused).toBeUndefined();
    // Other UNAVAILABLE details stay as they are.
    expect(fromStatus({ code: status.UNAVAILABLE, details: "the agent is draining" }).message).toBe(
      "the agent is draining",
    );
  });

  it("names request fields as hooks.proto does, and leaves other text alone", () => {
    expect(protoFieldNames('RegisterHookRequest.eventType: unknown event name "x"')).toBe(
      'RegisterHookRequest.event_type: unknown event name "x"',
    );
    expect(
      protoFieldNames("registration.matcher.pathPattern: bad; config.timeoutMs: too big"),
    ).toBe("registration.matcher.path_pattern: bad; config.timeout_ms: too big");
    expect(protoFieldNames("hooks[0].failBehavior: no")).toBe("hooks[0].fail_behavior: no");
    for (const text of [
      "x-a3s-client-id: expected an id",
      "hook myGuard failed: eventType was odd",
      "the hook server is closing",
    ]) {
      expect(protoFieldNames(text)).toBe(text);
    }
  });

  it("renames fields only in errors about a field", () => {
    const about = new HookError("INVALID_CONFIG", "RegisterHookRequest.hookId: bad", {
      path: ["RegisterHookRequest", "hookId"],
    });
    expect(toStatus(about).details).toBe("RegisterHookRequest.hook_id: bad");
    const other = new HookError("HANDLER_FAILED", "myTool: exploded");
    expect(toStatus(other).details).toBe("myTool: exploded");
  });
});
