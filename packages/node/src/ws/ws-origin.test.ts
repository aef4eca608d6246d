import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { bracketed } from "../hub/connection-front.js";
import { normalizeOrigin, originCheck } from "./ws-origin.js";

const request = (origin?: string, host = "127.0.0.1:7000") =>
  ({ headers: { ...(origin !== undefined ? { origin } : {}), host } }) as IncomingMessage;

describe("originCheck", () => {
  it("by default allows the server's own pages under every loopback name, and no other page", () => {
    const allowed = originCheck(undefined, "127.0.0.1", [7000]);
    for (const origin of [
      "http://127.0.0.1:7000",
      "http://localhost:7000",
      "http://[::1]:7000",
      "HTTP://LOCALHOST:7000",
    ])
      expect(allowed(request(origin))).toBe(true);
    for (const origin of [
      "http://evil.example",
      "http://127.0.0.1:7001",
      "https://127.0.0.1:7000",
      "http://localhost.evil.example:7000",
      "null",
      "not an origin",
    ])
      expect(allowed(request(origin))).toBe(false);
  });

  it("lets programs through: they send no Origin (and must still present the token)", () => {
    expect(originCheck(undefined, "127.0.0.1", [7000])(request())).toBe(true);
    expect(originCheck(["https://app.example"], "127.0.0.1", [7000])(request())).toBe(true);
  });

  it("on a named host allows that name only", () => {
    const allowed = originCheck(undefined, "agent.internal", [7000]);
    expect(allowed(request("http://agent.internal:7000"))).toBe(true);
    expect(allowed(request("http://localhost:7000"))).toBe(false);
  });

  it("on every interface allows a page of the host the request was sent to, on a served port", () => {
    const allowed = originCheck(undefined, "0.0.0.0", [7000]);
    expect(allowed(request("http://10.0.0.5:7000", "10.0.0.5:7000"))).toBe(true);
    expect(allowed(request("http://evil.example", "10.0.0.5:7000"))).toBe(false);
    expect(allowed(request("http://10.0.0.5:8000", "10.0.0.5:8000"))).toBe(false);
  });

  it("follows an explicit list exactly, and * allows every page", () => {
    const allowed = originCheck(
      ["https://app.example", "http://localhost:3000/"],
      "127.0.0.1",
      [7000],
    );
    expect(allowed(request("https://app.example"))).toBe(true);
    expect(allowed(request("http://localhost:3000"))).toBe(true);
    expect(allowed(request("http://127.0.0.1:7000"))).toBe(false);
    expect(originCheck("*", "127.0.0.1", [7000])(request("http://anything.example"))).toBe(true);
  });

  it("refuses an allow-list entry that is not an origin, naming the option", () => {
    for (const bad of [
      "app.example",
      "https://app.example/path",
      "https://user@app.example",
      "ftp://",
    ]) {
      expect(() => normalizeOrigin(bad)).toThrow(/allowedOrigins/);
    }
  });
});

describe("bracketed", () => {
  it("puts an IPv6 address in brackets once, and leaves names and IPv4 as they are", () => {
    expect(bracketed("::1")).toBe("[::1]");
    expect(bracketed("[::1]")).toBe("[::1]");
    expect(bracketed("127.0.0.1")).toBe("127.0.0.1");
    expect(bracketed("localhost")).toBe("localhost");
  });
});
