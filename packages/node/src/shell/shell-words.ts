/**
 * The words the quoting lexer in `shell-quote.ts` treats specially. Kept apart from the lexer so
 * the lists can be read (and reviewed) on their own.
 */

/** Reserved words after which the next word is still a command. */
export const KEEPS_COMMAND = new Set("if then else elif do while until ! { } coproc".split(" "));

/**
 * Shells: their `-c` operand is code and the words after it are `$0`, `$1`, …, so a placeholder
 * there is data, once the options before it are understood.
 */
export const SHELLS = new Set("sh bash dash ksh zsh mksh ash yash".split(" "));

/**
 * Commands that run another command named in their arguments, after options of their own that
 * may take arguments (`sudo -u x`, `nice -n 5`, `timeout 5`, `env -S`). Which word is the
 * program cannot be told without each one's option grammar, so a placeholder anywhere in their
 * arguments is refused. The list cannot be complete; it holds the common ones. `npx` (npm 7 and
 * later) is followed: it reads options only before its first operand, the program, and passes
 * every word after that to the program.
 */
export const RUNNERS = new Set(
  [
    ...SHELLS,
    "busybox fish csh tcsh env sudo doas su runuser pkexec sg nice ionice chrt taskset numactl",
    "timeout nohup setsid stdbuf unbuffer time command builtin exec jobs xargs parallel chroot unshare",
    "nsenter setpriv capsh prlimit watch strace ltrace perf valgrind gdb flock script ssh",
    "firejail bwrap systemd-run fakeroot eatmydata torsocks proxychains npx pnpx bunx",
  ]
    .join(" ")
    .split(" "),
);

/**
 * Short options that take no argument in every shell of {@link SHELLS} (`-o` and `-O` take the
 * next word); any other letter (mksh's `-T dir`, ksh's `-R file`, …) is not followed.
 */
export const SHELL_SHORT_FLAGS = /^[abcefhiklmnprstuvxBCEHP]*[oO]?$/;

/**
 * Runners that start a shell reading standard input when no command is given (`sudo -s`, `su`,
 * `ssh host`): with a placeholder anywhere, its value could be that input.
 */
export const STARTS_SHELL = new Set(
  "su sudo doas runuser pkexec sg newgrp ssh chroot unshare nsenter firejail script systemd-run capsh machinectl".split(
    " ",
  ),
);

/** Long options of bash that take no argument; any other long option is not followed. */
export const SHELL_FLAGS = new Set(
  "--norc --noprofile --posix --login --noediting --restricted --verbose".split(" "),
);
/** Long options of bash whose argument is the next word. */
export const SHELL_OPTIONS_WITH_ARGUMENT = new Set(["--rcfile", "--init-file"]);

/**
 * Commands whose arguments the shell evaluates as code or as variable names (where bash runs
 * `a[$(…)]` subscripts): a quoted value is still run there.
 */
export const CODE_ARGUMENTS = new Set(
  "eval let [[ . source trap alias enable declare typeset local export readonly read mapfile readarray unset getopts compgen".split(
    " ",
  ),
);

/**
 * Commands that, anywhere in a template with a placeholder, could evaluate a value the template
 * stored earlier (in a variable, `$1`, or a file): as arithmetic, as a variable name (bash runs
 * `a[$(…)]` subscripts in both), or as code. `declare` and its kin, `printf` and `test` are
 * judged by their options instead.
 */
export const EVALUATES: Readonly<Record<string, string>> = {
  let: "arithmetic",
  "[[": "its `-eq`/`-lt`/… operands as arithmetic and its `-v` operand as a variable name",
  unset: "variable names, with their array subscripts",
  read: "variable names, with their array subscripts",
  mapfile: "variable names, with their array subscripts",
  readarray: "variable names, with their array subscripts",
  getopts: "variable names, with their array subscripts",
  eval: "code",
  source: "a file as code",
  ".": "a file as code",
  trap: "code",
  compgen: "its `-W` word list like a command line and runs its `-C` and `-F` commands",
  alias: "code",
  enable: "builtins loaded from files",
  hash: "which file a command name runs (`hash -p`)",
  xargs: "its standard input as command lines",
  parallel: "its standard input as command lines",
};

/** Options of `declare`, `typeset`, `local`, `export`, `readonly`: integer, array, name reference. */
export const EVALUATING_DECLARE = /^[-+][A-Za-z]*[iaAn]/;
export const DECLARES = new Set("declare typeset local export readonly".split(" "));

/**
 * Variables bash evaluates when they are assigned or used: arithmetic on assignment (`RANDOM`,
 * `OPTIND`, …), prompt expansion with `$( … )` (`PS4` under `set -x`), files sourced or options
 * set by child shells.
 */
export const SPECIAL_VARIABLES = new Set(
  "RANDOM SRANDOM OPTIND HISTCMD PS0 PS1 PS2 PS3 PS4 PROMPT_COMMAND BASH_ENV ENV SHELLOPTS BASHOPTS".split(
    " ",
  ),
);

/**
 * A command name built by an expansion that still names a file: `"$CLAUDE_PROJECT_DIR"/hooks/x.sh`.
 * A `/` after the variable means a path, never a builtin like `eval`.
 */
export const PATH_FROM_VARIABLE = /^"?\$(?:\{[A-Za-z_]\w*\}|[A-Za-z_]\w*)"?\/[^$`]*$/;

/**
 * Interpreters and tools that take code as an argument or on standard input (`python3 -c`,
 * `node -e`, `perl -e`, awk's `system()`, sed's `e` command, `vim -c '!…'`, `sqlite3 '.shell'`).
 * Which of their arguments is code cannot be told without each one's grammar.
 */
export const INTERPRETER =
  /^(?:python[\d.]*|pypy[\d.]*|node(?:js)?|deno|bun|tsx|ts-node|zx|perl[\d.]*|ruby[\d.]*|irb|php[\d.]*|lua[\d.]*|luajit|tclsh[\d.]*|wish|expect|Rscript|julia|osascript|pwsh|powershell|awk|gawk|mawk|nawk|busybox|toybox|sed|gsed|ed|ex|vi|vim|nvim|emacs|gdb|lldb|jshell|groovy|scala|erl|escript|elixir|iex|ghci|runghc|racket|guile|sbcl|clisp|ocaml|sqlite3|psql|mysql|make|gmake|m4|dc|bc)$/;

/**
 * The builtins and reserved words of bash and dash that take arguments. Which of them evaluates
 * an argument (as code, arithmetic, or a variable name with a subscript) is a closed question,
 * so a placeholder or an expansion is accepted only in the arguments of the few in
 * {@link INERT_BUILTINS}; every other builtin's arguments are refused.
 */
export const SHELL_BUILTINS = new Set(
  [
    "alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs",
    "disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let",
    "local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt",
    "source suspend test times trap true type typeset ulimit umask unalias unset wait . : [ [[",
    "for select case function time coproc",
  ]
    .join(" ")
    .split(" "),
);

/**
 * Builtins that never evaluate their arguments: `echo` prints them, `printf` prints them after
 * its format (its format and `-v` are not inert), `cd` changes to a folder (which picks where a
 * relative program runs from, so it takes no value), `:`, `true` and `false` ignore them.
 */
export const INERT_BUILTINS = new Set("echo printf cd : true false".split(" "));
