import type { RegexCompiler } from "@a3s-lab/hooks-core";
import { RE2JS } from "re2js";

/**
 * A {@link RegexCompiler} whose expressions match in time linear in their input, whatever the
 * pattern (RE2's automaton, in pure JavaScript), so no pattern a remote client or a settings
 * file supplies can stall the event loop: `^(a+)+$` answers a 32-character command at once,
 * where a backtracking engine takes minutes. Patterns RE2 cannot express, backreferences
 * (`\1`) and lookaround (`(?=…)`, `(?!…)`, `(?<=…)`), are refused when the hook is registered
 * or its settings file loads, with a message naming the field; so are `\u` escapes (RE2 writes
 * `\x{e9}`). A pattern must also be a valid JavaScript regular expression.
 *
 * The hook server compiles remote clients' matchers with it, and settings files (and
 * `a3s-hooks test`) compile theirs with it. Pass it as a registration's `regex` for patterns
 * from anywhere else you do not control.
 *
 * @example
 * ```ts
 * engine.register({ event: "PreToolUse", matcher: { commandPattern: userPattern },
 *   regex: linearRegex, handler });
 * ```
 */
export const linearRegex: RegexCompiler = (source) => {
  // A syntax error reads best in JavaScript's words; compiling (not running) is cheap and safe.
  new RegExp(source);
  try {
    return RE2JS.compile(source);
  } catch (error) {
    const why = (error as Error).message.replace(/^error parsing regexp: /, "");
    throw new Error(
      `${why} (patterns from remote clients and settings files run on RE2, a linear-time engine: no backreferences or lookaround, and \\x{…} for \\u escapes)`,
      { cause: error },
    );
  }
};
