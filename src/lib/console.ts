// The one console grammar, for the cluster lab's console and the quiz's task answers: how a line
// is read (kubectl, ssh NODE COMMAND, help), what `help` prints, and what Tab completes. Pure: no
// DOM, no simulator state beyond the names it is given.

import { API_RESOURCES } from '../../sim/apiserver/discovery.ts';
import { subcommandsOf, topLevelNames } from '../../sim/kubectl/cmd/index.ts';
import { KUBECTL_COMMANDS } from '../../sim/kubectl/parse.ts';
import type { Lang } from '../i18n/ui.ts';

/** ConsoleLine is a console line, read. */
export type ConsoleLine =
  | { kind: 'empty' }
  | { kind: 'help' }
  /** args are kubectl's arguments, without the leading "kubectl". */
  | { kind: 'kubectl'; args: string }
  /** exec runs line in node's shell (sim/node/shell.ts), as `ssh NODE COMMAND` does. */
  | { kind: 'exec'; node: string; line: string }
  | { kind: 'ssh-usage' }
  | { kind: 'unknown'; program: string };

/**
 * parseConsoleLine reads one line. A leading "$ " prompt is dropped; blank lines and # comments
 * are empty. `kubectl ARGS` runs kubectl, and so does a line that starts with one of kubectl's own
 * commands (`get pods`), since a quiz answer may leave "kubectl" out. `ssh [USER@]NODE COMMAND`
 * runs COMMAND on NODE; `curl ...` runs on the workstation outside the cluster. `help` lists what the console accepts. Anything else is a program the
 * console does not have, as a shell says.
 */
export function parseConsoleLine(raw: string): ConsoleLine {
  const line = raw.trim().replace(/^\$\s*/, '');
  if (line === '' || line.startsWith('#')) return { kind: 'empty' };
  const program = line.split(/\s+/, 1)[0] ?? '';
  if (program === 'help') return { kind: 'help' };
  if (program === 'kubectl') return { kind: 'kubectl', args: line.slice(7).trim() };
  if (program === 'ssh') {
    const m = /^ssh(?:\s+(\S+)(?:\s+(.*))?)?$/.exec(line);
    if (!m?.[1] || !m[2]?.trim()) return { kind: 'ssh-usage' };
    // ssh admin@control-plane reaches the same machine as ssh control-plane.
    return { kind: 'exec', node: m[1].replace(/^[^@]*@/, ''), line: m[2].trim() };
  }
  // curl at the prompt runs on the learner's workstation, outside the cluster (Cluster.exec's
  // "workstation"): it reaches LoadBalancer addresses and node addresses on NodePorts.
  if (program === 'curl') return { kind: 'exec', node: 'workstation', line };
  if (KUBECTL_COMMANDS.includes(program)) return { kind: 'kubectl', args: line };
  return { kind: 'unknown', program };
}

/**
 * consoleScript reads a multi-line console answer: one command per line, blanks and # comments
 * skipped, each line as it would be typed (prompt dropped).
 */
export function consoleScript(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim().replace(/^\$\s*/, ''))
    .filter((l) => parseConsoleLine(l).kind !== 'empty');
}

/** lineLabel is how a read line shows in a transcript: `kubectl get pods`, `ssh node-1 ls`. */
export function lineLabel(c: ConsoleLine, raw: string): string {
  if (c.kind === 'kubectl') return `kubectl ${c.args}`.trimEnd();
  if (c.kind === 'exec') return c.node === 'workstation' ? c.line : `ssh ${c.node} ${c.line}`;
  return raw.trim();
}

/**
 * COMMAND_LINES are the commands both consoles run, one help line each; `get` is first, as the lab
 * adds `-w` to it and the manifest editor's apply after it.
 */
