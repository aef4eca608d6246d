import { HookError, type ValidationResult } from "@a3s-lab/hooks-core";
import {
  parseWireMessage,
  type WireMessageMap,
  type WireMessageType,
} from "@a3s-lab/hooks-core/wire";

/**
 * Converts between the objects `@grpc/proto-loader` produces (lowerCamelCase, enums as their
 * proto names, `bytes` as Buffers) and core's wire form (enums as API words, JSON `bytes` as
 * objects). One table describes every field that differs; everything else passes through.
 */

type Enum = {
  kind: "enum";
  /** Proto name → wire word. */
  toWire: ReadonlyMap<string, string>;
  /** Wire word → proto name. */
  toProto: ReadonlyMap<unknown, string>;
};
type Field =
  | { kind: "json" }
  | Enum
  | { kind: "message"; type: string }
  | { kind: "repeated"; type: string };

const json: Field = { kind: "json" };
const enumOf = (toWire: Record<string, string>): Field => ({
  kind: "enum",
  toWire: new Map(Object.entries(toWire)),
  toProto: new Map(Object.entries(toWire).map(([name, word]) => [word, name])),
});
const message = (type: string): Field => ({ kind: "message", type });

const FIELDS: ReadonlyMap<string, ReadonlyMap<string, Field>> = new Map(
  Object.entries({
    RegisterHookRequest: { matcher: message("HookMatcher"), config: message("HookConfig") },
    HookConfig: {
      failBehavior: enumOf({ FAIL_BEHAVIOR_CONTINUE: "continue", FAIL_BEHAVIOR_BLOCK: "block" }),
    },
    HookEvent: { payload: json },
    HookResponse: {
      action: enumOf({
        CONTINUE: "continue",
        BLOCK: "block",
        RETRY: "retry",
        SKIP: "skip",
        RESPOND: "respond",
        DEFER: "defer",
      }),
      modified: json,
      permission: enumOf({ PERMISSION_ALLOW: "allow", PERMISSION_ASK: "ask" }),
    },
    HookInfo: {
      matcher: message("HookMatcher"),
      config: message("HookConfig"),
      counters: message("HookCounters"),
    },
    ListHooksResponse: { hooks: { kind: "repeated", type: "HookInfo" } },
    CreateSessionRequest: { metadata: json },
    GenerateEvent: { progress: message("GenerateProgress"), result: message("GenerateResult") },
    GenerateProgress: { data: json },
    GenerateResult: { usage: message("TokenUsage") },
    ExecuteToolRequest: { args: json },
  }).map(([type, fields]) => [type, new Map(Object.entries(fields as Record<string, Field>))]),
);
const NO_FIELDS: ReadonlyMap<string, Field> = new Map();

// proto3 decodes an absent enum as its zero value; on the wire form that is "not given".
const ZERO_ENUMS = new Set(["FAIL_BEHAVIOR_UNSPECIFIED", "PERMISSION_UNSPECIFIED"]);

/** JSON in a `bytes` field, read in place (no copy of the bytes). */
function parseJsonBytes(bytes: Uint8Array): unknown {
  const buffer = Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return JSON.parse(buffer.toString("utf8"));
}

// Maps, not objects, for the tables: a key such as "constructor" must not find Object's.
// Paths are built only for an error: this runs for every message on the hook stream.
function fromProtoValue(type: string, value: unknown, path: () => string): unknown {
  if (value === null || typeof value !== "object") return value;
  const fields = FIELDS.get(type) ?? NO_FIELDS;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const raw = source[key];
    const field = fields.get(key);
    if (field === undefined) out[key] = raw;
    else if (field.kind === "json") {
      const bytes = raw as Uint8Array;
      if (bytes.length === 0) continue;
      try {
        out[key] = parseJsonBytes(bytes);
      } catch (error) {
        const where = `${path()}.${key}`;
        throw new HookError(
          "INVALID_OUTPUT",
          `${where}: not valid UTF-8 JSON (${(error as Error).message})`,
          { path: where.split(".") },
        );
      }
    } else if (field.kind === "enum") {
      if (ZERO_ENUMS.has(raw as string)) continue;
      // An enum number this build does not know decodes as a number; keep it so the schema names it.
      out[key] = field.toWire.get(raw as string) ?? raw;
    } else if (field.kind === "message") {
      out[key] = fromProtoValue(field.type, raw, () => `${path()}.${key}`);
    } else {
      out[key] = (raw as unknown[]).map((item, i) =>
        fromProtoValue(field.type, item, () => `${path()}.${key}[${i}]`),
      );
    }
  }
  return out;
}

function toProtoValue(type: string, value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  const fields = FIELDS.get(type) ?? NO_FIELDS;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const raw = source[key];
    if (raw === undefined) continue;
    const field = fields.get(key);
    if (field === undefined) out[key] = raw;
    else if (field.kind === "json")
      out[key] = raw instanceof Uint8Array ? raw : Buffer.from(JSON.stringify(raw), "utf8");
    else if (field.kind === "enum") out[key] = field.toProto.get(raw) ?? raw;
    else if (field.kind === "message") out[key] = toProtoValue(field.type, raw);
    else out[key] = (raw as unknown[]).map((item) => toProtoValue(field.type, item));
  }
  return out;
}

/**
 * A decoded protobuf object → the wire form, unchecked (for a caller that validates itself).
 * Throws an `INVALID_OUTPUT` HookError for a JSON field that does not parse.
 */
export function convertFromProto(type: WireMessageType, value: unknown): unknown {
  return fromProtoValue(type, value, () => type);
}

/**
 * A decoded protobuf object → a checked wire message. Never throws: a field that is not JSON,
 * or a value outside the message's schema, comes back as an `INVALID_OUTPUT` error naming it.
 */
export function fromProto<K extends WireMessageType>(
  type: K,
  value: unknown,
): ValidationResult<WireMessageMap[K]> {
  let plain: unknown;
  try {
    plain = fromProtoValue(type, value, () => type);
  } catch (error) {
    return { success: false, error: HookError.from(error) };
  }
  return parseWireMessage(type, plain);
}

/** A wire message → the object `@grpc/proto-loader` serialises. */
export function toProto<K extends WireMessageType>(type: K, value: WireMessageMap[K]): object {
  // The hook server sends every firing with its payload already encoded: such a HookEvent is
  // in protobuf form as it is (the encoder skips absent fields), so it is not copied.
  if (type === "HookEvent") {
    const payload: unknown = (value as WireMessageMap["HookEvent"]).payload;
    if (payload === undefined || payload instanceof Uint8Array) return value as object;
  }
  return toProtoValue(type, value) as object;
}
