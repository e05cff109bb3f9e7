import { describe, expect, it } from 'vitest';
import { complete, consoleScript, localOutput, parseConsoleLine } from './console.ts';

describe('parseConsoleLine', () => {
  it('reads kubectl, ssh, help and the rest', () => {
    expect(parseConsoleLine('kubectl get pods')).toEqual({ kind: 'kubectl', args: 'get pods' });
    expect(parseConsoleLine('$ get pods -o wide')).toEqual({
      kind: 'kubectl',
      args: 'get pods -o wide',
    });
    expect(parseConsoleLine('ssh admin@node-1 sudo crictl ps')).toEqual({
      kind: 'exec',
      node: 'node-1',
      line: 'sudo crictl ps',
    });
    expect(parseConsoleLine('ssh node-1')).toEqual({ kind: 'ssh-usage' });
    expect(parseConsoleLine('help')).toEqual({ kind: 'help' });
    expect(parseConsoleLine('rm -rf /')).toEqual({ kind: 'unknown', program: 'rm' });
    expect(parseConsoleLine('  # a comment')).toEqual({ kind: 'empty' });
  });

  it('reads a script line by line', () => {
    expect(consoleScript('$ kubectl get pods\n\n# why\nssh node-1 ls\n')).toEqual([
      'kubectl get pods',
      'ssh node-1 ls',
    ]);
  });

  it('answers help, ssh usage and unknown programs itself, in both languages', () => {
    expect(localOutput({ kind: 'help' }, 'en')!.stdout).toContain('kubectl logs POD');
    expect(localOutput({ kind: 'help' }, 'ja')!.stdout).toContain('kubectl exec Pod');
    // The lab's help names its manifest editor, Tab and -w; a quiz task's console has none of them.
    for (const lang of ['en', 'ja'] as const) {
      const lab = localOutput({ kind: 'help' }, lang)!.stdout;
      const task = localOutput({ kind: 'help' }, lang, 'task')!.stdout;
      expect(lab).toMatch(/-w/);
      expect(lab).toMatch(/Tab/);
      expect(lab).toMatch(lang === 'en' ? /manifest editor/ : /マニフェストエディター/);
      expect(task).not.toMatch(/manifest|マニフェスト|Tab|-w\b|apply -f -/);
      expect(task).toContain('kubectl exec');
      expect(task).toContain('ssh');
    }
    expect(localOutput({ kind: 'unknown', program: 'rm' }, 'en')!.stderr).toMatch(
      /^bash: rm: command not found/,
    );
    expect(localOutput({ kind: 'kubectl', args: 'get pods' }, 'en')).toBeUndefined();
  });
});

describe('complete', () => {
  const names = {
    pods: ['web-a', 'web-b', 'db-0'],
    nodes: ['node-1', 'node-2', 'control-plane'],
    deployments: ['web'],
  };

  it('completes programs, kubectl commands and subcommands', () => {
    expect(complete('ku', names)).toEqual({ from: 0, candidates: ['kubectl'], common: 'kubectl' });
    expect(complete('kubectl de', names).candidates).toEqual(['delete', 'describe']);
    expect(complete('kubectl de', names).common).toBe('de');
    expect(complete('kubectl rollout s', names).candidates).toEqual(['status']);
  });

  it('completes resource types, then names of that type', () => {
    expect(complete('kubectl get po', names).candidates).toEqual(['poddisruptionbudgets', 'pods']);
    expect(complete('kubectl get pods', names).candidates).toEqual(['pods']);
    expect(complete('kubectl get pods web', names)).toEqual({
      from: 17,
      candidates: ['web-a', 'web-b'],
      common: 'web-',
    });
    expect(complete('kubectl describe no n', names).candidates).toEqual(['node-1', 'node-2']);
    expect(complete('kubectl get deployment/w', names).candidates).toEqual(['deployment/web']);
    expect(complete('kubectl rollout status deployment w', names).candidates).toEqual(['web']);
  });

  it('completes Pods for logs and exec, nodes for ssh and cordon', () => {
    expect(complete('kubectl logs d', names).candidates).toEqual(['db-0']);
    expect(complete('kubectl exec -c nginx w', names).candidates).toEqual(['web-a', 'web-b']);
    expect(complete('ssh c', names).candidates).toEqual(['control-plane']);
    expect(complete('ssh node-1 cr', names).candidates).toEqual(['crictl']);
    expect(complete('kubectl cordon node-', names).common).toBe('node-');
    expect(complete('kubectl get pods -', names).candidates).toEqual([]);
  });
});