const COMMAND_LINES = {
  en: {
    get: 'kubectl get|describe TYPE [NAME] [-o wide|yaml|json] [-l SELECTOR] [-A]',
    apply: 'kubectl apply -f -          (use the manifest editor below the console)',
    rest: `  kubectl create deployment NAME --image=IMAGE [--replicas=N]
  kubectl create pdb NAME --selector=SELECTOR --min-available=N|--max-unavailable=N
  kubectl create service clusterip|nodeport|loadbalancer NAME --tcp=PORT[:TARGET]
  kubectl create service externalname NAME --external-name=HOST
  kubectl expose deployment|pod|service NAME --port=N [--target-port=N] [--type=TYPE]
  kubectl scale|set image|rollout status|history|undo|restart deployment NAME ...
  kubectl delete TYPE NAME    kubectl cordon|uncordon|drain NODE    kubectl label|taint ...
  kubectl logs POD [-c CONTAINER]      (simulated containers write no log lines)
  kubectl exec POD [-c CONTAINER] -- hostname | env | cat /etc/resolv.conf | nslookup NAME
                              | curl [-sSvIf] [-m SECS] [-H HEADER] URL | wget -qO- URL | sh -c '...'
                              (sh: ;, &&, ||, for i in $(seq N); do ...; done, exit N)
  kubectl events [--for TYPE/NAME] [--types=Warning] [-A]
  kubectl api-resources       kubectl version
  ssh NODE COMMAND            (crictl ps|pods|images, iptables-save -t nat, nft list ruleset,
                               ipvsadm -Ln, ls, cat, mv,
                               systemctl status|start|stop|restart kubelet; sudo is accepted)
  curl [-sSvI] [-H HEADER] http://ADDRESS[:PORT]/PATH
                              (from a workstation outside the cluster: a LoadBalancer's
                               EXTERNAL-IP, or a node's address and a NodePort)
  help                        (this list)`,
  },
  ja: {
    get: 'kubectl get|describe 種類 [名前] [-o wide|yaml|json] [-l セレクター] [-A]',
    apply: 'kubectl apply -f -          (コンソールの下のマニフェストエディターを使う)',
    rest: `  kubectl create deployment 名前 --image=イメージ [--replicas=N]
  kubectl create pdb 名前 --selector=セレクター --min-available=N|--max-unavailable=N
  kubectl create service clusterip|nodeport|loadbalancer 名前 --tcp=ポート[:転送先]
  kubectl create service externalname 名前 --external-name=ホスト名
  kubectl expose deployment|pod|service 名前 --port=N [--target-port=N] [--type=種類]
  kubectl scale|set image|rollout status|history|undo|restart deployment 名前 ...
  kubectl delete 種類 名前    kubectl cordon|uncordon|drain ノード    kubectl label|taint ...
  kubectl logs Pod [-c コンテナ]      (シミュレーターのコンテナはログを出力しない)
  kubectl exec Pod [-c コンテナ] -- hostname | env | cat /etc/resolv.conf | nslookup 名前
                              | curl [-sSvIf] [-m 秒] [-H ヘッダー] URL | wget -qO- URL | sh -c '...'
                              (sh では ;、&&、||、for i in $(seq N); do ...; done、exit N が使える)
  kubectl events [--for 種類/名前] [--types=Warning] [-A]
  kubectl api-resources       kubectl version
  ssh ノード名 コマンド       (crictl ps|pods|images、iptables-save -t nat、nft list ruleset、
                               ipvsadm -Ln、ls、cat、mv、
                               systemctl status|start|stop|restart kubelet。sudo も使える)
  curl [-sSvI] [-H ヘッダー] http://アドレス[:ポート]/パス
                              (クラスターの外のワークステーションから。LoadBalancer の
                               EXTERNAL-IP、またはノードのアドレスと NodePort)
  help                        (この一覧)`,
  },
} satisfies Record<Lang, unknown>;

const en = COMMAND_LINES.en;
const ja = COMMAND_LINES.ja;

const MESSAGES = {
  en: {
    unknown: (p: string) =>
      `bash: ${p}: command not found. Try kubectl …, ssh NODE crictl ps, or help.`,
    sshUsage: 'usage: ssh NODE COMMAND (for example ssh node-1 crictl ps)',
    help: `This console accepts:
  ${en.get} [-w]
  ${en.apply}
${en.rest}
Tab completes commands, resource types and names; Up and Down recall earlier lines;
Escape or Ctrl+C stops a kubectl get -w.`,
    taskHelp: `This task console runs the lines above, one command per line, at the task's start:
Run shows what they print, Check runs them and lets the cluster settle. It accepts:
  ${en.get}
${en.rest}
"kubectl" may be left out (get pods); a line starting with # is a comment.`,
  },
  ja: {
    unknown: (p: string) =>
      `bash: ${p}: コマンドが見つかりません。kubectl …、ssh ノード名 crictl ps、または help を試してください。`,
    sshUsage: '使い方: ssh ノード名 コマンド(例: ssh node-1 crictl ps)',
    help: `このコンソールで使えるコマンド:
  ${ja.get} [-w]
  ${ja.apply}
${ja.rest}
Tab キーでコマンド、リソースの種類、名前を補完できます。上下の矢印キーで以前の行を呼び出せます。
kubectl get -w は Escape か Ctrl+C で止まります。`,
    taskHelp: `この課題のコンソールは、上の欄の行を 1 行に 1 コマンドずつ、課題の開始時点で実行します。
「実行」は出力を表示し、「答え合わせ」は実行してクラスターが落ち着いてから採点します。使えるコマンド:
  ${ja.get}
${ja.rest}
「kubectl」は省略できます(get pods)。# で始まる行はコメントです。`,
  },
} satisfies Record<Lang, unknown>;

/**
 * ConsoleWhere is which console answers: the lab's (interactive: the manifest editor, Tab, history,
 * kubectl get -w streaming) or a quiz task's (a script of lines run once at the task's start, with
 * no stdin, no completion and nothing that streams), so `help` lists only what that one supports.
 */
export type ConsoleWhere = 'lab' | 'task';

/**
 * localOutput is what the console itself prints for a line that runs nothing in the cluster
 * (help, ssh usage, an unknown program), or undefined for a line the cluster answers.
 */
