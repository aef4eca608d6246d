import { HookError } from "@a3s-lab/hooks-core";

/**
 * The WebSocket URL for an agent address. `host:port` becomes `ws://host:port/` (`wss://` when
 * the page itself came over https, so a secure page never opens a plaintext socket);
 * `ws://`, `wss://`, `http://` and `https://` URLs are taken as they are, with the http
 * schemes mapped to their WebSocket twins.
 *
 * @example
 * ```ts
 * webSocketUrl("127.0.0.1:16300"); // "ws://127.0.0.1:16300/"
 * webSocketUrl("https://agent.example"); // "wss://agent.example/"
 * ```
 */
export function webSocketUrl(address: string, pageProtocol = currentPageProtocol()): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(address)
    ? address
    : `${pageProtocol === "https:" ? "wss" : "ws"}://${address}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw invalid(address, "expected host:port or a ws:// or wss:// URL");
  }
  if (url.protocol === "http:") url.protocol = "ws:";
  else if (url.protocol === "https:") url.protocol = "wss:";
  if (url.protocol !== "ws:" && url.protocol !== "wss:") {
    throw invalid(address, `unsupported scheme ${url.protocol}; expected ws: or wss:`);
  }
  if (url.username || url.password) {
    // Credentials in a URL end up in logs and history; the token goes in the first frame.
    throw invalid(address, "credentials do not belong in the URL; pass options.token");
  }
  url.hash = "";
  return url.href;
}

function currentPageProtocol(): string | undefined {
  const location = (globalThis as { location?: { protocol?: unknown } }).location;
  return typeof location?.protocol === "string" ? location.protocol : undefined;
}

function invalid(address: string, why: string): HookError {
  return new HookError(
    "INVALID_CONFIG",
    `options.address: ${why}, got ${JSON.stringify(address)}`,
    {
      path: ["options", "address"],
    },
  );
}
