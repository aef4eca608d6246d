import { homedir } from "node:os";
import { resolve } from "node:path";
import { trustProject, untrustProject } from "../settings/project-trust.js";
import { displayPath, formatProblem } from "../settings/settings-problem.js";
import type { CliIo } from "./cli-context.js";
import { loadForCli } from "./cli-context.js";
import { describeHook } from "./format.js";

export interface TrustArgs {
  cwd?: string;
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
