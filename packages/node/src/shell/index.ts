/**
 * The shell module: hooks-node's one reader of shell text. The command template check
 * (`checkShellTemplate`, `shellEscaper`: a `{{placeholder}}` is quoted for the context it sits
 * in, and refused where no quoting keeps it inert) and the `if` rule splitter
 * (`splitBashCommand`: the commands a Bash call runs, or "unsure") both come from here. Its
 * rule: when it cannot prove what a command runs, a guard runs and a template is refused.
 */
export {
  type SplitCommand,
  splitBashCommand,
} from "./bash-subcommands.js";
export {
  checkShellTemplate,
  quoteForContext,
  type ShellContext,
  shellContextAt,
  shellEscaper,
  shellQuote,
} from "./shell-quote.js";
