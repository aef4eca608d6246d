import { WS_CLOSE_CODES } from "@a3s-lab/hooks-core/wire";
import { describe, expect, it } from "vitest";
import { closeError, toHookErrorCode } from "./close-error.js";

describe("closeError", () => {
  it("reads each close code of the endpoint as the HookError code a caller can act on", () => {
    const cases: [number, string][] = [
      [WS_CLOSE_CODES.normal, "UNAVAILABLE"],
      [WS_CLOSE_CODES.goingAway, "UNAVAILABLE"],
      [1006, "UNAVAILABLE"],
      [WS_CLOSE_CODES.unsupportedData, "INVALID_OUTPUT"],
      [WS_CLOSE_CODES.internalError, "INTERNAL"],
      [WS_CLOSE_CODES.unauthenticated, "UNAUTHENTICATED"],
      [WS_CLOSE_CODES.forbiddenOrigin, "PERMISSION_DENIED"],
      [WS_CLOSE_CODES.authTimeout, "TIMEOUT"],
      [WS_CLOSE_CODES.replaced, "ABORTED"],
      [WS_CLOSE_CODES.frameTooLarge, "LIMIT_EXCEEDED"],
      [WS_CLOSE_CODES.rateLimited, "LIMIT_EXCEEDED"],
      [1009, "LIMIT_EXCEEDED"],
    ];
    for (const [close, code] of cases) {
      const error = closeError(close, "");
      expect(error.code, `close code ${close}`).toBe(code);
      expect(error.details).toEqual({ closeCode: close });
    }
    expect(closeError(1006, "").message).toContain("close code 1006");
    expect(closeError(4403, "origin x is not allowed").message).toBe("origin x is not allowed");
  });

  it("prefers the server's Error frame: the exact code and the whole message", () => {
    const long = "x".repeat(500);
    const error = closeError(WS_CLOSE_CODES.rateLimited, "cut…", {
      code: "LIMIT_EXCEEDED",
      message: long,
      path: ["frame"],
    });
    expect(error).toMatchObject({ code: "LIMIT_EXCEEDED", message: long, path: ["frame"] });
    expect(closeError(4401, "", { code: "NEW_CODE", message: "?" }).code).toBe("INTERNAL");
  });

  it("reads an older agent's INVALID_REGISTRATION as INVALID_CONFIG, an unknown code as INTERNAL", () => {
    expect(toHookErrorCode("INVALID_REGISTRATION")).toBe("INVALID_CONFIG");
    expect(toHookErrorCode("INVALID_CONFIG")).toBe("INVALID_CONFIG");
    expect(toHookErrorCode("NO_SUCH_CODE")).toBe("INTERNAL");
  });
});
