import { describe, expect, it } from "vitest";
import { checkPlaintextHost, isLoopbackHost } from "./loopback.js";

describe("isLoopbackHost", () => {
  it("is true for localhost, 127.0.0.0/8 and ::1, bracketed or not", () => {
    for (const host of ["localhost", "LOCALHOST", "127.0.0.1", "127.255.0.9", "::1", "[::1]"]) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
  });

  it("is false for every other machine and for look-alikes", () => {
    for (const host of [
      "",
      "10.0.0.1",
      "128.0.0.1",
      "0.0.0.0",
      "::",
      "[::]",
      "127.0.0.256",
      "127.0.0.1.evil.example",
      "localhost.evil.example",
      "evil-localhost",
      "::ffff:127.0.0.1",
      "agent.example",
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});

describe("checkPlaintextHost", () => {
  it("lets plaintext reach this machine", () => {
    expect(() => checkPlaintextHost("127.0.0.1", {}, "use TLS")).not.toThrow();
  });

  it("refuses plaintext to another machine, naming the address and both ways out", () => {
    expect(() => checkPlaintextHost("agent.example", {}, "use a wss:// address")).toThrow(
      expect.objectContaining({
        code: "INVALID_CONFIG",
        path: ["options", "address"],
        message: expect.stringMatching(
          /agent\.example is not this machine.*use a wss:\/\/ address.*allowPlaintextRemote: true/,
        ),
      }),
    );
  });

  it("lets plaintext reach another machine when the caller opted in", () => {
    expect(() =>
      checkPlaintextHost("agent.example", { allowPlaintextRemote: true }, "use TLS"),
    ).not.toThrow();
  });
});
