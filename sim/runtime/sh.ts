// The `sh` of a container image, for `kubectl exec POD -- sh -c '…'`: a small subset of the POSIX
// shell language as BusyBox ash (Alpine, BusyBox, curl and agnhost images) and dash (Debian-based
// images' /bin/sh) run it, with each shell's own error messages and exit statuses:
// simple commands with '…', "…" and \ quoting; $NAME, ${NAME}, $? and $(…) expansions with field
// splitting of unquoted results; NAME=value assignments; lists with ;, newlines, && and ||;
// `for NAME in WORDS; do LIST; done`; `exit [N]`. What a command does is the host's
// (sim/runtime/container-exec.ts): the shell only finds, runs and sequences commands.
// Simplification: no pipes, redirections, background jobs, subshells, globbing, functions, `if`,
// `while` or `case`; a script that uses them is refused with a message saying so (exit 2), not run.

/** CommandResult is what a command prints and returns. */
export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** ShellDialect is which shell an image's /bin/sh is: their messages differ. */
export type ShellDialect = 'ash' | 'dash';

/** ShellHost runs the commands a script names. */
export interface ShellHost {
  dialect: ShellDialect;
  /** run runs a program with the script's environment; undefined when there is no such program. */
  run(argv: string[], env: ReadonlyMap<string, string>): CommandResult | undefined;
  /** notFoundNote is a line to add after the shell's "not found" (why the program is missing). */
  notFoundNote?(name: string): string | undefined;
}

/** Part is one piece of a word: literal text or an expansion, and whether it was quoted. */
type Part =
  | { kind: 'text'; text: string; quoted: boolean }
  | { kind: 'var'; name: string; quoted: boolean }
  | { kind: 'sub'; script: string; quoted: boolean };

type Word = { parts: Part[]; line: number };

type Token = { kind: 'word'; word: Word; raw: string } | { kind: 'op'; op: string; line: number };

type Command =
  | { kind: 'simple'; words: Word[]; line: number }
  | { kind: 'for'; name: string; items: Word[]; body: List; line: number };

/** AndOr is a chain of commands joined by && and ||. */
type AndOr = { first: Command; rest: { op: '&&' | '||'; command: Command }[] };

type List = AndOr[];

/** ShellSyntaxError is a script the shell refuses before running anything. */
class ShellSyntaxError extends Error {
  readonly line: number;
  readonly unexpected: string;
  readonly expecting: string | undefined;
  constructor(line: number, unexpected: string, expecting?: string) {
    super(unexpected);
    this.line = line;
    this.unexpected = unexpected;
    this.expecting = expecting;
  }
}

/** Unsupported is a script using what this model of sh does not run. */
class Unsupported extends Error {}

const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** tokenize splits a script into words and operators, as the shell's lexer does. */
function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === ' ' || ch === '\t') {
      i++;
      continue;
    }
    if (ch === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (ch === '\n') {
      tokens.push({ kind: 'op', op: '\n', line });
      line++;
      i++;
      continue;
    }
    const two = src.slice(i, i + 2);
    if (two === '&&' || two === '||' || two === ';;') {
      tokens.push({ kind: 'op', op: two, line });
      i += 2;
      continue;
    }
    if (';|&<>()'.includes(ch)) {
      tokens.push({ kind: 'op', op: ch, line });
      i++;
      continue;
    }
    const start = i;
    const parts: Part[] = [];
    const text = (t: string, quoted: boolean): void => {
      const last = parts[parts.length - 1];
      if (last?.kind === 'text' && last.quoted === quoted) last.text += t;
      else parts.push({ kind: 'text', text: t, quoted });
    };
    const wordLine = line;
    while (i < src.length && !' \t\n;|&<>()'.includes(src[i]!)) {
      const c = src[i]!;
      if (c === "'") {
        const end = src.indexOf("'", i + 1);
        if (end < 0) throw new ShellSyntaxError(line, 'end of file', "'");
        text(src.slice(i + 1, end), true);
        line += countLines(src.slice(i, end));
        i = end + 1;
      } else if (c === '"') {
        i++;
        while (i < src.length && src[i] !== '"') {
          if (src[i] === '\\' && i + 1 < src.length && '$`"\\\n'.includes(src[i + 1]!)) {
            if (src[i + 1] !== '\n') text(src[i + 1]!, true);
            i += 2;
          } else if (src[i] === '$') {
            i = expansion(src, i, true, parts, text);
          } else {
            if (src[i] === '\n') line++;
            text(src[i]!, true);
            i++;
          }
        }
        if (i >= src.length) throw new ShellSyntaxError(line, 'end of file', '"');
        i++;
      } else if (c === '\\') {
        if (i + 1 < src.length && src[i + 1] !== '\n') text(src[i + 1]!, true);
        i += 2;
      } else if (c === '$') {
        i = expansion(src, i, false, parts, text);
      } else if (c === '`') {
        throw new Unsupported('`…` command substitution (use $(…))');
      } else if (c === '*' || c === '?' || c === '[') {
        // A glob with no match stays as written in sh; this model has no files to match.
        text(c, false);
        i++;
      } else {
        text(c, false);
        i++;
      }
    }
    tokens.push({ kind: 'word', word: { parts, line: wordLine }, raw: src.slice(start, i) });
  }
  return tokens;
}

