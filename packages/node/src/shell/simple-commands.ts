/**
 * The `if` splitter's grammar: a Bash command into its simple commands, each a list of words as
 * written (quotes kept), or undefined where the text holds code the splitter does not follow.
 * What a simple command runs is `bash-subcommands.ts`'s part.
 */

/** `${NAME}`, `${1}`, `${#}`: a parameter expansion without operators, subscripts or indirection. */
const SIMPLE_PARAM = /\$\{(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[#?$!@*-])\}/y;

/** What an unsure step returns: the command holds code the splitter does not read. */
const UNSURE = -1;

/**
 * An open parenthesis or backtick. A substitution keeps the command it interrupts, so its output
 * stays a word of that command (`$(echo rm) -rf /` has the program `$(…)`); a subshell `( … )`
 * keeps nothing (`null`).
 */
type Open = { kind: "$(" | "`"; words: string[]; word: string; dropNext: boolean } | null;

/**
 * The simple commands of `command` (`a && b`, `a | b`, `( a )`, `{ a; }`, `$(a)`, `` `a` ``), in
 * the order they end, each as its words as written; redirections and their targets are left out
 * and a substitution stands as `$(…)` in the word it sits in. Undefined for an unclosed quote or
 * parenthesis, a here-document, process substitution, arithmetic, `${…}` with operators, a
 * substitution inside double quotes, and `(` after a word (a function or an array).
 */
export function simpleCommands(command: string): string[][] | undefined {
  return new Reader(command).read();
}

/** One walk over a command's characters. Each step takes the index of its first character and returns that of its last, or {@link UNSURE}. */
class Reader {
  private readonly commands: string[][] = [];
  private words: string[] = [];
  private word = "";
  private inWord = false;
  /** The next word is a redirection target, not a word of the command. */
  private dropNext = false;
  private readonly open: Open[] = [];

  constructor(private readonly source: string) {}

  read(): string[][] | undefined {
    for (let i = 0; i < this.source.length; i++) {
      i = this.step(i);
      if (i === UNSURE) return undefined;
    }
    // Unclosed: bash would not run it.
    if (this.open.length > 0) return undefined;
    this.endCommand();
    return this.commands;
  }

  private step(i: number): number {
    const s = this.source;
    const c = s[i]!;
    const next = s[i + 1];
    if (c === "'" || (c === "$" && next === "'")) return this.singleQuoted(i);
    if (c === '"') return this.doubleQuoted(i);
    if (c === "\\") return this.append(i, i + 2);
    if (c === " " || c === "\t") {
      this.endWord();
      return i;
    }
    if (c === "#" && !this.inWord) return this.comment(i);
    if (c === "<" || c === ">") return this.redirection(i);
    if (c === "&" && next === ">") return this.outputRedirection(i);
    if (c === "$") return this.dollar(i);
    if (c === "`") {
      if (this.open.at(-1)?.kind === "`") this.closeSubstitution();
      else this.openSubstitution("`");
      return i;
    }
    if (c === ")") return this.closeParen(i);
    if (c === "(") return this.openParen(i);
    if (";&|\n".includes(c)) {
      this.endCommand();
      return i;
    }
    return this.append(i, i + 1);
  }

  /** Adds `source[from, to)` to the current word; returns `to - 1`. */
  private append(from: number, to: number): number {
    this.word += this.source.slice(from, to);
    this.inWord = true;
    return to - 1;
  }

  /** `'…'` or `$'…'` (whose `\'` does not close it). */
  private singleQuoted(start: number): number {
    const s = this.source;
    const ansi = s[start] === "$";
    let i = ansi ? start + 2 : start + 1;
    for (; i < s.length && s[i] !== "'"; i++) {
      if (ansi && s[i] === "\\") i++;
    }
    if (i >= s.length) return UNSURE;
    return this.append(start, i + 1);
  }

  /** `"…"`: a substitution or arithmetic inside is code the splitter does not read. */
  private doubleQuoted(start: number): number {
    const s = this.source;
    let i = start + 1;
    for (; i < s.length && s[i] !== '"'; i++) {
      const d = s[i];
      if (d === "\\") i++;
      else if (d === "`" || (d === "$" && (s[i + 1] === "(" || s[i + 1] === "["))) return UNSURE;
      else if (d === "$" && s[i + 1] === "{") {
        i = this.simpleParamEnd(i);
        if (i === UNSURE) return UNSURE;
      }
    }
    if (i >= s.length) return UNSURE;
    return this.append(start, i + 1);
  }

  /** A `$` at `i` that starts `${…}`: the index of its `}`, or {@link UNSURE} when it has operators. */
  private simpleParamEnd(i: number): number {
    SIMPLE_PARAM.lastIndex = i;
    const m = SIMPLE_PARAM.exec(this.source);
    return m ? i + m[0].length - 1 : UNSURE;
  }

  /** `#` at the start of a word: the rest of the line is a comment. */
  private comment(i: number): number {
    const s = this.source;
    while (i < s.length && s[i] !== "\n") i++;
    this.endCommand();
    return i;
  }

  /** `<`, `>`, `2>`, `>>`, `>&2`, `<>`, …: the target is not a word of the command. */
  private redirection(i: number): number {
    const s = this.source;
    // Process substitution: its output is a file name another program may run or source.
    if (s[i + 1] === "(") return UNSURE;
    if (s.startsWith("<<", i) && s[i + 2] !== "<") return UNSURE;
    // `2>`: the fd number belongs to the redirection.
    if (/^\d+$/.test(this.word)) {
      this.word = "";
      this.inWord = false;
    }
    this.endWord();
    while (i + 1 < s.length && /[<>&|]/.test(s[i + 1]!)) i++;
    // `>&2`: the target is glued on; otherwise the next word is.
    this.dropNext = true;
    if (/\d|-/.test(s[i + 1] ?? "") && s[i] === "&") {
      while (i + 1 < s.length && /[\d-]/.test(s[i + 1]!)) i++;
      this.dropNext = false;
    }
    return i;
  }

  /** `&>file` and `&>>file`. */
  private outputRedirection(i: number): number {
    this.endWord();
    i++;
    if (this.source[i + 1] === ">") i++;
    this.dropNext = true;
    return i;
  }

  /** A `$` outside quotes. */
  private dollar(i: number): number {
    const s = this.source;
    const next = s[i + 1];
    if (next === "(") {
      // `$((…))` is arithmetic, whose array subscripts bash evaluates.
      if (s[i + 2] === "(") return UNSURE;
      this.openSubstitution("$(");
      return i + 1;
    }
    if (next === "[") return UNSURE;
    if (next === "{") {
      const end = this.simpleParamEnd(i);
      return end === UNSURE ? UNSURE : this.append(i, end + 1);
    }
    return this.append(i, i + 1);
  }

  private closeParen(i: number): number {
    if (this.open.at(-1)?.kind === "$(") this.closeSubstitution();
    else {
      this.open.pop();
      this.endCommand();
    }
    return i;
  }

  private openParen(i: number): number {
    // `((…))` is arithmetic; `f() {…}` defines a function and `a=(…)` an array.
    if (this.source[i + 1] === "(" || this.inWord || this.words.length > 0) return UNSURE;
    this.endCommand();
    this.open.push(null);
    return i;
  }

  private endWord(): void {
    if (!this.inWord) return;
    if (this.dropNext) this.dropNext = false;
    else this.words.push(this.word);
    this.word = "";
    this.inWord = false;
  }

  private endCommand(): void {
    this.endWord();
    if (this.words.length > 0) this.commands.push(this.words);
    this.words = [];
  }

  private openSubstitution(kind: "$(" | "`"): void {
    this.open.push({
      kind,
      words: this.words,
      word: this.inWord ? this.word : "",
      dropNext: this.dropNext,
    });
    this.words = [];
    this.word = "";
    this.inWord = false;
    this.dropNext = false;
  }

  private closeSubstitution(): void {
    this.endCommand();
    const outer = this.open.pop();
    if (!outer) return;
    this.words = outer.words;
    this.word = `${outer.word}$(…)`;
    this.inWord = true;
    this.dropNext = outer.dropNext;
  }
}
