import { access } from "node:fs/promises";
import path from "node:path";
import { createEvent, type HookEngine } from "@a3s-lab/hooks-core";
import { AgentError } from "./agent-error.js";
import type { Session } from "./session.js";
import { readSkillFile, type SkillFile } from "./skill-file.js";

/** What installing a skill's hooks returns: the way to remove them again. */
export interface InstalledHooks {
  unregister(): unknown;
  /** Things the model and the user should know: hooks that did not register, and why. */
  notes?: readonly string[];
}

/** The session a skill is loaded into, as an installer sees it. */
export interface SkillContext {
  sessionId: string;
  workdir: string;
}

/**
 * Registers the hooks a skill's frontmatter declares. The CLI passes one built on
 * `@a3s-lab/hooks-node` (command hooks); tests may pass their own. Throwing refuses the skill.
 */
export type SkillHookInstaller = (
  skill: SkillFile,
  engine: HookEngine,
  context: SkillContext,
) => InstalledHooks | undefined | Promise<InstalledHooks | undefined>;

export interface SkillManagerOptions {
  /** Folders holding `<name>.md` or `<name>/SKILL.md`, searched in order. */
  dirs: readonly string[];
  installHooks?: SkillHookInstaller | undefined;
}

/** A skill loaded into a session. */
export interface LoadedSkill {
  skill: SkillFile;
  hooks: InstalledHooks | undefined;
}

const NAME = /^[\w-]{1,100}$/;

/**
 * Finds skills on disk and loads them into sessions: SkillLoad (a hook may refuse), then the
 * skill's hooks are registered; unloading removes them and fires SkillUnload.
 *
 * @example
 * ```ts
 * const skills = new SkillManager({ dirs: [".a3s/skills"], installHooks });
 * const skill = await skills.load(engine, session, "careful-shell");
 * // … the skill's hooks are active …
 * await skills.unloadAll(engine, session);
 * ```
 */
export class SkillManager {
  readonly dirs: readonly string[];
  readonly #install: SkillHookInstaller | undefined;
  readonly #loaded = new WeakMap<Session, Map<string, LoadedSkill>>();

  constructor(options: SkillManagerOptions) {
    this.dirs = [...options.dirs];
    this.#install = options.installHooks;
  }

  /** The file of a skill, or `NOT_FOUND`. */
  async find(name: string): Promise<string> {
    if (!NAME.test(name)) {
      throw new AgentError(
        "INVALID_INPUT",
        `name: ${JSON.stringify(name.slice(0, 100))} is not a skill name`,
        {
          path: ["name"],
        },
      );
    }
    for (const dir of this.dirs) {
      for (const candidate of [path.join(dir, `${name}.md`), path.join(dir, name, "SKILL.md")]) {
        if (
          await access(candidate).then(
            () => true,
            () => false,
          )
        )
          return candidate;
      }
    }
    throw new AgentError(
      "NOT_FOUND",
      `skill ${JSON.stringify(name)} not found in ${this.dirs.join(", ") || "(no folders)"}`,
      {
        path: ["name"],
      },
    );
  }

  /**
   * Load a skill into a session. Loading one that is already loaded returns it again. If its
   * hooks cannot be installed, SkillUnload follows SkillLoad and the error is thrown.
   */
  async load(engine: HookEngine, session: Session, name: string): Promise<LoadedSkill> {
    const existing = this.#loaded.get(session)?.get(name);
    if (existing) return existing;
    const skill = await readSkillFile(await this.find(name));
    const result = await engine.fire(
      createEvent("SkillLoad", {
        sessionId: session.id,
        skillName: skill.name,
        path: skill.path,
        ...(skill.description !== undefined ? { description: skill.description } : {}),
        metadata: session.eventMetadata(),
      }),
    );
    if (result.action === "block") {
      throw new AgentError(
        "BLOCKED",
        `skill ${skill.name} was refused by a hook: ${result.reason}`,
      );
    }
    let map = this.#loaded.get(session);
    if (!map) this.#loaded.set(session, (map = new Map()));
    const entry: LoadedSkill = { skill, hooks: undefined };
    map.set(name, entry);
    // The installer reads the frontmatter itself and decides whether there are hooks; a gate
    // on this package's own parse would drop the hooks of a file the two read differently.
    if (this.#install) {
      try {
        entry.hooks = await this.#install(skill, engine, {
          sessionId: session.id,
          workdir: session.workdir,
        });
      } catch (error) {
        await this.unload(engine, session, name);
        throw AgentError.from(error, "INVALID_INPUT");
      }
    }
    return entry;
  }

  /** Unload one skill: its hooks go, then SkillUnload fires. */
  async unload(engine: HookEngine, session: Session, name: string): Promise<boolean> {
    const map = this.#loaded.get(session);
    const entry = map?.get(name);
    if (!map || !entry) return false;
    map.delete(name);
    entry.hooks?.unregister();
    await engine.fire(
      createEvent("SkillUnload", {
        sessionId: session.id,
        skillName: entry.skill.name,
        path: entry.skill.path,
        metadata: session.eventMetadata(),
      }),
    );
    return true;
  }

  /** Unload every skill of a session, most recent first. */
  async unloadAll(engine: HookEngine, session: Session): Promise<void> {
    const names = [...(this.#loaded.get(session)?.keys() ?? [])].reverse();
    for (const name of names) await this.unload(engine, session, name);
  }
}