function countLines(s: string): number {
  let n = 0;
  for (const c of s) if (c === '\n') n++;
  return n;
}

/** expansion reads $NAME, ${NAME}, $? or $(…) at src[i] and returns where it ends. */
function expansion(
  src: string,
  i: number,
  quoted: boolean,
  parts: Part[],
  text: (t: string, quoted: boolean) => void,
): number {
  const next = src[i + 1];
  if (next === '(') {
    if (src[i + 2] === '(') throw new Unsupported('$((…)) arithmetic');
    let depth = 1;
    let j = i + 2;
    let q: string | undefined;
    for (; j < src.length && depth > 0; j++) {
      const c = src[j]!;
      if (q) {
        if (c === q) q = undefined;
      } else if (c === "'" || c === '"') q = c;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
    }
    if (depth > 0) throw new ShellSyntaxError(0, 'end of file', ')');
    parts.push({ kind: 'sub', script: src.slice(i + 2, j - 1), quoted });
    return j;
  }
  if (next === '{') {
    const end = src.indexOf('}', i + 2);
    const name = end < 0 ? '' : src.slice(i + 2, end);
    if (!NAME_RE.test(name) && name !== '?')
      throw new Unsupported(`\${${name}} (only \${NAME} is modelled)`);
    parts.push({ kind: 'var', name, quoted });
    return end + 1;
  }
  if (next === '?') {
    parts.push({ kind: 'var', name: '?', quoted });
    return i + 2;
  }
  const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i + 1));
  if (m) {
    parts.push({ kind: 'var', name: m[0], quoted });
    return i + 1 + m[0].length;
  }
  text('$', quoted);
  return i + 1;
}