export function localOutput(
  c: ConsoleLine,
  lang: Lang,
  where: ConsoleWhere = 'lab',
): { stdout: string; stderr: string; exitCode: number } | undefined {
  const m = MESSAGES[lang];
  switch (c.kind) {
    case 'help':
      return { stdout: `${where === 'task' ? m.taskHelp : m.help}\n`, stderr: '', exitCode: 0 };
    case 'ssh-usage':
      return { stdout: '', stderr: `${m.sshUsage}\n`, exitCode: 255 };
    case 'unknown':
      return { stdout: '', stderr: `${m.unknown(c.program)}\n`, exitCode: 127 };
    default:
      return undefined;
  }
}

// ---- Tab completion ----

/** Names are the objects completion can offer, by resource ("pods", "nodes", ...). */
export type Names = Partial<Record<string, string[]>>;

/** KUBECTL_VERBS are the kubectl commands the simulator runs, offered after "kubectl". */
export const KUBECTL_VERBS = topLevelNames();

const SUBCOMMANDS: Record<string, string[]> = Object.fromEntries(
  KUBECTL_VERBS.map((v) => [v, subcommandsOf(v)] as const).filter(([, subs]) => subs.length > 0),
);

const NODE_COMMANDS = [
  'cat',
  'crictl',
  'iptables-save',
  'ipvsadm',
  'ls',
  'mv',
  'nft',
  'sudo',
  'systemctl',
];

/** VALUE_FLAGS are the flags whose value is the next word. */
const VALUE_FLAGS = new Set(
  ['c', 'n', 'o', 'l', 'f', 'r']
    .map((f) => `-${f}`)
    .concat(
      ['container', 'namespace', 'output', 'selector', 'filename', 'image', 'replicas'].map(
        (f) => `--${f}`,
      ),
      ['field-selector', 'sort-by', 'grace-period', 'tail', 'revision', 'to-revision'].map(
        (f) => `--${f}`,
      ),
    ),
);

/** TYPE_VERBS take a resource type, then names of that type. */
const TYPE_VERBS = new Set(['get', 'describe', 'delete', 'label', 'scale']);
/** POD_VERBS and NODE_VERBS take names directly. */
const POD_VERBS = new Set(['logs', 'exec']);
const NODE_VERBS = new Set(['cordon', 'uncordon', 'drain', 'taint']);

function typeOf(word: string) {
  const w = word.toLowerCase();
  return API_RESOURCES.find(
    (t) => t.resource === w || t.kind.toLowerCase() === w || t.shortNames.includes(w),
  );
}

/** Completion is what Tab offers for the word before the cursor. */
export interface Completion {
  /** from is where the word being completed starts in the line. */
  from: number;
  /** candidates are the words that fit, sorted. */
  candidates: string[];
  /** common is the longest prefix every candidate shares (at least the typed word). */
  common: string;
}

/** complete returns what Tab offers at the end of line (only the end is completed). */
export function complete(line: string, names: Names): Completion {
  const from = /\S*$/.exec(line)!.index;
  const word = line.slice(from);
  const before = line.slice(0, from).trim().split(/\s+/).filter(Boolean);
  const pool = candidatesFor(before, word, names);
  const candidates = [...new Set(pool.filter((c) => c.startsWith(word)))].sort();
  let common = candidates[0] ?? word;
  for (const c of candidates) while (!c.startsWith(common)) common = common.slice(0, -1);
  if (common.length < word.length) common = word;
  return { from, candidates, common };
}

function candidatesFor(before: string[], word: string, names: Names): string[] {
  if (before.length === 0) return ['curl', 'help', 'kubectl', 'ssh'];
  const [program, ...rest] = before;
  if (program === 'ssh') {
    if (rest.length === 0) return names.nodes ?? [];
    return rest.length === 1 ? NODE_COMMANDS : [];
  }
  if (program !== 'kubectl') return [];
  // Flags and their values are left as typed.
  const words: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i] ?? '';
    if (w === '--') break;
    if (VALUE_FLAGS.has(w)) i++;
    else if (!w.startsWith('-')) words.push(w);
  }
  if (rest.includes('--')) return [];
  if (word.startsWith('-')) return [];
  if (words.length === 0) return KUBECTL_VERBS;
  const [verb = '', ...args] = words;
  const subs = SUBCOMMANDS[verb];
  if (subs && args.length === 0) return subs;
  if (POD_VERBS.has(verb)) return args.length === 0 ? (names.pods ?? []) : [];
  if (NODE_VERBS.has(verb)) return args.length === 0 ? (names.nodes ?? []) : [];
  const typeArgs = verb === 'rollout' || verb === 'set' ? args.slice(1) : args;
  if (!TYPE_VERBS.has(verb) && verb !== 'rollout' && verb !== 'set') return [];
  // TYPE/NAME: names of that type after the slash.
  const slash = word.indexOf('/');
  if (slash >= 0) {
    const t = typeOf(word.slice(0, slash));
    return t ? (names[t.resource] ?? []).map((n) => `${word.slice(0, slash)}/${n}`) : [];
  }
  if (typeArgs.length === 0)
    return verb === 'rollout' || verb === 'set'
      ? ['deployment', 'daemonset']
      : API_RESOURCES.filter((t) => t.sharesStorageWith === undefined).map((t) => t.resource);
  const t = typeOf(typeArgs[0] ?? '');
  return t ? (names[t.resource] ?? []) : [];
}
