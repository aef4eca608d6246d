import { HookError, type HookErrorCode } from "@a3s-lab/hooks-core";
import { WIRE_HEADERS } from "@a3s-lab/hooks-core/wire";
import { Metadata, type ServiceError, type StatusObject, status } from "@grpc/grpc-js";

const STATUS_OF: Partial<Record<HookErrorCode, status>> = {
  INVALID_CONFIG: status.INVALID_ARGUMENT,
  UNKNOWN_EVENT: status.INVALID_ARGUMENT,
  INVALID_EVENT: status.INVALID_ARGUMENT,
  INVALID_OUTPUT: status.INVALID_ARGUMENT,
  INVALID_MODIFICATION: status.INVALID_ARGUMENT,
  INVALID_PATTERN: status.INVALID_ARGUMENT,
  TEMPLATE_ERROR: status.INVALID_ARGUMENT,
  LIMIT_EXCEEDED: status.RESOURCE_EXHAUSTED,
  BLOCKED: status.FAILED_PRECONDITION,
  RETRY_EXHAUSTED: status.FAILED_PRECONDITION,
  TIMEOUT: status.DEADLINE_EXCEEDED,
  ABORTED: status.CANCELLED,
  NOT_FOUND: status.NOT_FOUND,
  UNAUTHENTICATED: status.UNAUTHENTICATED,
  PERMISSION_DENIED: status.PERMISSION_DENIED,
  UNAVAILABLE: status.UNAVAILABLE,
  FAILED_PRECONDITION: status.FAILED_PRECONDITION,
};

const CODE_OF: Partial<Record<status, HookErrorCode>> = {
  [status.INVALID_ARGUMENT]: "INVALID_CONFIG",
  [status.RESOURCE_EXHAUSTED]: "LIMIT_EXCEEDED",
  [status.FAILED_PRECONDITION]: "BLOCKED",
  [status.DEADLINE_EXCEEDED]: "TIMEOUT",
  [status.CANCELLED]: "ABORTED",
  [status.NOT_FOUND]: "NOT_FOUND",
  [status.ALREADY_EXISTS]: "INVALID_CONFIG",
  [status.UNAUTHENTICATED]: "UNAUTHENTICATED",
  [status.PERMISSION_DENIED]: "PERMISSION_DENIED",
  [status.UNAVAILABLE]: "UNAVAILABLE",
  // The agent does not serve that method (no AgentService implementation).
  [status.UNIMPLEMENTED]: "UNAVAILABLE",
};

const KNOWN_CODES = new Set<string>([...Object.keys(STATUS_OF), "HANDLER_FAILED", "INTERNAL"]);

/** The gRPC status for a HookError code (`LIMIT_EXCEEDED` → `RESOURCE_EXHAUSTED`, …). */
export function grpcStatusOf(code: HookErrorCode): status {
  return STATUS_OF[code] ?? status.INTERNAL;
}

// A field path that starts a message or one of its "; "-joined issues: `Request.eventType: …`.
const FIELD_PATH = /(^|; )([A-Za-z]\w*(?:\.[A-Za-z]\w*|\[\d+\])*)(?=: )/g;

/**
 * A message about request fields with the fields as hooks.proto spells them
 * (`RegisterHookRequest.event_type`, `matcher.path_pattern`) instead of their JSON names, so a
 * gRPC client in any language reads the names it sent. Message names (capitalised) stay.
 */
export function protoFieldNames(message: string): string {
  return message.replace(FIELD_PATH, (_, start: string, path: string) => {
    const proto = path.replace(
      /(^|\.)([a-z]\w*)/g,
      (_s, dot: string, field: string) =>
        dot + field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
    );
    return start + proto;
  });
}

/**
 * A HookError as a gRPC status, with the exact code in the `x-a3s-error-code` trailer. An
 * error about a request field names it as hooks.proto does.
 */
export function toStatus(error: unknown): Partial<StatusObject> {
  const e = HookError.from(error);
  const metadata = new Metadata();
  metadata.set(WIRE_HEADERS.errorCode, e.code);
  const details = e.path?.length ? protoFieldNames(e.message) : e.message;
  return { code: grpcStatusOf(e.code), details, metadata };
}

// grpc-js's words when no channel could be made: "No connection established. Last error:
// Error: connect ECONNREFUSED 127.0.0.1:9. Resolution note: " (the note often empty).
const NO_CONNECTION =
  /^No connection established\. Last error: (?:Error: )?(.*?)\.?(?: Resolution note: ?(.*))?$/s;
const REFUSED = /\bconnect ECONNREFUSED (\S+)/;

/**
 * grpc-js's "no connection" details in plain words: `connection refused by 127.0.0.1:9` (with
 * `connectionRefused: true` in the error's details, so a client can stop waiting), or the last
 * error and the resolver's note when it has one.
 */
function channelFailure(details: string): { message: string; refused: boolean } | undefined {
  const match = NO_CONNECTION.exec(details);
  if (!match) return undefined;
  const last = (match[1] ?? "").trim();
  const refused = REFUSED.exec(last);
  if (refused) return { message: `connection refused by ${refused[1]}`, refused: true };
  const note = (match[2] ?? "").trim();
  return { message: note ? `${last} (${note})` : last, refused: false };
}

/** A failed call's status as a HookError: the trailer's code when present, else by status. */
export function fromStatus(error: Partial<ServiceError> & { code?: number }): HookError {
  const trailer = error.metadata?.get(WIRE_HEADERS.errorCode)[0];
  const byTrailer = typeof trailer === "string" && KNOWN_CODES.has(trailer) ? trailer : undefined;
  const code: HookErrorCode =
    (byTrailer as HookErrorCode | undefined) ?? CODE_OF[error.code as status] ?? "INTERNAL";
  const raw = error.details || error.message || `gRPC status ${error.code}`;
  const failure = error.code === status.UNAVAILABLE ? channelFailure(raw) : undefined;
  return new HookError(code, failure?.message || raw, {
    cause: error,
    details: {
      grpcStatus: status[error.code as status] ?? error.code,
      ...(failure?.refused ? { connectionRefused: true } : {}),
    },
  });
}
