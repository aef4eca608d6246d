import { CONTINUE, HookError, type HookEvent, type HookResponse } from "@a3s-lab/hooks-core";
import { describeValue } from "@a3s-lab/hooks-core/internal";
import type { HookDialect } from "../../handlers/hook-dialect.js";
import type { HookOrigin } from "../hook-settings.js";
import type { HooksBlockContext, ParsedHooksBlock } from "../parse-hooks-block.js";
import {
  type FormatEvent,
  FormatReader,
  type HookFormat,
  isRecord,
  readAnswer,
  stringField,
} from "./hook-format.js";

interface CopilotEvent extends FormatEvent {
  /** True when Copilot reads the answer (only `preToolUse`); elsewhere output is ignored. */
  answers: boolean;
  input(event: HookEvent): Record<string, unknown>;
}

/** Our tool names and GitHub Copilot CLI's, for the built-in tools both have. */
const TOOL_NAMES: Readonly<Record<string, string>> = {
  Bash: "bash",
  Edit: "edit",
  Read: "view",
  Write: "create",
};

const copilotToolName = (tool: string): string =>
  Object.hasOwn(TOOL_NAMES, tool) ? TOOL_NAMES[tool]! : tool;

type Tool = { tool: string; args: Record<string, unknown> };

const toolFields = (e: HookEvent) => {
  const { tool, args } = e as unknown as Tool;
  // Copilot sends the arguments as a JSON string.
  return { toolName: copilotToolName(tool), toolArgs: JSON.stringify(args) };
};

/**
 * GitHub Copilot's hook events (its hooks configuration reference, for Copilot CLI and the
 * cloud agent). Every entry here is a row of docs/formats/copilot.md and has a test.
 */
export const COPILOT_EVENTS: Readonly<Record<string, CopilotEvent>> = {
  preToolUse: { event: "PreToolUse", answers: true, input: toolFields },
  postToolUse: {
    event: "PostToolUse",
    answers: false,
    input: (e) => {
      const { result } = e as unknown as { result: { output: string; success?: boolean } };
      return {
        ...toolFields(e),
        toolResult: {
          resultType: result.success === false ? "failure" : "success",
          textResultForLlm: result.output,
        },
      };
    },
  },
  userPromptSubmitted: {
    event: "UserPromptSubmit",
    answers: false,
    input: (e) => ({ prompt: (e as { prompt?: string }).prompt ?? "" }),
  },
  sessionStart: {
    event: "SessionStart",
    answers: false,
    input: (e) => ({ source: (e as { source?: string }).source ?? "new" }),
  },
  sessionEnd: {
    event: "SessionEnd",
    answers: false,
    input: (e) => ({ reason: (e as { reason?: string }).reason ?? "complete" }),
  },
};

const ENTRY_KEYS = new Set(["type", "bash", "powershell", "cwd", "env", "timeoutSec", "comment"]);

function readCopilotFile(doc: Record<string, unknown>, ctx: HooksBlockContext): ParsedHooksBlock {
  const reader = new FormatReader("copilot", ctx);
  reader.version(doc);
  for (const [name, spec, list] of reader.events(doc.hooks, COPILOT_EVENTS, "Copilot", "hooks")) {
    for (const [i, entry] of list.entries()) {
      const path = ["hooks", name, i];
      if (!isRecord(entry)) {
        reader.problem(
          "error",
          path,
          `expected a { type, bash } object, got ${describeValue(entry)}`,
        );
        continue;
      }
      if (entry.type !== "command") {
        reader.problem(
          "warning",
          [...path, "type"],
          `only "command" hooks run here, got ${describeValue(entry.type)} (this hook does not load)`,
        );
        continue;
      }
      reader.unknownFields(entry, path, ENTRY_KEYS);
      if (entry.bash === undefined && typeof entry.powershell === "string") {
        reader.problem(
          "warning",
          [...path, "powershell"],
          'this hook has only a "powershell" command; add a "bash" one to run it here (this hook does not load)',
        );
        continue;
      }
      const timeout = reader.timeout(entry, "timeoutSec", path, "seconds");
      if (timeout === false) continue;
      const env = entry.env;
      if (
        env !== undefined &&
        (!isRecord(env) || !Object.values(env).every((v) => typeof v === "string"))
      ) {
        reader.problem(
          "error",
          [...path, "env"],
          "expected an object of strings (this hook does not load)",
        );
        continue;
      }
      if (entry.cwd !== undefined && typeof entry.cwd !== "string") {
        reader.problem(
          "error",
          [...path, "cwd"],
          `expected a string, got ${describeValue(entry.cwd)} (this hook does not load)`,
        );
        continue;
      }
      reader.command(
        [...path],
        {
          command: entry.bash,
          // Copilot's default is 30 seconds, not ours.
          timeoutSeconds: typeof timeout === "number" ? timeout : 30,
          ...(typeof entry.cwd === "string" ? { cwd: entry.cwd } : {}),
          ...(env !== undefined ? { env: env as Record<string, string> } : {}),
        },
        { format: "copilot", event: name },
        spec,
      );
    }
  }
  return reader.out;
}

/** `preToolUse`'s answer: `permissionDecision` and `permissionDecisionReason`. */
function readPreToolUse(answer: Record<string, unknown>): HookResponse | HookError {
  const reason = stringField(answer, "permissionDecisionReason");
  if (HookError.is(reason)) return reason;
  const decision = answer.permissionDecision;
  if (decision === undefined) return CONTINUE;
  if (decision === "deny") return { action: "block", reason: reason || "denied by a Copilot hook" };
  if (decision === "allow" || decision === "ask") {
    return {
      action: "continue",
      permission: decision,
      ...(reason ? { permissionReason: reason } : {}),
    };
  }
  return new HookError(
    "INVALID_OUTPUT",
    `permissionDecision: expected "allow", "deny" or "ask", got ${describeValue(decision)}`,
  );
}

function copilotDialect(origin: HookOrigin): HookDialect {
  const spec = COPILOT_EVENTS[origin.event]!;
  return {
    input: (event, { cwd }) => ({ timestamp: event.timestamp, cwd, ...spec.input(event) }),
    read: (result, event, limits) => {
      // Copilot ignores what other hooks print; a failure is still a failure.
      const answer = readAnswer(result, event, limits, {
        agent: "GitHub Copilot",
        json: (json) => (spec.answers ? readPreToolUse(json) : CONTINUE),
      });
      return !spec.answers && !HookError.is(answer) ? CONTINUE : answer;
    },
  };
}

/** GitHub Copilot: every `*.json` in `.github/hooks/` of the project, and in `~/.copilot/hooks/`. */
export const copilotFormat: HookFormat = {
  name: "copilot",
  title: "GitHub Copilot",
  files: { project: [".github/hooks/*.json"], user: [".copilot/hooks/*.json"] },
  events: COPILOT_EVENTS,
  matchesPath: (path) => /(?:^|[\\/])\.(?:github|copilot)[\\/]hooks[\\/][^\\/]+\.json$/.test(path),
  read: readCopilotFile,
  dialect: copilotDialect,
};
