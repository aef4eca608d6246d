import {
  allow,
  ask,
  block,
  HookEngine,
  type HookEventName,
  modify,
  validateEvent,
} from "@a3s-lab/hooks-core";
import { describe, expect, it, vi } from "vitest";
import { type Firing, onFiring } from "./firings.js";
import { demoPermissionStep, permissionReason } from "./permission-policy.js";
import { builtinTools } from "./tools/builtin-tools.js";

function setup() {
  const engine = new HookEngine({ auditLevel: "verbose" });
  const fired: Firing[] = [];
  onFiring(engine, (f) => fired.push(f));
  const names = () => fired.map((f) => f.event.eventType as HookEventName);
  return { engine, fired, names };
}

const call = {
  sessionId: "s1",
  tool: "Bash",
  args: { command: "make" },
  toolUseId: "t1",
  reason: permissionReason("Bash", { command: "make" }),
};

type Options = Parameters<typeof demoPermissionStep>[1];
const policy = (options?: Options) => demoPermissionStep(builtinTools, options);
const authorize = async (...args: Parameters<ReturnType<typeof policy>["authorize"]>) =>
  (await policy().authorize(...args)).args;

describe("the demo's permission policy", () => {
  it("lets read-only tools run without a request", async () => {
    const { engine, names } = setup();
    const args = await authorize(engine, { ...call, tool: "Read", args: { file_path: "a" } });
    expect(args).toEqual({ file_path: "a" });
    expect(names()).toEqual([]);
  });

  it("asks hooks first: allow grants, a block denies, with who decided", async () => {
    const { engine, fired, names } = setup();
    const handle = engine.register({ event: "PermissionRequest", handler: () => allow() });
    await policy().authorize(engine, call);
    expect(names()).toEqual(["PermissionRequest", "PermissionGranted"]);
    expect(fired[1]?.event).toMatchObject({ tool: "Bash", toolUseId: "t1", decidedBy: "hook" });
    handle.unregister();

    engine.register({ event: "PermissionRequest", handler: () => block("not today") });
    await expect(policy({ defaultAnswer: "allow" }).authorize(engine, call)).rejects.toMatchObject({
      code: "BLOCKED",
      message: "permission denied for Bash: not today",
    });
    expect(names().slice(2)).toEqual(["PermissionRequest", "PermissionDenied"]);
    expect(fired[3]?.event).toMatchObject({ decidedBy: "hook", reason: "not today" });
    for (const f of fired) expect(validateEvent(f.event).success).toBe(true);
  });

  it("falls back to the default answer, after a permission_prompt notice", async () => {
    const { engine, fired } = setup();
    const onQuestion = vi.fn(async () => {});
    await expect(policy().authorize(engine, { ...call, onQuestion })).rejects.toMatchObject({
      code: "BLOCKED",
    });
    expect(fired.at(-1)?.event).toMatchObject({
      eventType: "PermissionDenied",
      decidedBy: "default",
    });
    await policy({ defaultAnswer: "allow" }).authorize(engine, { ...call, onQuestion });
    expect(fired.at(-1)?.event).toMatchObject({
      eventType: "PermissionGranted",
      decidedBy: "default",
    });
    expect(onQuestion).toHaveBeenCalledTimes(2);
    expect(onQuestion.mock.calls[0]).toEqual([
      {
        sessionId: "s1",
        tool: "Bash",
        args: { command: "make" },
        reason: 'Bash wants to act on "make"',
        toolUseId: "t1",
      },
    ]);
  });

  it("puts open questions to the asker, and hook ask does not settle them", async () => {
    const { engine, fired } = setup();
    engine.register({ event: "PermissionRequest", handler: () => ask() });
    const asker = vi.fn().mockResolvedValueOnce("allow").mockResolvedValueOnce("deny");
    const step = policy({ defaultAnswer: asker });
    await step.authorize(engine, call);
    expect(fired.at(-1)?.event).toMatchObject({
      eventType: "PermissionGranted",
      decidedBy: "user",
    });
    await expect(step.authorize(engine, call)).rejects.toMatchObject({ code: "BLOCKED" });
    expect(fired.at(-1)?.event).toMatchObject({ eventType: "PermissionDenied", decidedBy: "user" });
  });

  it("runs with the arguments a PermissionRequest hook rewrote", async () => {
    const { engine } = setup();
    engine.register({
      event: "PermissionRequest",
      handler: () => modify({ args: { command: "make -n" } }, { permission: "allow" }),
    });
    expect(await authorize(engine, call)).toEqual({ command: "make -n" });
  });

  it("honours PreToolUse: allow skips the request, ask forces one for a read-only tool", async () => {
    const { engine, names } = setup();
    const pre = (permission: "allow" | "ask") => ({ permission }) as never;
    await policy().authorize(engine, { ...call, pre: pre("allow") });
    expect(names()).toEqual(["PermissionGranted"]);
    await expect(
      policy().authorize(engine, { ...call, tool: "Read", pre: pre("ask") }),
    ).rejects.toMatchObject({ code: "BLOCKED" });
    expect(names().slice(1)).toEqual(["PermissionRequest", "PermissionDenied"]);
  });

  it("refuses a bad default answer", () => {
    expect(() => policy({ defaultAnswer: "maybe" as never })).toThrow(/defaultAnswer/);
  });
});
