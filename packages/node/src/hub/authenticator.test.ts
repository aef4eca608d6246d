import { describe, expect, it } from "vitest";
import { createAuthenticator } from "./authenticator.js";

describe("createAuthenticator", () => {
  const check = createAuthenticator("s3cret");

  it("accepts the token as a Bearer value (any case, any spacing) and returns the client id", () => {
    expect(check({ authorization: "Bearer s3cret", clientId: "ide-1" })).toBe("ide-1");
    expect(check({ authorization: "  bearer   s3cret ", clientId: "ide-1" })).toBe("ide-1");
    // Message transports send the bare token.
    expect(check({ authorization: "s3cret", clientId: "ide-1" })).toBe("ide-1");
  });

  it("refuses a missing, wrong, longer or shorter token as UNAUTHENTICATED", () => {
    for (const authorization of [
      undefined,
      "",
      "Bearer",
      "Bearer s3cre",
      "Bearer s3cret!",
      "Basic czNjcmV0",
      "x".repeat(100_000),
    ]) {
      expect(() => check({ authorization, clientId: "c" })).toThrow(
        expect.objectContaining({ code: "UNAUTHENTICATED" }),
      );
    }
    expect(() => check({ authorization: undefined, clientId: "c" })).toThrow(
      "a Bearer token is required",
    );
    expect(() => check({ authorization: "Bearer nope", clientId: "c" })).toThrow(
      "the token is not valid",
    );
  });

  it("requires a client id in the protocol's charset", () => {
    expect(() => check({ authorization: "Bearer s3cret", clientId: undefined })).toThrow(
      "x-a3s-client-id: a client id is required",
    );
    expect(() => check({ authorization: "Bearer s3cret", clientId: "../../etc" })).toThrow(
      "x-a3s-client-id: expected 1 to 100",
    );
  });

  it("accepts anyone (with a client id) when built without a token", () => {
    expect(createAuthenticator(undefined)({ authorization: undefined, clientId: "c" })).toBe("c");
  });
});
