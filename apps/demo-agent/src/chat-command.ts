import { createInterface, type Interface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import type { PermissionAnswerer } from "@a3s-lab/hooks-core";
import type { Agent } from "./agent.js";
import { AgentError } from "./agent-error.js";
import type { ParkedCall } from "./parked-call.js";
import type { Style } from "./style.js";

export interface ChatOptions {
  agent: Agent;
  workdir: string;
  input: Readable;
  /** Where the prompt marker and command answers go; the transcript writes on its own. */
  write: (line: string) => void;
  style: Style;
  /** Show a `you ›` prompt (for a terminal; piped input gets none). */
  interactive: boolean;
  output?: Writable | undefined;
  /** Gets the line reader while the chat runs, for permission questions. */
  asker?: ReadlineAsker | undefined;
  /**
   * The lines that say a parked call waits (the agent was given a store). The chat ends there:
   * `resume` finishes the turn once someone decides.
   */
  waitingLines?: ((parked: ParkedCall) => string[]) | undefined;
}

const HELP =
  "commands: /compact [instructions], /help, /exit; anything else is a prompt (end a line with \\ to continue it)";

/** A permission asker that puts its question on the chat's line reader, once the chat runs. */
export interface ReadlineAsker extends PermissionAnswerer {
  attach(rl: Interface | undefined): void;
}

/**
 * The asker shares the chat's line reader, so the answer is not taken for the next prompt.
 * Before the chat runs (or after), questions are denied.
 */
export function createReadlineAsker(): ReadlineAsker {
  let reader: Interface | undefined;
  const ask = ((q) =>
    new Promise((resolve) => {
      if (!reader) {
        resolve("deny");
        return;
      }
      reader.question(`  allow ${q.tool}? ${q.reason} [y/N] `, (answer) => {
        resolve(/^y(es)?$/i.test(answer.trim()) ? "allow" : "deny");
      });
    })) as ReadlineAsker;
  ask.attach = (rl) => {
    reader = rl;
  };
  return ask;
}

/**
 * The `chat` command: one session, one prompt per line, until `/exit` or the end of input.
 * Works the same on a terminal and with piped stdin (prompts are answered one at a time, in
 * order).
 */
export async function runChat(options: ChatOptions): Promise<void> {
  const { agent, style } = options;
  const session = await agent.createSession({ workdir: options.workdir });
  // Made only now, and iterated at once: lines piped in before that would be lost.
  const rl = createInterface({
    input: options.input,
    ...(options.interactive && options.output ? { output: options.output } : {}),
    terminal: options.interactive,
  });
  options.asker?.attach(rl);
  options.write(
    style.dim(`chat with the ${agent.model.config.name} model in ${options.workdir}; ${HELP}`),
  );
  const prompt = () => {
    if (options.interactive) rl.prompt();
  };
  rl.setPrompt(style.bold("you › "));
  prompt();
  let reason = "exit";
  let pending: string[] = [];
  try {
    for await (const raw of rl) {
      // A trailing backslash continues the prompt on the next line (one directive a line).
      if (raw.endsWith("\\")) {
        pending.push(raw.slice(0, -1));
        continue;
      }
      const line = [...pending, raw].join("\n").trim();
      pending = [];
      if (line === "") {
        prompt();
        continue;
      }
      if (line === "/exit" || line === "/quit") break;
      if (line === "/help") {
        options.write(HELP);
      } else if (line === "/compact" || line.startsWith("/compact ")) {
        const instructions = line.slice("/compact".length).trim();
        const done = await agent.compact(session, "manual", instructions || undefined);
        if (!done) options.write(style.dim("nothing to compact"));
      } else if (line.startsWith("/")) {
        options.write(style.red(`unknown command ${line.split(" ")[0]}; ${HELP}`));
      } else {
        try {
          const reply = await agent.respond(session, line);
          if (reply.blocked !== undefined) options.write(style.red(`(blocked: ${reply.blocked})`));
          if (reply.parked !== undefined) {
            for (const text of options.waitingLines?.(reply.parked) ?? []) options.write(text);
            break;
          }
          if (reply.stopped !== undefined) {
            options.write(
              style.red(
                `(a hook stopped the turn${reply.stopped.reason ? `: ${reply.stopped.reason}` : ""})`,
              ),
            );
          }
        } catch (error) {
          const e = AgentError.from(error);
          options.write(style.red(`error: ${e.message}`));
          if (e.code === "ABORTED") {
            reason = "interrupted";
            break;
          }
        }
      }
      prompt();
    }
  } finally {
    options.asker?.attach(undefined);
    rl.close();
    await agent.endSession(session, reason);
  }
}
