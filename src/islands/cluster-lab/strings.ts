// UI strings of the cluster lab island, in every site language. Placeholders are {name}.

import { fill as fillUi, langOf, type Lang } from '../../i18n/ui.ts';

/** LabLang is the site language (src/i18n/ui.ts is the one list of languages). */
export type LabLang = Lang;

const en = {
  title: 'Live cluster: {scenario}',
  loading: 'The simulator loads when this section scrolls into view.',
  starting: 'Starting the simulator…',
  ready: 'Simulator ready. Seed {seed}.',
  failed: 'The simulator could not start: {error}',
  controls: 'Playback',
  play: 'Play',
  pause: 'Pause',
  step: 'Step to next event',
  speed: 'Speed',
  time: 'Virtual time',
  timeValue: '{time} of {until}',
  faults: 'Faults',
  faultNode: 'Node',
  nodeDown: 'Stop node',
  nodeUp: 'Start node',
  partition: 'Partition',
  heal: 'Heal',
  view: 'Cluster',
  viewHelp:
    'Control plane and nodes with their Pods. Choose a Pod or node to ask why it is as it is.',
  controlPlane: 'Control plane',
  nodes: 'Nodes',
  services: 'Services',
  noPods: 'No Pods',
  endpoints: '{n} ready endpoints',
  powerOff: 'powered off',
  partitioned: 'partitioned',
  running: 'Running',
  stopped: 'Stopped',
  console: 'kubectl console',
  consoleLabel: 'Command',
  consolePlaceholder: 'kubectl get pods   or   ssh node-1 crictl ps',
  consoleHelp:
    'Type kubectl commands (kubectl get pods -o wide, kubectl describe node node-1, kubectl delete pod NAME) or node commands over ssh (ssh node-1 crictl ps -a, ssh node-1 iptables-save -t nat, ssh control-plane ls /etc/kubernetes/manifests, ssh control-plane sudo systemctl status kubelet; cat and mv work too). Up and Down arrows recall earlier commands.',
  run: 'Run',
  output: 'Console output',
  unknownCommand: 'bash: {program}: command not found. Try kubectl … or ssh NODE crictl ps.',
  sshUsage: 'usage: ssh NODE COMMAND (for example ssh node-1 crictl ps)',
  why: 'Why?',
  whyTarget: 'Pod or node',
  whyChoose: 'Choose a Pod or node',
  whyNodes: 'Nodes',
  whyPods: 'Pods',
  whyHeading: 'Why is {name} as it is?',
  whyNone: 'Nothing has written to {name} in this run yet.',
  whyWrote: '{component} wrote {write}',
  whyFields: 'fields: {fields}',
  whyBecause: 'because',
  figures: 'Figures of my run',
  figuresSequence: 'Sequence of my run ({n} steps)',
  figuresTable: 'Components in my run',
  figuresMermaid: 'Mermaid source',
  announceNode: '{node} is {status}',
  announcePodDeleted: 'Pod {pod} deleted',
  announcePodCreated: 'Pod {pod} created on {node}',
  announcePodCreatedUnscheduled: 'Pod {pod} created',
  announcePodStatus: 'Pod {pod} is {status}',
  announceMore: 'and {n} more changes',
  morePods: '+ {n} more Pods on this node (kubectl get pods lists them all)',
  pendingPods: '{n} Pods wait for a node (Pending: kubectl describe pod says why)',
  announceFault: '{fault} on {node} at {time}',
  badHash:
    'The link’s saved lab state could not be read ({reason}), so the lab starts from the beginning of the scenario.',
  restored: 'Restored the lab at {time} with {n} actions.',
  faultNames: {
    'node-down': 'Stop node',
    'node-up': 'Start node',
    partition: 'Partition',
    heal: 'Heal',
  } as Record<string, string>,
};

export type LabStrings = typeof en;

