import { spawn } from "node:child_process";
import { HOST_SECRET_VARIABLES } from "@a3s-lab/hooks-node";
import * as z from "zod";
import { AgentError } from "../agent-error.js";
import { defineTool } from "./tool.js";

/** Default and largest time a command may run, in milliseconds. */
export const BASH_DEFAULT_TIMEOUT = 30_000;
export const BASH_MAX_TIMEOUT = 600_000;
/** Output beyond this many bytes (stdout and stderr together) is dropped and noted. */
export const BASH_OUTPUT_LIMIT = 100_000;

/**
 * Credentials the agent holds that a command it runs for a model must not see: the host's
 * secrets, one list shared with the hooks (the hook server's token and the model keys).
 */
export const HIDDEN_VARIABLES: readonly string[] = [...HOST_SECRET_VARIABLES];

/** The variable that carries the session's env-file text into the shell. */
const ENV_PRELUDE = "A3S_SESSION_ENV_PRELUDE";

function commandEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of HIDDEN_VARIABLES) delete copy[name];
  // An env file the agent inherited belongs to another session.
  delete copy.CLAUDE_ENV_FILE;
  delete copy[ENV_PRELUDE];
  return copy;
}

export const bashInputSchema = z.strictObject({
  command: z
    .string()
    .min(1)
    .max(100_000)
    .refine((c) => !c.includes("\0"), "a command may not contain NUL bytes"),
  /** Milliseconds before the whole process group is killed. */
  timeout: z.number().int().positive().max(BASH_MAX_TIMEOUT).optional(),
  description: z.string().max(1000).optional(),
});

/**
 * Runs a shell command in the working directory with `/bin/sh -c`. The command runs in a
 * process group of its own, so a timeout or a cancel kills everything it started, background
 * children included.
 */
export const bashTool = defineTool({
  name: "Bash",
  description:
    "Run a shell command in the working directory. Returns stdout and stderr; a non-zero exit is a failure.",
  inputSchema: bashInputSchema,
  readOnly: false,
  run: async (input, ctx) => {
    // Just `cd DIR`: the session's shell moves there for the commands after it.
    const cd = /^\s*cd\s+([^\s;&|<>`$'"\\]+)\s*$/.exec(input.command);
    if (cd && ctx.changeCwd) return { output: `cwd: ${await ctx.changeCwd(cd[1]!)}` };
    let prelude = "";
    try {
      prelude = (await ctx.sessionEnv?.()) ?? "";
    } catch (error) {
      throw new AgentError("TOOL_FAILED", `Bash: ${(error as Error).message}`, { cause: error });
    }
    return new Promise((resolve, reject) => {
      const timeout = input.timeout ?? BASH_DEFAULT_TIMEOUT;
      if (ctx.signal?.aborted) {
        reject(new AgentError("ABORTED", "Bash: cancelled before it started"));
        return;
      }
      const env = commandEnv(process.env);
      // Claude Code sources CLAUDE_ENV_FILE before each command. The text checked here is what
      // runs (the shell never opens the file), handed over in a variable so the command's own
      // text is never joined to it.
      if (prelude !== "") env[ENV_PRELUDE] = prelude;
      const script =
        prelude === ""
          ? input.command
          : `eval "$${ENV_PRELUDE}"; unset ${ENV_PRELUDE}\n${input.command}`;
      const child = spawn("/bin/sh", ["-c", script], {
        cwd: ctx.cwd ?? ctx.workdir,
        env,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const collect = (chunk: Buffer) => {
        if (size >= BASH_OUTPUT_LIMIT) {
          truncated = true;
          return;
        }
        const room = BASH_OUTPUT_LIMIT - size;
        if (chunk.length > room) truncated = true;
        const kept = chunk.subarray(0, room);
        chunks.push(kept);
        size += kept.length;
      };
      child.stdout.on("data", collect);
      child.stderr.on("data", collect);

      let killedFor: "timeout" | "abort" | undefined;
      const killGroup = (why: "timeout" | "abort") => {
        killedFor ??= why;
        try {
          // A negative pid signals the whole group: the shell and whatever it started.
          if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
        } catch {
          // Already gone.
        }
        // A child that left the group on purpose (setsid) survives the kill and may hold the
        // pipes open for ever; stop reading them so the call answers now, not when it exits.
        child.stdout.destroy();
        child.stderr.destroy();
      };
      const timer = setTimeout(() => killGroup("timeout"), timeout);
      const onAbort = () => killGroup("abort");
      ctx.signal?.addEventListener("abort", onAbort, { once: true });

      // Nothing outlives the command: background jobs it left would hold the pipes open.
      child.on("exit", () => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
        } catch {
          // The group is already empty.
        }
      });
      child.on("error", (error) => {
        clearTimeout(timer);
        ctx.signal?.removeEventListener("abort", onAbort);
        reject(
          new AgentError("TOOL_FAILED", `Bash: could not start: ${error.message}`, {
            cause: error,
          }),
        );
      });
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        ctx.signal?.removeEventListener("abort", onAbort);
        let output = Buffer.concat(chunks).toString("utf8");
        if (truncated) output += `\n[output truncated at ${BASH_OUTPUT_LIMIT} bytes]`;
        if (killedFor === "timeout") {
          reject(
            new AgentError("TIMEOUT", `Bash: killed after ${timeout} ms: ${input.command}`, {
              path: ["args", "timeout"],
            }),
          );
          return;
        }
        if (killedFor === "abort") {
          reject(new AgentError("ABORTED", "Bash: cancelled"));
          return;
        }
        const exitCode = code ?? (signal ? 128 : 1);
        resolve({ output, exitCode, success: exitCode === 0 });
      });
    });
  },
});
