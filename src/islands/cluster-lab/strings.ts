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
    'Type kubectl commands (kubectl get pods -o wide, kubectl get pods -w, kubectl logs POD, kubectl exec POD -- hostname) or node commands over ssh (ssh node-1 crictl ps -a, ssh control-plane sudo systemctl status kubelet). help lists them all. Tab completes commands and names (when nothing fits, Tab moves on); Up and Down recall earlier commands.',
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
  whyResult: 'set {result}',
  whyLease:
    'the node’s Lease {lease} was last renewed at {last} s; {silent} s then passed with no renewal and no status update, more than node-monitor-grace-period ({grace} s), so the controller marked the node Unknown',
  whyLeaseNever:
    'the node’s Lease {lease} was never renewed; {silent} s passed, more than the grace period ({grace} s)',
  whyFault: '{fault} on {node}, done by {by}',
  whyFaultBy: { learner: 'you', scenario: 'the scenario' } as Record<string, string>,
  whyToleration:
    '{pod} tolerates {taint} for {seconds} s (tolerationSeconds); when that ran out, taint-eviction-controller deleted it',
  whyTolerationDefault:
    '{pod} tolerates {taint} for {seconds} s (tolerationSeconds, the default the DefaultTolerationSeconds admission plugin adds); when that ran out, taint-eviction-controller deleted it',
  whyTaint: 'the NoExecute taint {taint} was added to {node}',
  figures: 'Figures of my run',
  figuresSequence: 'Sequence of my run, {from} to {to} ({n} arrows)',
  figuresAround: 'Around',
  figuresNow: 'now ({time})',
  figuresSpan: 'Window',
  figuresSpans: {
    '60000': '1 min',
    '300000': '5 min',
    '600000': '10 min',
    '0': 'whole run',
  } as Record<string, string>,
  figuresHeartbeats: 'Show heartbeats (Lease renewals, node status)',
  figuresLeftOut: '{n} heartbeats (Lease renewals and unchanged node status) are left out.',
  figuresScroll: 'Sequence diagram; scroll to see all of it',
  figuresSteps: 'The steps as text',
  watching: 'Watching: new rows appear as time plays. Escape or Ctrl+C stops.',
  completions: '{n} completions: {list}',
  manifest: 'Manifest editor',
  manifestLabel: 'Manifest (YAML; several documents separated by ---)',
  manifestApply: 'Apply',
  manifestHelp:
    'Apply sends the text to kubectl apply -f - , as a scenario’s apply step does. kubectl’s messages, with line numbers, appear here and in the console.',
  manifestEmpty: 'The manifest is empty: write or paste YAML first.',
  manifestTooLong: 'The manifest is longer than {n} characters; apply it in parts.',
  manifestLine: 'kubectl apply -f -   (manifest editor)',
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
    'kubelet-stop': 'Stop kubelet',
    'kubelet-start': 'Start kubelet',
    'apiserver-down': 'Stop kube-apiserver',
    'apiserver-up': 'Start kube-apiserver',
    'etcd-down': 'Stop etcd',
    'etcd-up': 'Start etcd',
    'etcd-member-down': 'Stop etcd member',
    'etcd-member-up': 'Start etcd member',
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
    'kubectl のコマンド(kubectl get pods -o wide、kubectl get pods -w、kubectl logs Pod 名、kubectl exec Pod 名 -- hostname)や、ssh 経由のノード上のコマンド(ssh node-1 crictl ps -a、ssh control-plane sudo systemctl status kubelet)を入力できます。help で一覧を表示します。Tab キーでコマンドや名前を補完します(候補がなければ次の項目へ移動します)。上下の矢印キーで以前のコマンドを呼び出せます。',
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
  whyResult: '{result} を設定',
  whyLease:
    'ノードの Lease {lease} は {last} 秒に更新されたのが最後で、その後 {silent} 秒間、更新もステータスの報告もなかった。node-monitor-grace-period({grace} 秒)を超えたため、コントローラーはノードを Unknown にした',
  whyLeaseNever:
    'ノードの Lease {lease} は一度も更新されず、猶予期間({grace} 秒)を超える {silent} 秒が過ぎた',
  whyFault: '{node} で「{fault}」({by}が実行)',
  whyFaultBy: { learner: 'あなた', scenario: 'シナリオ' },
  whyToleration:
    '{pod} は {taint} を {seconds} 秒間許容する(tolerationSeconds)。その時間が過ぎたので taint-eviction-controller が削除した',
  whyTolerationDefault:
    '{pod} は {taint} を {seconds} 秒間許容する(tolerationSeconds。DefaultTolerationSeconds アドミッションプラグインが付ける既定値)。その時間が過ぎたので taint-eviction-controller が削除した',
  whyTaint: '{node} に NoExecute の taint {taint} が付けられた',
  figures: '自分の実行を図にする',
  figuresSequence: '自分の実行のシーケンス({from}〜{to}、矢印 {n} 本)',
  figuresAround: '基準',
  figuresNow: '現在({time})',
  figuresSpan: '範囲',
  figuresSpans: { '60000': '1 分', '300000': '5 分', '600000': '10 分', '0': '実行全体' },
  figuresHeartbeats: 'ハートビート(Lease の更新、ノードのステータス)も表示する',
  figuresLeftOut:
    'ハートビート {n} 件(Lease の更新と、変化のないノードのステータス)は省いています。',
  figuresScroll: 'シーケンス図。スクロールすると全体を見られます',
  figuresSteps: 'ステップをテキストで見る',
  watching: '監視中: 時間が進むと新しい行が表示されます。Escape か Ctrl+C で止まります。',
  completions: '補完候補 {n} 件: {list}',
  manifest: 'マニフェストエディター',
  manifestLabel: 'マニフェスト(YAML。複数のドキュメントは --- で区切る)',
  manifestApply: '適用',
  manifestHelp:
    '「適用」を押すと、シナリオの apply ステップと同じように、テキストを kubectl apply -f - に渡します。kubectl のメッセージ(行番号つき)は、こことコンソールに表示されます。',
  manifestEmpty: 'マニフェストが空です。先に YAML を書くか貼り付けてください。',
  manifestTooLong: 'マニフェストが {n} 文字を超えています。分けて適用してください。',
  manifestLine: 'kubectl apply -f -   (マニフェストエディター)',
  figuresTable: '自分の実行に登場したコンポーネント',
  figuresMermaid: 'Mermaid のソース',
  announceNode: '{node} が {status} になりました',
  announcePodDeleted: 'Pod {pod} が削除されました',
  announcePodCreated: 'Pod {pod} が {node} に作成されました',
  announcePodCreatedUnscheduled: 'Pod {pod} が作成されました',
  announcePodStatus: 'Pod {pod} が {status} になりました',
  announceMore: 'ほか {n} 件の変化',
  morePods: 'このノードにはほかに {n} 個の Pod があります（kubectl get pods ですべて表示できます）',
  pendingPods:
    '{n} 個の Pod がノードへの割り当てを待っています（Pending。理由は kubectl describe pod で確認できます）',
  announceFault: '{time} に {node} で「{fault}」',
  badHash:
    'リンクに保存されたラボの状態を読み取れなかったため({reason})、シナリオの最初から始めます。',
  restored: '{time} の状態を、操作 {n} 件とともに復元しました。',
  faultNames: {
    'node-down': 'ノードを停止',
    'node-up': 'ノードを起動',
    partition: 'ネットワークを分断',
    heal: '分断を解消',
    'kubelet-stop': 'kubelet を停止',
    'kubelet-start': 'kubelet を起動',
    'apiserver-down': 'kube-apiserver を停止',
    'apiserver-up': 'kube-apiserver を起動',
    'etcd-down': 'etcd を停止',
    'etcd-up': 'etcd を起動',
    'etcd-member-down': 'etcd メンバーを停止',
    'etcd-member-up': 'etcd メンバーを起動',
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
