import { HookError } from "@a3s-lab/hooks-core";
import { Metadata, status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { fromStatus, grpcStatusOf, toStatus } from "./grpc-status.js";

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
});
