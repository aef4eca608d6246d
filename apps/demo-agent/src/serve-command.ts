import { randomBytes } from "node:crypto";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Writable } from "node:stream";
import { createHookServer } from "@a3s-lab/hooks-node";
import { createAgentService } from "./agent-service.js";
import type { CliArgs } from "./cli-args.js";
import { createModel } from "./create-model.js";
import { type HookSources, setupDemoAgent } from "./demo-agent-setup.js";
import { onFiring } from "./firings.js";
import { createStyle } from "./style.js";
import { Transcript } from "./transcript.js";
import { buildUi, createUiHandler } from "./ui-handler.js";

export interface ServeIo {
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * The `serve` command: the agent, the hook server (remote SDK hooks, AgentService) on one
 * port, the settings files' command hooks and the demo's in-process hooks, all on one engine.
 * Prints exactly one line on stdout, `listening on HOST:PORT`, once ready; everything else
 * (a generated token, the page's address with `--ui`, the transcript of served sessions)
 * goes to stderr. With `--ui` the same port serves a page whose hooks run in the browser. Runs until `stop`
 * aborts, then ends every session and drains the server.
 *
 * Without `--workdir` the agent works in a fresh temporary folder (removed at exit unless
 * `--keep`), never in the folder it was started from: a tool call someone approves on the
 * page acts there, and that must not be a checkout by surprise. The first line on stderr says
 * which folder.
 */
export async function runServe(
  args: CliArgs,
  io: ServeIo,
  hookSources: HookSources | undefined,
  stop: AbortSignal,
  color: boolean,
): Promise<number> {
  const log = (line: string) => void io.stderr.write(`${line}\n`);
  const temporary = args.workdir === undefined;
  const workdir = await realpath(
    args.workdir === undefined
      ? await mkdtemp(path.join(os.tmpdir(), "a3s-serve-"))
      : path.resolve(io.cwd, args.workdir),
  );
  log(
    temporary
      ? `workdir: ${workdir} (temporary${args.keep ? ", kept" : ", removed at exit"}; --workdir DIR to choose)`
      : `workdir: ${workdir}`,
  );
  try {
    return await serveIn(workdir, args, io, hookSources, stop, color);
  } finally {
    if (temporary && !args.keep) await rm(workdir, { recursive: true, force: true });
  }
}

async function serveIn(
  workdir: string,
  args: CliArgs,
  io: ServeIo,
  hookSources: HookSources | undefined,
  stop: AbortSignal,
  color: boolean,
): Promise<number> {
  const style = createStyle(color);
  const log = (line: string) => void io.stderr.write(`${line}\n`);
  let token = args.token;
  const generated = token === undefined;
  if (token === undefined) {
    token = randomBytes(24).toString("hex");
    log(`token: ${token}`);
    log(style.dim("clients read it from A3S_TOKEN (export A3S_TOKEN=<token>)"));
  }
  // Nobody sits at this process's terminal: open permission questions get a fixed answer.
  const answer = args.permission === "allow" ? "allow" : "deny";
  const demo = await setupDemoAgent({
    workdir,
    model: createModel(args.model, io.env),
    permission: { defaultAnswer: answer },
    auditFile: args.audit,
    eventsFile: args.events,
    settingsFiles: args.settings,
    home: io.env.HOME,
    hookSources,
    watchSettings: args.watch ? (line: string) => log(style.dim(line)) : undefined,
  });
  const transcript = new Transcript(style, log);
  const off = onFiring(demo.engine, (f) => transcript.render(f));
  for (const message of demo.messages) log(style.yellow(`! ${message}`));
  let server: Awaited<ReturnType<typeof createHookServer>> | undefined;
  try {
    const page = args.ui ? createUiHandler(await buildUi()) : undefined;
    server = await createHookServer({
      engine: demo.engine,
      host: args.host,
      port: args.port,
      token,
      agent: createAgentService(demo.agent, { workdir }),
      ...(page ? { httpHandler: page } : {}),
    });
    if (page) {
      // A fragment never leaves the browser; a token the user chose is theirs to type.
      const handover = generated ? `#token=${token}` : "";
      log(`ui: http://${server.address}/${handover}`);
    }
    io.stdout.write(`listening on ${server.address}\n`);
    if (!stop.aborted)
      await new Promise((resolve) => stop.addEventListener("abort", resolve, { once: true }));
    return 0;
  } finally {
    for (const session of demo.agent.sessions) await demo.agent.endSession(session, "exit");
    await server?.close();
    off();
    demo.close();
  }
}
