import { describe, expect, it } from 'vitest';
import { runScript, type ShellDialect, type ShellHost } from './sh.ts';

/** host runs echo, true, false and seq, and records every argv it was asked to run. */
function host(dialect: ShellDialect = 'ash'): ShellHost & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    dialect,
    calls,
    run(argv, env) {
      calls.push(argv);
      const [prog, ...args] = argv;
      if (prog === 'echo') return { stdout: `${args.join(' ')}\n`, stderr: '', exitCode: 0 };
      if (prog === 'true') return { stdout: '', stderr: '', exitCode: 0 };
      if (prog === 'false') return { stdout: '', stderr: '', exitCode: 1 };
      if (prog === 'printenv')
        return { stdout: `${env.get(args[0]!) ?? ''}\n`, stderr: '', exitCode: 0 };
      if (prog === 'seq')
        return {
          stdout: Array.from({ length: Number(args[0]) }, (_, i) => `${i + 1}\n`).join(''),
          stderr: '',
          exitCode: 0,
        };
      return undefined;
    },
  };
}

const sh = (script: string, h: ShellHost = host(), env = new Map<string, string>()) =>
  runScript(h, script, env);

describe('sh -c', () => {
  it('runs a list in order: ;, newlines, && and || by the last status', () => {
    expect(sh('echo a; echo b\necho c').stdout).toBe('a\nb\nc\n');
    expect(sh('false && echo no || echo yes').stdout).toBe('yes\n');
    expect(sh('true && echo yes || echo no').stdout).toBe('yes\n');
    expect(sh('false; echo $?').stdout).toBe('1\n');
    expect(sh('false').exitCode).toBe(1);
    expect(sh('false; true').exitCode).toBe(0);
  });

  it('loops over the fields of $(…), so one line can send a hundred requests', () => {
    const h = host();
    const r = sh('for i in $(seq 100); do echo req $i; done', h);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(100);
    expect(r.stdout.startsWith('req 1\nreq 2\n')).toBe(true);
    expect(h.calls.filter((c) => c[0] === 'echo')).toHaveLength(100);
  });

  it('expands variables, quoted and not, and splits only unquoted results', () => {
    const env = new Map([['A', 'x  y']]);
    const h = host();
    sh('echo $A; echo "$A"; echo ${A}z; echo \'$A\'', h, env);
    expect(h.calls).toEqual([
      ['echo', 'x', 'y'],
      ['echo', 'x  y'],
      ['echo', 'x', 'yz'],
      ['echo', '$A'],
    ]);
    expect(sh('B=1; echo $B$B').stdout).toBe('11\n');
    expect(sh('C=2 printenv C; echo "[$C]"').stdout).toBe('2\n[]\n');
  });

  it('exit ends the script with its status, and anything after it does not run', () => {
    const r = sh('echo a; exit 3; echo b');
    expect(r).toEqual({ stdout: 'a\n', stderr: '', exitCode: 3 });
    expect(sh('false; exit').exitCode).toBe(1);
    expect(sh('for i in 1 2 3; do echo $i; exit 7; done').stdout).toBe('1\n');
    expect(sh('exit x')).toEqual({
      stdout: '',
      stderr: 'sh: exit: Illegal number: x\n',
      exitCode: 2,
    });
    expect(sh('exit x', host('dash')).stderr).toBe('sh: 1: exit: Illegal number: x\n');
  });

  it('a missing program is the shell’s "not found", exit 127, in each shell’s words', () => {
    expect(sh('ech hi')).toEqual({ stdout: '', stderr: 'sh: ech: not found\n', exitCode: 127 });
    expect(sh('echo a\nech hi', host('dash')).stderr).toBe('sh: 2: ech: not found\n');
  });

  it('a syntax error runs nothing: exit 2 with the shell’s message', () => {
    const h = host();
    expect(sh('echo a; for i in 1 2; do echo $i', h)).toEqual({
      stdout: '',
      stderr: 'sh: syntax error: unexpected end of file (expecting "done")\n',
      exitCode: 2,
    });
    expect(h.calls).toEqual([]);
    expect(sh('for i in 1 2; do echo $i', host('dash')).stderr).toBe(
      'sh: 1: Syntax error: end of file unexpected (expecting "done")\n',
    );
    expect(sh('echo a; ; echo b').stderr).toBe('sh: syntax error: unexpected ";"\n');
    expect(sh('done', host('dash')).stderr).toBe('sh: 1: Syntax error: "done" unexpected\n');
  });

  it('says plainly what it does not model instead of running it wrong', () => {
    for (const script of [
      'echo a | wc -l',
      'echo a > /tmp/x',
      'if true; then echo a; fi',
      'sleep 1 &',
    ])
      expect(sh(script).exitCode, script).toBe(2);
    expect(sh('echo a | wc -l').stderr).toMatch(/^sh: this simulator's sh does not run pipes:/);
  });
});
