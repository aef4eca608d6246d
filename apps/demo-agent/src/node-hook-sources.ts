import { realpath } from "node:fs/promises";
import path from "node:path";
import {
  applyHookSettings,
  displayPath,
  formatProblem,
  type HookModelClient,
  type HookSettings,
  loadHookSettings,
  parseFrontmatterHooks,
  SessionEnvFiles,
  type SettingsHandle,
  watchHookSettings,
} from "@a3s-lab/hooks-node";
import { AgentError } from "./agent-error.js";
import type { HookSources } from "./demo-agent-setup.js";
import { hookModelClient } from "./hook-model-client.js";
import { isInside } from "./workspace-path.js";

export interface NodeHookSourcesOptions {
  /**
   * Let hooks in skill files inside the project (or the session's working directory) run.
   * `run` sets it: it wrote those skills itself. Default false: they are refused and reported,
   * because trusting the project (`a3s-hooks trust`) covers its settings files, not its skills.
   */
  trustProjectSkills?: boolean;
}

/** Why a project skill's hooks were refused; the skill still loads. */
const UNTRUSTED_SKILL =
  'hooks in the project\'s skill files do not run: trusting the project ("a3s-hooks trust") covers its settings files, not its skill files; declare the hook in .claude/settings.json instead';

/** The real path of a file, or its absolute path when it cannot be resolved. */
async function realOrResolved(file: string): Promise<string> {
  return realpath(file).catch(() => path.resolve(file));
}

/**
 * Hook sources from `@a3s-lab/hooks-node`: command hooks from settings files (working
 * directory, home, `--settings`), with the project's own files subject to `a3s-hooks trust`,
 * and command hooks from skills' frontmatter. A skill inside the project runs its hooks only
 * with `trustProjectSkills`: the project's trust hash covers settings files, so a cloned
 * repository (or a skill added after trusting) would otherwise run commands unasked.
 *
 * @example
 * ```ts
 * const demo = await setupDemoAgent({ workdir, hookSources: nodeHookSources() });
 * ```
 */
export function nodeHookSources(options: NodeHookSourcesOptions = {}): HookSources {
  let project: { dir: string } | undefined;
  let modelClient: HookModelClient | undefined;
  // Each session's CLAUDE_ENV_FILE: SessionStart hooks write it, the Bash tool applies it.
  const envFiles = new SessionEnvFiles();
  return {
    sessionEnv: {
      create: (id) => envFiles.create(id),
      read: (id) => envFiles.read(id),
      seal: (id) => envFiles.seal(id),
      remove: (id) => envFiles.remove(id),
      close: () => envFiles[Symbol.asyncDispose](),
    },
    async applySettings(engine, where) {
      const load = {
        cwd: where.cwd,
        ...(where.home !== undefined ? { home: where.home } : {}),
        files: where.files,
      };
      modelClient = hookModelClient(where.model);
      const apply = { projectDir: where.cwd, modelClient, envFile: envFiles.pathFor };
      const shown = { cwd: where.cwd, ...(where.home !== undefined ? { home: where.home } : {}) };
      const report = (settings: HookSettings, handle: SettingsHandle) => [
        ...settings.problems.map((p) => formatProblem(p, shown)),
        ...handle.skipped.map(
          (s) => `${s.hook.event} hook ${s.hook.name} does not run: ${s.message}`,
        ),
      ];
      const watch = where.watch;
      if (watch === undefined) {
        const settings = await loadHookSettings(load);
        if (settings.project) project = { dir: settings.project.dir };
        const handle = applyHookSettings(engine, settings, apply);
        return { unregister: () => handle.unregister(), messages: report(settings, handle) };
      }
      const watcher = await watchHookSettings(engine, load, {
        ...apply,
        ...(where.sessionId ? { sessionId: where.sessionId } : {}),
      });
      if (watcher.settings.project) project = { dir: watcher.settings.project.dir };
      watcher.on("reloaded", ({ settings, handle, files }) => {
        const which = files.map((f) => displayPath(f, shown)).join(", ") || "no file changed";
        const notes = report(settings, handle);
        watch(
          `settings reloaded (${which}): ${handle.applied.length} hook(s) run${notes.length > 0 ? `; ${notes.join("; ")}` : ""}`,
          true,
        );
      });
      watcher.on("problem", ({ reason, message, problems }) => {
        const details = problems.map((p) => formatProblem(p, shown));
        // "watch": about the watching (paused, failed), not a decision on a change.
        watch(
          details.length > 0 ? `${message}: ${details.join("; ")}` : message,
          reason !== "watch",
        );
      });
      return {
        unregister: () => void watcher.close(),
        messages: report(watcher.settings, watcher.handle),
      };
    },

    async installSkillHooks(skill, engine, context) {
      // Real paths on both sides: a symlinked working directory must not make a project skill
      // look like one from elsewhere.
      const file = await realOrResolved(skill.path);
      const inProject =
        (project !== undefined && isInside(project.dir, file)) ||
        isInside(await realOrResolved(context.workdir), file);
      const trusted = !inProject || options.trustProjectSkills === true;
      const settings = parseFrontmatterHooks(skill.source, skill.path, { trusted });
      const errors = settings.problems.filter((p) => p.severity === "error");
      if (errors.length > 0) {
        throw new AgentError(
          "INVALID_INPUT",
          `skill ${skill.name}: ${errors.map((p) => formatProblem(p, { cwd: context.workdir })).join("; ")}`,
          { path: ["frontmatter", "hooks"] },
        );
      }
      const handle = applyHookSettings(engine, settings, {
        projectDir: context.workdir,
        ...(modelClient ? { modelClient } : {}),
        envFile: envFiles.pathFor,
      });
      return {
        unregister: () => handle.unregister(),
        notes: handle.skipped.map(
          (s) =>
            `its ${s.hook.event} hook ${s.hook.name} does not run: ${s.reason === "untrusted" ? UNTRUSTED_SKILL : s.message}`,
        ),
      };
    },
  };
}
