// UI strings for the figures, in every language the site is published in. Figure content
// (component names, API verbs, resource kinds) stays in Kubernetes' own English words; only the
// words around it are translated.

export type FigureLang = 'en' | 'ja';

const en = {
  stepsAsText: 'Steps as text',
  edgesAsText: 'Connections as text',
  classesAsText: 'Objects and references as text',
  tableAsText: 'Values as a table',
  mermaidSource: 'Mermaid source',
  mermaidEdit: 'Edit in mermaid.live',
  mermaidHint: '(or paste the source below into mermaid.live).',
  scrollCue: '↔ Wider than the column: scroll sideways to see all of it.',
  viewFullSize: 'View full size',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  zoomActual: '100 % (actual size)',
  zoomFit: 'Fit to the window',
  zoomFitText: 'Fit',
  zoomClose: 'Close the full-size view',
  zoomCloseText: 'Close',
  zoomPane: 'Figure at full size. Arrow keys scroll it; + and − zoom; 0 is 100 %; Escape closes.',
  lifelinesShown: 'Showing {shown} of {all} components; left out: {hidden}.',
  generatedFrom: 'Generated at build time from a simulator run of {scenario} (seed {seed}).',
  note: 'Note',
  legendRequest: 'request or call (solid)',
  legendWatch: 'watch event (dashed)',
  legendPacket: 'packet or question (solid)',
  legendMessage: 'request or Raft message (solid)',
  legendReply: 'reply (dashed)',
  legendNote: 'note',
  legendRequests: 'API requests (solid)',
  legendStores: 'etcd reads and writes (solid, thick)',
  legendWatches: 'watch events (dashed)',
  legendCalls: 'node-local calls, CRI or CNI (dotted)',
  controlPlane: 'Control plane',
  workerNode: 'Worker node',
  workerNodeNamed: 'Worker node {node}',
  from: 'from',
  to: 'to',
  kind: 'kind',
  label: 'label',
  time: 'time (s)',
  axisTime: 'virtual time (s)',
  axisReplicas: 'Pods (spec.replicas)',
  totalAvailable: 'available in total',
  upperBound: 'replicas + maxSurge = {n}',
  lowerBound: 'replicas − maxUnavailable = {n}',
  ready: 'Ready',
  taints: 'taints',
  none: 'none',
  noStatus: 'not registered',
  fault: 'fault: {fault}',
  reason: 'reason',
  field: 'field',
  references: 'references',
  multiplicity: 'multiplicity',
  objects: 'objects',
  arrowKinds: {
    request: 'API request',
    store: 'etcd write',
    watch: 'watch event',
    call: 'node-local call',
    packet: 'packet or question',
    reply: 'reply',
    note: 'note',
  },
  edgeKinds: {
    requests: 'requests',
    stores: 'etcd writes',
    watches: 'watch events',
    calls: 'calls',
  },
  /** edgeCounts label a component graph's edges with their message count: one, and many. */
  edgeCounts: {
    requests: ['{n} request', '{n} requests'],
    stores: ['{n} etcd write', '{n} etcd writes'],
    watches: ['{n} watch event', '{n} watch events'],
    calls: ['{what} ×{n}', '{what} ×{n}'],
  } as Record<'requests' | 'stores' | 'watches' | 'calls', [string, string]>,
};

export type FigureStrings = typeof en;

