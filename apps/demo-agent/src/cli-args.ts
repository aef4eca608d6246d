import { parseArgs } from "node:util";
import { AgentError } from "./agent-error.js";

export type CommandName = "run" | "chat" | "serve" | "resume";

/** The command line, parsed and checked. */
export interface CliArgs {
  command: CommandName;
  help: boolean;
  debug: boolean;
  color: boolean | undefined;
  audit?: string;
  events?: string;
  settings: string[];
  workdir?: string;
  keep: boolean;
  model?: string;
  permission?: "allow" | "deny" | "ask";
  host: string;
  port: number;
  token?: string;
  ui: boolean;
  /** chat, serve: reload the settings files when they change. */
  watch: boolean;
  /** run, chat, resume: the approval store (a folder, or a `postgres://` URL). */
  store?: string;
  /** resume: the session whose parked call to pick up. */
  session?: string;
  /** resume: wait for a decision instead of exiting when the call is still pending. */
  wait: boolean;
  /** resume: only this approval of the session (its id), instead of every one decided. */
  approval?: string;
  /** run: play these prompts instead of the demo scenario. */
  prompts: string[];
}

export const USAGE = `Usage: a3s-demo-agent [run|chat|serve] [options]
       a3s-demo-agent resume SESSION [options]

Commands:
  run                 play the scripted scenario in a temporary folder (default)
  chat                talk to the agent; reads prompts from the terminal or piped stdin
  serve               host the agent and the hook server for remote SDK hooks
  resume SESSION      finish the turns of a session whose tool calls a hook deferred, once a
                      person decided them (a3s-hooks approvals approve|deny ID), in the order
                      they were parked; exits 3 while a call still waits, unless --wait

Options:
  --audit FILE        write the hook engine's audit records as JSON lines
  --events FILE       write every event fired, with its decision, as JSON lines
  --settings FILE     a settings file with command hooks (repeatable; trusted)
  --workdir DIR       the agent's working directory (run, serve: a fresh temporary folder)
  --store STORE       run, chat, resume: where deferred tool calls wait for a person: a folder
                      (embedded store) or a postgres:// URL (default: A3S_APPROVALS_STORE,
                      else .a3s/approvals in the current folder, as for a3s-hooks approvals)
  --wait              resume: wait for the decision instead of exiting
  --approval ID       resume: only this approval of the session
  --prompt TEXT       run: play this prompt instead of the demo scenario (repeatable)
  --keep              run, serve: keep the temporary folder
  --model NAME        chat, serve: "scripted" (default, offline) or a model name for the
                      OpenAI-compatible API at OPENAI_BASE_URL with OPENAI_API_KEY
  --permission MODE   chat, serve: who answers permission questions hooks leave open:
                      ask (chat on a terminal), allow, deny (default otherwise)
  --host HOST         serve: address to bind (default 127.0.0.1)
  --port PORT         serve: port (default 0: any free port)
  --token TOKEN       serve: the token clients must present (default: A3S_TOKEN, else a new one)
  --ui                serve: also serve the browser page
  --no-watch          chat, serve: do not reload settings files when they change
  --no-color          plain output (also NO_COLOR=1)
  --debug             show stack traces
  -h, --help          show this help

Chat commands: /compact [instructions], /help, /exit`;

function usage(message: string, path: string): AgentError {
  return new AgentError("INVALID_INPUT", message, { path: [path] });
}

/**
 * Parse the command line. Throws `INVALID_INPUT` naming the flag for anything unknown or
 * malformed.
 *
 * @example
 * ```ts
 * parseCliArgs(["serve", "--port", "7070"]).port; // 7070
 * ```
 */
