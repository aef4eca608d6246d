/**
 * The WebSocket endpoint's close codes (RFC 6455's, and its own 44xx modelled on HTTP
 * statuses). `@a3s-lab/hooks-browser` reads the same table; a test keeps the two equal.
 */
export const WS_CLOSE_CODES = Object.freeze({
  /** Closed on purpose by either side. */
  normal: 1000,
  /** The hook server is shutting down. */
  goingAway: 1001,
  /** A binary frame: the protocol speaks JSON text frames only. */
  unsupportedData: 1003,
  /** The server failed while handling the connection. */
  internalError: 1011,
  /** The first frame was not a valid `Hello`, or its token or client id was refused. */
  unauthenticated: 4401,
  /** The page's `Origin` is not on the server's allow-list. */
  forbiddenOrigin: 4403,
  /** No `Hello` arrived within the server's deadline. */
  authTimeout: 4408,
  /** A newer connection of the same client id replaced this one. */
  replaced: 4409,
  /** A frame was larger than the server accepts. */
  frameTooLarge: 4413,
  /** The client sent frames faster than the server allows, or stopped reading. */
  rateLimited: 4429,
});