const ja: FigureStrings = {
  stepsAsText: '手順をテキストで見る',
  edgesAsText: 'つながりをテキストで見る',
  classesAsText: 'オブジェクトと参照をテキストで見る',
  tableAsText: '値を表で見る',
  mermaidSource: 'Mermaid ソース',
  mermaidEdit: 'mermaid.live で編集',
  mermaidHint: '（下のソースを mermaid.live に貼り付けても編集できます）',
  scrollCue: '↔ 本文の幅に収まらない図です。横にスクロールすると全体が見えます。',
  viewFullSize: '原寸で表示',
  zoomIn: '拡大',
  zoomOut: '縮小',
  zoomActual: '100 %（原寸）',
  zoomFit: '全体をウィンドウに合わせる',
  zoomFitText: '全体',
  zoomClose: '原寸表示を閉じる',
  zoomCloseText: '閉じる',
  zoomPane:
    '原寸の図です。矢印キーでスクロール、+ と − で拡大・縮小、0 で原寸に戻り、Escape で閉じます。',
  lifelinesShown: 'コンポーネント {all} 個のうち {shown} 個を表示しています。省略: {hidden}。',
  generatedFrom:
    'シナリオ {scenario}（シード {seed}）をビルド時にシミュレーターで実行して生成した図です。',
  note: 'ノート',
  legendRequest: 'リクエスト・呼び出し（実線）',
  legendWatch: 'watch イベント（破線）',
  legendPacket: 'パケット・問い合わせ（実線）',
  legendMessage: 'リクエスト・Raft のメッセージ（実線）',
  legendReply: '応答（破線）',
  legendNote: 'ノート',
  legendRequests: 'API リクエスト（実線）',
  legendStores: 'etcd の読み書き（太い実線）',
  legendWatches: 'watch イベント（破線）',
  legendCalls: 'ノード内の呼び出し CRI・CNI（点線）',
  controlPlane: 'コントロールプレーン',
  workerNode: 'ワーカーノード',
  workerNodeNamed: 'ワーカーノード {node}',
  from: '送り元',
  to: '送り先',
  kind: '種類',
  label: 'ラベル',
  time: '時刻（秒）',
  axisTime: '仮想時刻（秒）',
  axisReplicas: 'Pod 数（spec.replicas）',
  totalAvailable: '利用可能な Pod の合計',
  upperBound: 'replicas + maxSurge = {n}',
  lowerBound: 'replicas − maxUnavailable = {n}',
  ready: 'Ready',
  taints: 'taint',
  none: 'なし',
  noStatus: '未登録',
  fault: '障害: {fault}',
  reason: '理由',
  field: 'フィールド',
  references: '参照',
  multiplicity: '多重度',
  objects: 'オブジェクト',
  arrowKinds: {
    request: 'API リクエスト',
    store: 'etcd への書き込み',
    watch: 'watch イベント',
    call: 'ノード内の呼び出し',
    packet: 'パケット・問い合わせ',
    reply: '応答',
    note: 'ノート',
  },
  edgeKinds: {
    requests: 'リクエスト',
    stores: 'etcd への書き込み',
    watches: 'watch イベント',
    calls: '呼び出し',
  },
  edgeCounts: {
    requests: ['{n} 件のリクエスト', '{n} 件のリクエスト'],
    stores: ['etcd への書き込み {n} 件', 'etcd への書き込み {n} 件'],
    watches: ['{n} 件の watch イベント', '{n} 件の watch イベント'],
    calls: ['{what} ×{n}', '{what} ×{n}'],
  },
};

export const FIGURE_STRINGS: Record<FigureLang, FigureStrings> = { en, ja };

/** fill replaces {name} placeholders; a missing value is an error rather than a stray "{n}". */
export function fill(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = params[k];
    if (v === undefined) throw new Error(`figure string needs a value for {${k}}: ${template}`);
    return String(v);
  });
}

/**
 * edgeLabel is a component graph edge's label in a language: its message count ("6 requests",
 * 「6 件のリクエスト」) when the graph counts, else what the messages are; a node-local call says
 * what it carries (CRI, CNI).
 */
export function edgeLabel(
  e: { kind: keyof FigureStrings['edgeKinds']; count: number; what?: string },
  counts: boolean,
  lang: FigureLang,
): string {
  const s = FIGURE_STRINGS[lang];
  if (!counts) return e.kind === 'calls' ? (e.what ?? '') : s.edgeKinds[e.kind];
  const [one, many] = s.edgeCounts[e.kind];
  return fill(e.count === 1 ? one : many, { n: e.count, what: e.what ?? '' });
}
