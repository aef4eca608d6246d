import path from "node:path";
import {
  applyHookSettings,
  formatProblem,
  loadHookSettings,
  parseFrontmatterHooks,
} from "@a3s-lab/hooks-node";
import { AgentError } from "./agent-error.js";
import type { HookSources } from "./demo-agent-setup.js";
import { isInside } from "./workspace-path.js";

export interface NodeHookSourcesOptions {
  /**
   * Let hooks in skill files inside the project run without the project being trusted. `run`
   * sets it: it wrote those skills itself. Default false.
   */
  trustProjectSkills?: boolean;
}

/**
 * Hook sources from `@a3s-lab/hooks-node`: command hooks from settings files (working
 * directory, home, `--settings`), with the project's own files subject to `a3s-hooks trust`,
 * and command hooks from skills' frontmatter, subject to the same trust when the skill lives
 * in the project.
 *
 * @example
 * ```ts
 * const demo = await setupDemoAgent({ workdir, hookSources: nodeHookSources() });
 * ```
 */
export function nodeHookSources(options: NodeHookSourcesOptions = {}): HookSources {
  let project: { dir: string; trusted: boolean } | undefined;
  return {
    async applySettings(engine, where) {
      const settings = await loadHookSettings({
        cwd: where.cwd,
        ...(where.home !== undefined ? { home: where.home } : {}),
        files: where.files,
      });
      if (settings.project)
        project = { dir: settings.project.dir, trusted: settings.project.trusted };
      const handle = applyHookSettings(engine, settings, { projectDir: where.cwd });
      const shown = { cwd: where.cwd, ...(where.home !== undefined ? { home: where.home } : {}) };
      const messages = [
        ...settings.problems.map((p) => formatProblem(p, shown)),
        ...handle.skipped.map(
          (s) => `${s.hook.event} hook ${s.hook.name} does not run: ${s.message}`,
        ),
      ];
      return { unregister: () => handle.unregister(), messages };
    },

    installSkillHooks(skill, engine, context) {
      const inProject = project !== undefined && isInside(project.dir, path.resolve(skill.path));
      const trusted =
        !inProject || options.trustProjectSkills === true || project?.trusted === true;
      const settings = parseFrontmatterHooks(skill.source, skill.path, { trusted });
      const errors = settings.problems.filter((p) => p.severity === "error");
      if (errors.length > 0) {
        throw new AgentError(
          "INVALID_INPUT",
          `skill ${skill.name}: ${errors.map((p) => formatProblem(p, { cwd: context.workdir })).join("; ")}`,
          { path: ["frontmatter", "hooks"] },
        );
      }
      const handle = applyHookSettings(engine, settings, { projectDir: context.workdir });
      return {
        unregister: () => handle.unregister(),
        notes: handle.skipped.map(
          (s) => `its ${s.hook.event} hook ${s.hook.name} does not run: ${s.message}`,
        ),
      };
    },
  };
}