/** Parser builds the command list of a script from its tokens (the POSIX grammar's subset). */
class Parser {
  private pos = 0;
  private readonly tokens: Token[];
  constructor(tokens: Token[]) {
    this.tokens = tokens;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private lastLine(): number {
    const t = this.tokens[this.tokens.length - 1];
    return t ? (t.kind === 'op' ? t.line : t.word.line) : 1;
  }

  private isOp(op: string): boolean {
    const t = this.peek();
    return t?.kind === 'op' && t.op === op;
  }

  private isReserved(word: string): boolean {
    const t = this.peek();
    return t?.kind === 'word' && t.raw === word;
  }

  private skipNewlines(): void {
    while (this.isOp('\n')) this.pos++;
  }

  /** list parses commands until one of the reserved words in `until` (or the end). */
  list(until: string[] = []): List {
    const out: List = [];
    for (;;) {
      this.skipNewlines();
      const t = this.peek();
      if (!t || (t.kind === 'word' && until.includes(t.raw))) return out;
      out.push(this.andOr());
      const sep = this.peek();
      if (!sep) return out;
      if (sep.kind === 'op' && (sep.op === ';' || sep.op === '\n')) {
        this.pos++;
        continue;
      }
      if (sep.kind === 'word' && until.includes(sep.raw)) return out;
      throw this.unexpected(sep);
    }
  }

  private andOr(): AndOr {
    const first = this.command();
    const rest: AndOr['rest'] = [];
    while (this.isOp('&&') || this.isOp('||')) {
      const op = (this.tokens[this.pos++] as { op: '&&' | '||' }).op;
      this.skipNewlines();
      rest.push({ op, command: this.command() });
    }
    return { first, rest };
  }

  private command(): Command {
    const t = this.peek();
    if (!t) throw new ShellSyntaxError(this.lastLine(), 'end of file');
    if (t.kind === 'op') {
      if ('|&<>()'.includes(t.op) && t.op !== '&&')
        throw new Unsupported(
          t.op === '|'
            ? 'pipes'
            : t.op === '&'
              ? 'background jobs'
              : t.op === '(' || t.op === ')'
                ? 'subshells'
                : 'redirections',
        );
      throw this.unexpected(t);
    }
    if (t.raw === 'for') return this.forClause();
    if (['if', 'while', 'until', 'case', 'function', '{'].includes(t.raw))
      throw new Unsupported(`\`${t.raw}\``);
    if (['do', 'done', 'then', 'fi', 'in', 'esac', '}'].includes(t.raw)) throw this.unexpected(t);
    const words: Word[] = [];
    let next = this.peek();
    while (next?.kind === 'word') {
      words.push(next.word);
      this.pos++;
      next = this.peek();
    }
    if (next?.kind === 'op' && '|&<>()'.includes(next.op) && next.op !== '&&')
      throw new Unsupported(
        next.op === '|'
          ? 'pipes'
          : next.op === '&'
            ? 'background jobs'
            : next.op === '(' || next.op === ')'
              ? 'subshells'
              : 'redirections',
      );
    return { kind: 'simple', words, line: t.word.line };
  }

  private forClause(): Command {
    const forToken = this.tokens[this.pos++] as Extract<Token, { kind: 'word' }>;
    const nameToken = this.peek();
    if (!nameToken) throw new ShellSyntaxError(this.lastLine(), 'end of file');
    if (nameToken.kind !== 'word' || !NAME_RE.test(nameToken.raw))
      throw new ShellSyntaxError(forToken.word.line, `Bad for loop variable`);
    this.pos++;
    const items: Word[] = [];
    this.skipNewlines();
    if (this.isReserved('in')) {
      this.pos++;
      let t = this.peek();
      while (t?.kind === 'word') {
        items.push(t.word);
        this.pos++;
        t = this.peek();
      }
      if (t && t.kind === 'op' && (t.op === ';' || t.op === '\n')) this.pos++;
      else if (t) throw this.unexpected(t);
    } else if (this.isOp(';')) this.pos++;
    this.skipNewlines();
    if (!this.isReserved('do')) {
      const t = this.peek();
      if (!t) throw new ShellSyntaxError(this.lastLine(), 'end of file', 'do');
      throw this.unexpected(t, 'do');
    }
    this.pos++;
    const body = this.list(['done']);
    if (!this.isReserved('done'))
      throw new ShellSyntaxError(this.lastLine(), 'end of file', 'done');
    if (body.length === 0) throw this.unexpected(this.peek()!);
    this.pos++;
    return { kind: 'for', name: nameToken.raw, items, body, line: forToken.word.line };
  }

  private unexpected(t: Token, expecting?: string): ShellSyntaxError {
    if (t.kind === 'op')
      return new ShellSyntaxError(t.line, t.op === '\n' ? 'newline' : `"${t.op}"`, expecting);
    return new ShellSyntaxError(t.word.line, `"${t.raw}"`, expecting);
  }
}

/** ExitSignal carries `exit N` out of the loops and lists that run it. */
class ExitSignal {
  readonly code: number;
  constructor(code: number) {
    this.code = code;
  }
}

/** Shell is one run of a script: its variables, its output so far and the last exit status. */
class Shell {
  readonly vars: Map<string, string>;
  stdout = '';
  stderr = '';
  status = 0;
  private readonly host: ShellHost;

  constructor(host: ShellHost, env: ReadonlyMap<string, string>) {
    this.host = host;
    this.vars = new Map(env);
  }

  /** err writes a shell diagnostic as this shell words it (dash names the script's line). */
  private err(line: number, message: string): void {
    this.stderr += this.host.dialect === 'dash' ? `sh: ${line}: ${message}\n` : `sh: ${message}\n`;
  }

  runList(list: List): void {
    for (const ao of list) this.runAndOr(ao);
  }

  private runAndOr(ao: AndOr): void {
    this.runCommand(ao.first);
    for (const { op, command } of ao.rest) {
      if ((op === '&&') === (this.status === 0)) this.runCommand(command);
    }
  }

