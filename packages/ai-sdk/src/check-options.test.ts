import { HookEngine, HookError } from "@a3s-lab/hooks-core";
import { describe, expect, it } from "vitest";
import { HookSession } from "./hook-session.js";
import { hooksMiddleware } from "./hooks-middleware.js";
import { withHooks } from "./with-hooks.js";

const engine = new HookEngine();
const entryPoints = {
  withHooks: (options: unknown) => withHooks({}, engine, options as never),
  hooksMiddleware: (options: unknown) => hooksMiddleware(engine, options as never),
  HookSession: (options: unknown) => new HookSession(engine, options as never),
};

function refusal(make: () => unknown): HookError {
  try {
    make();
  } catch (error) {
    if (error instanceof HookError) return error;
    throw error;
  }
  throw new Error("accepted");
}

describe.each(Object.entries(entryPoints))("%s options", (_, make) => {
  it.each([
    [undefined, "options", "options: expected an object"],
    [{}, "options.sessionId", "options.sessionId: expected a string"],
    [{ sessionId: 7 }, "options.sessionId", "options.sessionId: expected a string"],
    [{ sessionId: "s", metadata: [] }, "options.metadata", "options.metadata: expected an object"],
  ])("refuses %j naming %s", (options, path, message) => {
    const error = refusal(() => make(options));
    expect(error.code).toBe("INVALID_CONFIG");
    expect(error.path.join(".")).toBe(path);
    expect(error.message).toBe(message);
  });
});

it.each([
  [{ requirePermission: "yes" }, "options.requirePermission"],
  [{ ask: "allow" }, "options.ask"],
  [{ maxRetries: -1 }, "options.maxRetries"],
  [{ maxRetries: 1.5 }, "options.maxRetries"],
])("withHooks refuses %j naming %s", (extra, path) => {
  expect(refusal(() => entryPoints.withHooks({ sessionId: "s", ...extra })).path.join(".")).toBe(
    path,
  );
});

it("HookSession refuses a maxContinuations that is not a count", () => {
  const error = refusal(() => entryPoints.HookSession({ sessionId: "s", maxContinuations: -1 }));
  expect(error.message).toBe("options.maxContinuations: expected a non-negative integer");
});
