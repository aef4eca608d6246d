import { createEvent, type HookEngine, HookError, type HookResult } from "@a3s-lab/hooks-core";
import { checkOptions, is } from "./check-options.js";

/** What one turn of the agent produced; the Stop hooks see its text. */
export interface TurnResult {
  /** The text the model answered. */
  text: string;
}

export interface HookSessionOptions {
  /** The session's id, in every event it fires. */
  sessionId: string;
  /** Added to every event's `metadata`. */
  metadata?: Record<string, unknown>;
  /**
   * How many extra turns Stop hooks may ask for in one {@link HookSession.run}. Past it the
   * run stops, and says so in `stopReason`. Default 5.
   */
  maxContinuations?: number;
}

/** A prompt, session start or other step a hook blocked. */
export class PromptBlockedError extends HookError {
  override name = "PromptBlockedError";
  /** The winning block's reason. */
  readonly reason: string;
  constructor(what: string, result: HookResult) {
    const reason = result.reason ?? "blocked by hook";
    super("BLOCKED", `${what} was blocked by a hook: ${reason}`, {
      details: { hookId: result.blockedBy },
    });
    this.reason = reason;
  }
}

/** The outcome of {@link HookSession.run}. */
export interface RunResult<T extends TurnResult> {
  /** Every turn, in order: the first answers the prompt, the others a Stop hook's reason. */
  turns: T[];
  /** Why the last continuation was refused, when `maxContinuations` ran out. */
  stopReason?: string;
}

/** What a prompt became after UserPromptSubmit hooks. */
export interface SubmittedPrompt {
  /** The prompt as UserPromptSubmit hooks left it: what to send to the model. */
  prompt: string;
  /** Context hooks added for the model; give it to the model with the prompt. */
  additionalContext?: string;
}

const DEFAULT_MAX_CONTINUATIONS = 5;

/**
 * The session-level events around an AI SDK agent: SessionStart, UserPromptSubmit, Stop and
 * SessionEnd, for the parts of the loop that `withHooks` and `hooksMiddleware` do not see.
 *
 * @example
 * ```ts
 * const session = new HookSession(engine, { sessionId: "s1" });
 * await session.start();
 * const { turns } = await session.run("Summarise README.md", (prompt) =>
 *   generateText({ model, tools, prompt, stopWhen: stepCountIs(5) }));
 * await session.end();
 * ```
 */
export class HookSession {
  /** The session's id, in every event it fires. */
  readonly sessionId: string;
  readonly #engine: HookEngine;
  readonly #metadata: Record<string, unknown> | undefined;
  readonly #maxContinuations: number;

  constructor(engine: HookEngine, options: HookSessionOptions) {
    checkOptions(options, {
      sessionId: { check: is.string, expected: "a string", required: true },
      metadata: { check: is.object, expected: "an object" },
      maxContinuations: { check: is.count, expected: "a non-negative integer" },
    });
    const max = options.maxContinuations ?? DEFAULT_MAX_CONTINUATIONS;
    this.#engine = engine;
    this.sessionId = options.sessionId;
    this.#metadata = options.metadata;
    this.#maxContinuations = max;
  }

  get #base() {
    return {
      sessionId: this.sessionId,
      ...(this.#metadata !== undefined ? { metadata: this.#metadata } : {}),
    };
  }

  /** Fire SessionStart; rejects with {@link PromptBlockedError} when a hook blocks it. */
  async start(source = "startup", workingDirectory?: string): Promise<void> {
    const result = await this.#engine.fire(
      createEvent("SessionStart", {
        ...this.#base,
        source,
        ...(workingDirectory !== undefined ? { workingDirectory } : {}),
      }),
    );
    if (result.action === "block") throw new PromptBlockedError("the session", result);
  }

  /** Fire SessionEnd. Its hooks cannot block. */
  async end(reason = "exit"): Promise<void> {
    await this.#engine.fire(createEvent("SessionEnd", { ...this.#base, reason }));
  }

  /**
   * Fire UserPromptSubmit: resolves with the prompt as hooks left it, or rejects with
   * {@link PromptBlockedError}.
   */
  async submitPrompt(prompt: string): Promise<SubmittedPrompt> {
    const result = await this.#engine.fire(
      createEvent("UserPromptSubmit", { ...this.#base, prompt }),
    );
    if (result.action === "block") throw new PromptBlockedError("the prompt", result);
    return {
      prompt: result.event.prompt,
      ...(result.additionalContext ? { additionalContext: result.additionalContext } : {}),
    };
  }

  /**
   * Fire Stop after a turn. Resolves with the reason to continue with when a Stop hook asks
   * for another turn (a Stop block means "do not stop"), else undefined.
   */
  async stop(turn: TurnResult, stopHookActive = false): Promise<string | undefined> {
    const result = await this.#engine.fire(
      createEvent("Stop", { ...this.#base, stopHookActive, responseText: turn.text }),
    );
    return result.action === "block" ? (result.reason ?? "continue") : undefined;
  }

  /**
   * One user prompt through to the end: UserPromptSubmit, a turn, then Stop; while a Stop
   * hook asks to go on (at most `maxContinuations` times), another turn with its reason as
   * the prompt. The turn is yours: typically a `generateText` call.
   */
  async run<T extends TurnResult>(
    prompt: string,
    turn: (prompt: string, additionalContext: string | undefined) => Promise<T>,
  ): Promise<RunResult<T>> {
    const submitted = await this.submitPrompt(prompt);
    const turns = [await turn(submitted.prompt, submitted.additionalContext)];
    for (let continued = 0; ; continued++) {
      const reason = await this.stop(turns.at(-1)!, continued > 0);
      if (reason === undefined) return { turns };
      if (continued >= this.#maxContinuations) {
        return {
          turns,
          stopReason: `a Stop hook asked for another turn after ${continued} continuations; the limit is ${this.#maxContinuations}: ${reason}`,
        };
      }
      turns.push(await turn(reason, undefined));
    }
  }
}
