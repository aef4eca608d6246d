/**
 * Random hostile answers through both real transports: each run starts a hook server on
 * 127.0.0.1 with one raw gRPC client and one raw WebSocket client (no SDK bounds anything), each
 * with a fail-closed PreToolUse hook, and answers a firing with a generated answer: `modified`
 * nested around the 64-level limit, `__proto__` / `constructor` / `prototype` keys, text near
 * the field and message limits, wrong types (WebSocket only: gRPC's encoder refuses them). For
 * every answer `engine.fire()` resolves; a well-formed block is that block; an answer that
 * breaks a rule blocks (the hook's fail behaviour), for a reason other than a timeout.
 */
import { createEvent, type HookResult } from "@a3s-lab/hooks-core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { useHookServers } from "../remote/hook-server-fixture.js";
import { rawGrpcHook, rawWsHook } from "../remote/raw-hook-clients.js";

const TOKEN = "hostile-answers-token";
const RUNS = 30;
const { serve, cleanup } = useHookServers(TOKEN);

/** An answer as fields of JSON text, so a frame can hold what no object literal can. */
interface Answer {
  kind: "block" | "bad" | "any";
  action?: string;
  reason?: string;
  systemMessage?: string;
  additionalContext?: string;
  /** JSON text of `modified`. */
  modified?: string;
  /** Extra raw `"key":value` members, wrong types among them (WebSocket only). */
  raw?: string[];
}

const FORBIDDEN = ["__proto__", "constructor", "prototype"] as const;

/** `levels` containers, arrays or objects, one inside the other, around `inner`. */
const nested = (levels: number, inner: string, arrays: boolean) =>
  arrays
    ? `${"[".repeat(levels)}${inner}${"]".repeat(levels)}`
    : `${'{"a":'.repeat(levels)}${inner}${"}".repeat(levels)}`;

/** `min` to `max` characters (code points, as the wire's limits count), 1 to 4 bytes each. */
const longText = (min: number, max: number) =>
  fc.tuple(fc.integer({ min, max }), fc.constantFrom("x", "é", "😀")).map(([n, c]) => c.repeat(n));
const shortText = fc.string({ minLength: 1, maxLength: 40 });
const reasonText = fc.oneof(shortText, longText(60_000, 65_536));

/** A block the protocol accepts: its reason must come back as it was sent. */
const wellFormedBlock: fc.Arbitrary<Answer> = fc
  .record(
    { reason: reasonText, systemMessage: fc.oneof(shortText, longText(1, 65_536)) },
    { requiredKeys: ["reason"] },
  )
  .map((r) => ({ kind: "block", action: "block", ...r }));

/** `modified` (a patch of args) whose depth passes 64 levels. */
const tooDeep = fc
  .tuple(fc.integer({ min: 65, max: 400 }), fc.boolean())
  .map(([levels, arrays]) => `{"args":{"x":${nested(levels - 2, "1", arrays)}}}`);

/** `modified` with a key that could reach a prototype, somewhere inside. */
const prototypeKey = fc
  .tuple(fc.constantFrom(...FORBIDDEN), fc.integer({ min: 0, max: 30 }))
  .map(([key, depth]) => `{"args":${nested(depth, `{"${key}":{"polluted":true}}`, false)}}`);

const wrongType = fc.constantFrom(
  '"action":42',
  '"action":"explode"',
  '"action":["block"]',
  '"action":"block","reason":42',
  '"action":"block","reason":{"text":"no"}',
  '"action":"continue","modified":[1,2]',
  '"action":"continue","modified":"args"',
  '"action":"continue","modified":7',
  '"action":"continue","permission":"deny"',
  '"action":"retry","retryDelayMs":-5',
  '"action":"retry","retryDelayMs":"soon"',
  '"action":"continue","suppressOutput":"yes"',
);

/** Answers that break a rule: a fail-closed hook must block. */
const bad: fc.Arbitrary<Answer> = fc.oneof(
  tooDeep.map((modified) => ({ kind: "bad" as const, action: "continue", modified })),
  prototypeKey.map((modified) => ({ kind: "bad" as const, action: "continue", modified })),
  fc.constant<Answer>({ kind: "bad", action: "block" }),
  fc.constant<Answer>({ kind: "bad", action: "block", reason: "" }),
  shortText.map((reason) => ({
    kind: "bad" as const,
    action: "block",
    reason,
    modified: '{"args":{"command":"ls"}}',
  })),
  // Past the field limit, and past the message limit (which ends the client's stream).
  longText(65_537, 200_000).map((reason) => ({ kind: "bad" as const, action: "block", reason })),
  longText(4_300_000, 5_000_000).map((reason) => ({
    kind: "bad" as const,
    action: "block",
    reason,
  })),
  wrongType.map((member) => ({ kind: "bad" as const, raw: [member] })),
);