  private runCommand(c: Command): void {
    if (c.kind === 'for') {
      const items = c.items.flatMap((w) => this.expand(w));
      this.status = 0;
      for (const item of items) {
        this.vars.set(c.name, item);
        this.runList(c.body);
      }
      return;
    }
    const fields: string[] = [];
    const assignments: [string, string][] = [];
    for (const w of c.words) {
      const first = w.parts[0];
      const eq = first?.kind === 'text' && !first.quoted ? first.text.indexOf('=') : -1;
      if (
        fields.length === 0 &&
        eq > 0 &&
        NAME_RE.test((first as { text: string }).text.slice(0, eq))
      ) {
        const name = (first as { text: string }).text.slice(0, eq);
        const rest: Part[] = [
          {
            ...(first as Extract<Part, { kind: 'text' }>),
            text: (first as { text: string }).text.slice(eq + 1),
          },
          ...w.parts.slice(1),
        ];
        assignments.push([name, this.expand({ parts: rest, line: w.line }, false).join('')]);
        continue;
      }
      fields.push(...this.expand(w));
    }
    if (fields.length === 0) {
      for (const [k, v] of assignments) this.vars.set(k, v);
      this.status = 0;
      return;
    }
    const [prog, ...args] = fields as [string, ...string[]];
    if (prog === 'exit') {
      if (args.length === 0) throw new ExitSignal(this.status);
      if (!/^\d+$/.test(args[0]!)) {
        this.err(c.line, `exit: Illegal number: ${args[0]}`);
        throw new ExitSignal(2);
      }
      throw new ExitSignal(Number(args[0]) & 255);
    }
    const env = new Map(this.vars);
    for (const [k, v] of assignments) env.set(k, v);
    const r = this.host.run([prog, ...args], env);
    if (!r) {
      this.err(c.line, `${prog}: not found`);
      const note = this.host.notFoundNote?.(prog);
      if (note) this.stderr += `${note}\n`;
      this.status = 127;
      return;
    }
    this.stdout += r.stdout;
    this.stderr += r.stderr;
    this.status = r.exitCode;
  }

  /** expand turns a word into fields: expansions, then splitting of unquoted results. */
  private expand(w: Word, split = true): string[] {
    const fields: string[] = [];
    let cur = '';
    let has = false;
    const addSplit = (value: string): void => {
      const pieces = value.split(/[ \t\n]+/);
      pieces.forEach((p, idx) => {
        if (idx > 0 && (has || cur)) {
          fields.push(cur);
          cur = '';
          has = false;
        }
        if (p) {
          cur += p;
          has = true;
        }
      });
    };
    for (const p of w.parts) {
      let value: string;
      if (p.kind === 'text') {
        cur += p.text;
        has = true;
        continue;
      }
      if (p.kind === 'var')
        value = p.name === '?' ? String(this.status) : (this.vars.get(p.name) ?? '');
      else value = this.substitute(p.script);
      if (p.quoted || !split) {
        cur += value;
        has = true;
      } else addSplit(value);
    }
    if (has) fields.push(cur);
    return fields;
  }

  /** substitute runs $(…) in a subshell and returns its output without trailing newlines. */
  private substitute(script: string): string {
    const sub = runScript(this.host, script, this.vars);
    this.stderr += sub.stderr;
    this.status = sub.exitCode;
    return sub.stdout.replace(/\n+$/, '');
  }
}

/**
 * runScript runs a script as `sh -c SCRIPT` does: syntax errors first (nothing runs, exit 2),
 * then each command in turn; the exit status is the last command's, or exit's.
 */
export function runScript(
  host: ShellHost,
  script: string,
  env: ReadonlyMap<string, string>,
): CommandResult {
  let list: List;
  try {
    const parser = new Parser(tokenize(script));
    list = parser.list();
  } catch (e) {
    if (e instanceof ShellSyntaxError)
      return { stdout: '', stderr: syntaxMessage(host.dialect, e), exitCode: 2 };
    if (e instanceof Unsupported)
      return {
        stdout: '',
        stderr: `sh: this simulator's sh does not run ${e.message}: it runs commands with ;, &&, ||, for NAME in …; do …; done, $VAR, $(…) and exit\n`,
        exitCode: 2,
      };
    throw e;
  }
  const shell = new Shell(host, env);
  try {
    shell.runList(list);
  } catch (e) {
    if (!(e instanceof ExitSignal)) throw e;
    shell.status = e.code;
  }
  return { stdout: shell.stdout, stderr: shell.stderr, exitCode: shell.status };
}

/** syntaxMessage words a syntax error as each shell does. */
function syntaxMessage(dialect: ShellDialect, e: ShellSyntaxError): string {
  const expecting = e.expecting ? ` (expecting "${e.expecting}")` : '';
  if (e.unexpected === 'Bad for loop variable')
    return dialect === 'dash'
      ? `sh: ${e.line}: Syntax error: Bad for loop variable\n`
      : `sh: syntax error: bad for loop variable\n`;
  if (dialect === 'dash')
    return e.unexpected === 'end of file'
      ? `sh: ${e.line}: Syntax error: end of file unexpected${expecting}\n`
      : `sh: ${e.line}: Syntax error: ${e.unexpected} unexpected${expecting}\n`;
  return `sh: syntax error: unexpected ${e.unexpected === 'end of file' ? 'end of file' : e.unexpected}${expecting}\n`;
}
