import { describe, expect, it } from "vitest";
import { webSocketUrl } from "./websocket-url.js";

describe("webSocketUrl", () => {
  it("makes ws:// URLs of host:port, and wss:// when the page itself came over https", () => {
    expect(webSocketUrl("127.0.0.1:16300", undefined)).toBe("ws://127.0.0.1:16300/");
    expect(webSocketUrl("[::1]:16300", "http:")).toBe("ws://[::1]:16300/");
    expect(webSocketUrl("agent.example:443", "https:")).toBe("wss://agent.example/");
  });

  it("keeps ws and wss URLs, maps http and https to them, and drops a fragment", () => {
    expect(webSocketUrl("wss://agent.example/hooks", "http:")).toBe("wss://agent.example/hooks");
    expect(webSocketUrl("http://127.0.0.1:7000", undefined)).toBe("ws://127.0.0.1:7000/");
    expect(webSocketUrl("https://agent.example#token=x", undefined)).toBe("wss://agent.example/");
  });

  it("refuses other schemes, garbage and credentials in the URL, naming the option", () => {
    for (const [address, says] of [
      ["ftp://agent.example", "unsupported scheme ftp:"],
      ["ws://", "expected host:port"],
      ["ws://user:pw@agent.example", "credentials do not belong in the URL"],
    ] as const) {
      expect(() => webSocketUrl(address, undefined)).toThrow(says);
      expect(() => webSocketUrl(address, undefined)).toThrow("options.address");
    }
  });
});
