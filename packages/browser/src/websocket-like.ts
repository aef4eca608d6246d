/**
 * The part of the WebSocket API the transport uses: the browser's `WebSocket` and the `ws`
 * package's both fit, so the one transport serves pages and Node processes alike without
 * depending on DOM types.
 */
export interface WebSocketLike {
  /** `0` connecting, `1` open, `2` closing, `3` closed, as on `WebSocket`. */
  readonly readyState: number;
  /** The subprotocol the server chose. */
  readonly protocol: string;
  /** Send one text frame. */
  send(data: string): void;
  /** Close the connection, with a close code and reason if given. */
  close(code?: number, reason?: string): void;
  /** Listen for `open`, `message`, `close` or `error`, as on `WebSocket`. */
  addEventListener(type: "open", listener: () => void): void;
  /** `message`: `event.data` is the frame's text. */
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  /** `close`: the close code and reason the connection ended with. */
  addEventListener(
    type: "close",
    listener: (event: { code: number; reason: string; wasClean?: boolean }) => void,
  ): void;
  /** `error`: the connection failed; a `close` follows. */
  addEventListener(type: "error", listener: (event: unknown) => void): void;
}

/** `new WebSocket(url, protocols)`: the browser's global, or `ws`'s class in Node. */
export type WebSocketConstructor = new (
  url: string,
  protocols?: string | string[],
) => WebSocketLike;

/** `WebSocket.OPEN`: the same number everywhere. */
export const OPEN = 1;