/** Around the limits, without a verdict known in advance: only `fire()` resolving is checked. */
const any: fc.Arbitrary<Answer> = fc.oneof(
  fc.tuple(fc.integer({ min: 50, max: 80 }), fc.boolean()).map(([levels, arrays]) => ({
    kind: "any" as const,
    action: "continue",
    modified: `{"args":{"x":${nested(levels - 2, "1", arrays)}}}`,
  })),
  longText(3_900_000, 4_300_000).map((text) => ({
    kind: "any" as const,
    action: "continue",
    modified: JSON.stringify({ args: { command: text } }),
  })),
  longText(900_000, 1_100_000).map((additionalContext) => ({
    kind: "any" as const,
    action: "continue",
    additionalContext,
  })),
);

const wsFrame = (answer: Answer, eventId: string) => {
  const members = [`"type":"HookResponse"`, `"hookId":"h"`, `"eventId":${JSON.stringify(eventId)}`];
  for (const field of ["action", "reason", "systemMessage", "additionalContext"] as const) {
    if (answer[field] !== undefined) members.push(`"${field}":${JSON.stringify(answer[field])}`);
  }
  if (answer.modified !== undefined) members.push(`"modified":${answer.modified}`);
  members.push(...(answer.raw ?? []));
  return `{${members.join(",")}}`;
};

const grpcMessage = (answer: Answer, eventId: string): object => ({
  hookId: "h",
  eventId,
  ...(answer.action ? { action: answer.action.toUpperCase() } : {}),
  ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
  ...(answer.systemMessage !== undefined ? { systemMessage: answer.systemMessage } : {}),
  ...(answer.additionalContext !== undefined
    ? { additionalContext: answer.additionalContext }
    : {}),
  ...(answer.modified !== undefined ? { modified: Buffer.from(answer.modified) } : {}),
});

function check(answer: Answer, result: HookResult, transport: string): void {
  const outcome = result.outcomes[0];
  const where = `${transport}, ${answer.kind} answer`;
  expect(outcome, where).toBeDefined();
  if (answer.kind === "block") {
    expect(result.action, where).toBe("block");
    expect(outcome!.error, where).toBeUndefined();
    expect(result.reason === answer.reason, `${where}: the reason as sent`).toBe(true);
  } else if (answer.kind === "bad") {
    expect(result.action, where).toBe("block");
    expect(outcome!.error, where).toBeDefined();
    expect(outcome!.error!.code, `${where}: refused, not left to time out`).not.toBe("TIMEOUT");
  } else {
    expect(["continue", "block"], where).toContain(result.action);
  }
}

describe("random hostile answers through gRPC and WebSocket", () => {
  it(`fire() always resolves; a well-formed block blocks, a bad answer to a fail-closed hook blocks (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(wellFormedBlock, bad, any), async (answer) => {
        const { engine, server } = await serve();
        const options = { token: TOKEN, cleanup, failBehavior: "block" } as const;
        // gRPC's encoder refuses wrong types on the client side: those go over WebSocket only.
        const overGrpc = answer.raw === undefined;
        if (overGrpc) {
          await rawGrpcHook(
            server.address,
            { ...options, clientId: "grpc", tool: "ViaGrpc" },
            (id) => grpcMessage(answer, id),
          );
        }
        await rawWsHook(server.webSocketUrl!, { ...options, clientId: "ws", tool: "ViaWs" }, (id) =>
          wsFrame(answer, id),
        );
        for (const [tool, transport] of [
          ["ViaGrpc", "gRPC"],
          ["ViaWs", "WebSocket"],
        ] as const) {
          if (tool === "ViaGrpc" && !overGrpc) continue;
          const event = createEvent("PreToolUse", {
            sessionId: "s",
            tool,
            args: { command: "ls" },
          });
          check(answer, await engine.fire(event), transport);
        }
        for (const fn of cleanup.splice(0).reverse()) await fn();
      }),
      { numRuns: RUNS },
    );
  });
});