const ja: LabStrings = {
  title: '動くクラスター: {scenario}',
  loading: 'この節が画面に入ると、シミュレーターを読み込みます。',
  starting: 'シミュレーターを起動しています…',
  ready: 'シミュレーターの準備ができました。シード {seed}。',
  failed: 'シミュレーターを起動できませんでした: {error}',
  controls: '再生',
  play: '再生',
  pause: '一時停止',
  step: '次のイベントまで進める',
  speed: '速度',
  time: '仮想時刻',
  timeValue: '{time} / {until}',
  faults: '障害',
  faultNode: 'ノード',
  nodeDown: 'ノードを停止',
  nodeUp: 'ノードを起動',
  partition: 'ネットワークを分断',
  heal: '分断を解消',
  view: 'クラスター',
  viewHelp:
    'コントロールプレーンと、各ノードとその Pod です。Pod やノードを選ぶと、なぜその状態なのかを調べられます。',
  controlPlane: 'コントロールプレーン',
  nodes: 'ノード',
  services: 'Service',
  noPods: 'Pod なし',
  endpoints: '準備済みエンドポイント {n} 個',
  powerOff: '電源オフ',
  partitioned: '分断中',
  running: '稼働中',
  stopped: '停止中',
  console: 'kubectl コンソール',
  consoleLabel: 'コマンド',
  consolePlaceholder: 'kubectl get pods または ssh node-1 crictl ps',
  consoleHelp:
    'kubectl のコマンド(kubectl get pods -o wide、kubectl describe node node-1、kubectl delete pod 名前)や、ssh 経由のノード上のコマンド(ssh node-1 crictl ps -a、ssh node-1 iptables-save -t nat、ssh control-plane ls /etc/kubernetes/manifests、ssh control-plane sudo systemctl status kubelet。cat と mv も使えます)を入力できます。上下の矢印キーで以前のコマンドを呼び出せます。',
  run: '実行',
  output: 'コンソールの出力',
  unknownCommand:
    'bash: {program}: コマンドが見つかりません。kubectl … か ssh ノード名 crictl ps を試してください。',
  sshUsage: '使い方: ssh ノード名 コマンド(例: ssh node-1 crictl ps)',
  why: 'なぜ?',
  whyTarget: 'Pod またはノード',
  whyChoose: 'Pod かノードを選んでください',
  whyNodes: 'ノード',
  whyPods: 'Pod',
  whyHeading: '{name} はなぜこの状態なのか',
  whyNone: 'この実行では、まだ {name} への書き込みはありません。',
  whyWrote: '{component} が {write} を書き込んだ',
  whyFields: 'フィールド: {fields}',
  whyBecause: 'きっかけ',
  figures: '自分の実行を図にする',
  figuresSequence: '自分の実行のシーケンス({n} ステップ)',
  figuresTable: '自分の実行に登場したコンポーネント',
  figuresMermaid: 'Mermaid のソース',
  announceNode: '{node} が {status} になりました',
  announcePodDeleted: 'Pod {pod} が削除されました',
  announcePodCreated: 'Pod {pod} が {node} に作成されました',
  announcePodCreatedUnscheduled: 'Pod {pod} が作成されました',
  announcePodStatus: 'Pod {pod} が {status} になりました',
  announceMore: 'ほか {n} 件の変化',
  morePods: 'このノードにはほかに {n} 個の Pod があります（kubectl get pods ですべて表示できます）',
  pendingPods: '{n} 個の Pod がノードへの割り当てを待っています（Pending。理由は kubectl describe pod で確認できます）',
  announceFault: '{time} に {node} で「{fault}」',
  badHash:
    'リンクに保存されたラボの状態を読み取れなかったため({reason})、シナリオの最初から始めます。',
  restored: '{time} の状態を、操作 {n} 件とともに復元しました。',
  faultNames: {
    'node-down': 'ノードを停止',
    'node-up': 'ノードを起動',
    partition: 'ネットワークを分断',
    heal: '分断を解消',
  },
};

export const STRINGS: Record<LabLang, LabStrings> = { en, ja };

/** labLang picks the language from a lang tag such as "ja" or "en-US". */
export function labLang(tag: string | null | undefined): LabLang {
  return langOf(tag ?? undefined);
}

/** fill replaces {name} placeholders (src/i18n/ui.ts). */
export const fill = fillUi;

/** formatClock formats virtual ms as m:ss. */
export function formatClock(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