export function parseCliArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): CliArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    // node's messages go on to explain "--"; the first sentence is the useful part.
    const message = (error as Error).message.split("\n")[0]?.split(". ")[0];
    throw usage(message || "invalid arguments", "argv");
  }
  const { values, positionals } = parsed;
  const command = positionals[0] ?? "run";
  if (command !== "run" && command !== "chat" && command !== "serve" && command !== "resume") {
    throw usage(
      `unknown command ${JSON.stringify(command)}; expected run, chat, serve or resume`,
      "command",
    );
  }
  const takes = command === "resume" ? 2 : 1;
  if (positionals.length > takes)
    throw usage(`unexpected argument ${JSON.stringify(positionals[takes])}`, "argv");
  const session = command === "resume" ? checkSessionId(positionals[1]) : undefined;
  const approval = values.approval;
  if (approval !== undefined) {
    if (command !== "resume") throw usage("--approval: only resume takes it", "approval");
    if (!APPROVAL_ID.test(approval)) {
      throw usage(
        `--approval: ${JSON.stringify(approval.slice(0, 60))} is not an approval id (a UUID, as a3s-hooks approvals list shows)`,
        "approval",
      );
    }
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw usage(
      `--port: expected a port number from 0 to 65535, got ${JSON.stringify(values.port)}`,
      "port",
    );
  }
  const permission = values.permission;
  if (
    permission !== undefined &&
    permission !== "allow" &&
    permission !== "deny" &&
    permission !== "ask"
  ) {
    throw usage(
      `--permission: expected ask, allow or deny, got ${JSON.stringify(permission)}`,
      "permission",
    );
  }
  for (const key of ["audit", "events", "workdir", "model", "token", "host", "store"] as const) {
    const value = values[key];
    if (value !== undefined && (value === "" || value.includes("\0"))) {
      throw usage(`--${key}: expected a non-empty value`, key);
    }
  }
  for (const file of values.settings ?? []) {
    if (file === "" || file.includes("\0"))
      throw usage("--settings: expected a file path", "settings");
  }
  const token = values.token ?? (env.A3S_TOKEN || undefined);
  const model = values.model ?? (env.A3S_MODEL || undefined);
  return {
    command,
    help: values.help ?? false,
    debug: values.debug ?? false,
    color: values["no-color"] ? false : undefined,
    ...(values.audit !== undefined ? { audit: values.audit } : {}),
    ...(values.events !== undefined ? { events: values.events } : {}),
    settings: values.settings ?? [],
    ...(values.workdir !== undefined ? { workdir: values.workdir } : {}),
    keep: values.keep ?? false,
    ...(model !== undefined ? { model } : {}),
    ...(permission !== undefined ? { permission } : {}),
    host: values.host ?? "127.0.0.1",
    port,
    ...(token !== undefined ? { token } : {}),
    ui: values.ui ?? false,
    watch: !values["no-watch"],
    ...(values.store !== undefined ? { store: values.store } : {}),
    ...(session !== undefined ? { session } : {}),
    wait: values.wait ?? false,
    ...(approval !== undefined ? { approval } : {}),
    prompts: values.prompt ?? [],
  };
}

/** An approval id: the store's random UUIDs. */
const APPROVAL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What a session id may look like: the agent's are UUIDs; a host may give its own. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,255}$/;

/** `resume`'s session id; `INVALID_INPUT` naming `session` when missing or malformed. */
function checkSessionId(value: string | undefined): string {
  if (value === undefined) throw usage("resume: which session? (its id)", "session");
  if (!SESSION_ID.test(value)) {
    throw usage(
      `session: ${JSON.stringify(value.slice(0, 60))} is not a session id (letters, digits, . _ : -)`,
      "session",
    );
  }
  return value;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      audit: { type: "string" },
      events: { type: "string" },
      settings: { type: "string", multiple: true },
      workdir: { type: "string" },
      keep: { type: "boolean" },
      model: { type: "string" },
      permission: { type: "string" },
      host: { type: "string" },
      port: { type: "string" },
      token: { type: "string" },
      ui: { type: "boolean" },
      "no-color": { type: "boolean" },
      "no-watch": { type: "boolean" },
      store: { type: "string" },
      wait: { type: "boolean" },
      approval: { type: "string" },
      prompt: { type: "string", multiple: true },
      debug: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
