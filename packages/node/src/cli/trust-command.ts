import { homedir } from "node:os";
import { resolve } from "node:path";
import { hookFingerprint } from "../settings/hook-fingerprint.js";
import type { HookSettings } from "../settings/hook-settings.js";
import { trustHook, untrustHook } from "../settings/hook-switches.js";
import { trustProject, untrustProject } from "../settings/project-trust.js";
import { displayPath, formatProblem } from "../settings/settings-problem.js";
import type { CliIo } from "./cli-context.js";
import { loadForCli } from "./cli-context.js";
import { describeHook, type Where } from "./format.js";
import { findHook } from "./hook-command.js";

export interface TrustArgs {
  cwd?: string;
  /** Trust (or with `revoke`, forget) only the hook with this id. */
  hook?: string;
  revoke?: boolean;
  json?: boolean;
}

/**
 * `a3s-hooks trust`: record the hash of the project's hook definitions, options, MCP servers
 * and the project files its hooks run; print all of it.
 */
export async function trustCommand(args: TrustArgs, io: CliIo): Promise<number> {
  const home = resolve(io.home ?? homedir());
  // Load first: a bad --cwd is reported the same way as in the other commands.
  const { settings, where } = await loadForCli({ cwd: args.cwd ?? "." }, io);
  const cwd = settings.project!.dir;
  if (args.hook !== undefined) return trustOneHook(args, settings, where, home, io);
  if (args.revoke) {
    const removed = await untrustProject({ cwd, home });
    io.stdout.write(
      args.json
        ? `${JSON.stringify({ revoked: removed, project: cwd })}\n`
        : removed
          ? `No longer trusted: ${cwd}\n`
          : `${cwd} was not trusted.\n`,
    );
    return 0;
  }
  const project = settings.project!;
  const hasSettings = settings.files.some((f) => f.scope === "project" && f.loaded);
  if (!hasSettings) {
    io.stdout.write(
      args.json
        ? `${JSON.stringify({ trusted: false, project: cwd, hooks: [] })}\n`
        : `No hook settings in ${cwd}; nothing to trust.\n`,
    );
    return 0;
  }
  const trusted = await trustProject({ cwd, home });
  if (args.json) {
    io.stdout.write(
      `${JSON.stringify(
        {
          trusted: true,
          project: trusted.dir,
          hash: trusted.hash,
          previousHash: trusted.previousHash ?? null,
          store: displayPath(trusted.storePath, where),
          hooks: trusted.hooks.map((h) => describeHook(h, where)),
          options: trusted.options,
          mcpServers: trusted.mcpServers,
          scripts: trusted.scripts,
        },
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  const out = [
    `Trusted ${trusted.hooks.length} hook(s) of ${trusted.dir}${project.changed ? " (changed since last trusted)" : ""}:`,
    ...trusted.hooks.map((h) => `  ${describeHook(h, where)}`),
  ];
  const options = Object.entries(trusted.options);
  if (options.length > 0) {
    out.push("Options:", ...options.map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`));
  }
  if (trusted.mcpServers.length > 0) {
    out.push("MCP servers:", ...trusted.mcpServers.map((m) => `  ${m.name}: ${m.runs}`));
  }
  if (trusted.scripts.length > 0) {
    out.push(
      "Project files the hooks run:",
      ...trusted.scripts.map((f) => `  ${f.path} ${f.hash}`),
    );
  }
  if (trusted.problems.length > 0) {
    out.push(
      "These parts have problems and stay off:",
      ...trusted.problems.map((p) => `  ${formatProblem(p, where)}`),
    );
  }
  out.push(
    `Hash ${trusted.hash}, recorded in ${displayPath(trusted.storePath, where)}.`,
    "Any change to these definitions, options, servers or files needs trust again.",
  );
  io.stdout.write(`${out.join("\n")}\n`);
  return 0;
}

/** `a3s-hooks trust --hook ID [--revoke]`: one project hook, as it is now. */
async function trustOneHook(
  args: TrustArgs,
  settings: HookSettings,
  where: Where,
  home: string,
  io: CliIo,
): Promise<number> {
  const hook = findHook(settings, args.hook!);
  const id = hookFingerprint(hook);
  if (args.revoke) {
    const removed = await untrustHook(id, { home });
    io.stdout.write(
      args.json
        ? `${JSON.stringify({ id, revoked: removed })}\n`
        : removed
          ? `Hook ${id} is no longer trusted on its own.\n`
          : `Hook ${id} was not trusted on its own.\n`,
    );
    return 0;
  }
  if (hook.scope !== "project") {
    io.stdout.write(
      args.json
        ? `${JSON.stringify({ id, trusted: true, scope: hook.scope, recorded: false })}\n`
        : `Hook ${id} is not a project hook (${hook.scope}); it needs no trust.\n`,
    );
    return 0;
  }
  const trusted = await trustHook(hook, settings.project!.dir, { home });
  if (args.json) {
    io.stdout.write(
      `${JSON.stringify(
        {
          id,
          trusted: true,
          hook: describeHook(hook, where),
          scripts: trusted.scripts,
          store: displayPath(trusted.storePath, where),
        },
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  const out = [`Trusted hook ${id}:`, `  ${describeHook(hook, where)}`];
  if (trusted.scripts.length > 0) {
    out.push("Project files it runs:", ...trusted.scripts.map((f) => `  ${f.path} ${f.hash}`));
  }
  out.push(
    `Recorded in ${displayPath(trusted.storePath, where)}.`,
    "Any change to this hook or to these files needs trust again; the project's other hooks still need theirs.",
  );
  io.stdout.write(`${out.join("\n")}\n`);
  return 0;
}
