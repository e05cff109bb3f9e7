// The one table of component descriptions, in English and Japanese. Figures and tables read
// "where it runs" and "how it decides" from here; what a component watches and writes they take
// from the trace, never from this table.

/** Lang is a language the site is written in. */
export type Lang = 'en' | 'ja';

/** ComponentGroup is where a component sits in the architecture figure. */
export type ComponentGroup = 'control-plane' | 'node' | 'client' | 'store';

/** ComponentInfo describes one kind of component (per-node agents once, not per node). */
export interface ComponentInfo {
  group: ComponentGroup;
  where: Record<Lang, string>;
  decides: Record<Lang, string>;
}

/** COMPONENTS is keyed by the component's name without "@node". */
export const COMPONENTS: Record<string, ComponentInfo> = {
  kubectl: {
    group: 'client',
    where: { en: 'outside the cluster (your terminal)', ja: 'クラスターの外（手元の端末）' },
    decides: {
      en: 'nothing by itself: turns a command into API requests (apply first reads the object, then creates or patches it)',
      ja: '自分では何も決めない。コマンドを API リクエストに変えるだけ（apply はまずオブジェクトを読み、それから作成またはパッチする）',
    },
  },
  'kube-apiserver': {
    group: 'control-plane',
    where: { en: 'control plane (static Pod)', ja: 'コントロールプレーン（static Pod）' },
    decides: {
      en: 'authenticates each request, runs admission and validation, stores the object in etcd, then sends a watch event to every watcher',
      ja: 'リクエストごとに認証・アドミッション・バリデーションを行い、オブジェクトを etcd に保存してから、監視しているすべてのクライアントに watch イベントを送る',
    },
  },
  etcd: {
    group: 'store',
    where: { en: 'control plane (static Pod)', ja: 'コントロールプレーン（static Pod）' },
    decides: {
      en: 'nothing about Kubernetes: keeps keys with revisions; kube-apiserver is its only client',
      ja: 'Kubernetes のことは何も判断しない。キーをリビジョン付きで保存するだけで、話し相手は kube-apiserver だけ',
    },
  },
  'kube-scheduler': {
    group: 'control-plane',
    where: { en: 'control plane (static Pod)', ja: 'コントロールプレーン（static Pod）' },
    decides: {
      en: 'filters the nodes that can run the Pod, scores them, and binds the Pod to the best one',
      ja: 'Pod を動かせるノードに絞り込み（Filter）、点数を付け（Score）、いちばん良いノードに Pod を割り当てる（バインド）',
    },
  },
  'kube-controller-manager': {
    group: 'control-plane',
    where: { en: 'control plane (static Pod)', ja: 'コントロールプレーン（static Pod）' },
    decides: {
      en: 'nothing itself: it runs the controllers below and lists and watches for them, one shared informer per resource',
      ja: '自分では何も判断しない。下に並ぶコントローラーを動かし、リソースごとに 1 つの共有インフォーマーでそれらの代わりに list と watch をする',
    },
  },
  'deployment-controller': {
    group: 'control-plane',
    where: {
      en: 'control plane (kube-controller-manager)',
      ja: 'コントロールプレーン（kube-controller-manager の中）',
    },
    decides: {
      en: "compares the Deployment's Pod template with its ReplicaSets: creates a ReplicaSet for a new template and scales new and old ones within maxSurge and maxUnavailable",
      ja: 'Deployment の Pod テンプレートを自分の ReplicaSet と比べ、新しいテンプレートには ReplicaSet を作り、maxSurge と maxUnavailable の範囲で新旧の ReplicaSet をスケールする',
    },
  },
  'replicaset-controller': {
    group: 'control-plane',
    where: {
      en: 'control plane (kube-controller-manager)',
      ja: 'コントロールプレーン（kube-controller-manager の中）',
    },
    decides: {
      en: 'counts the active Pods the ReplicaSet owns and creates or deletes Pods until the count equals spec.replicas',
      ja: 'ReplicaSet が持つ稼働中の Pod を数え、spec.replicas と同じ数になるまで Pod を作成または削除する',
    },
  },
  'node-lifecycle-controller': {
    group: 'control-plane',
    where: {
      en: 'control plane (kube-controller-manager)',
      ja: 'コントロールプレーン（kube-controller-manager の中）',
    },
    decides: {
      en: "checks every node's Lease and status: if neither is renewed within node-monitor-grace-period (50 s), sets Ready to Unknown and taints the node unreachable",
      ja: '各ノードの Lease とステータスを確かめ、node-monitor-grace-period（50 秒）のあいだどちらも更新されなければ Ready を Unknown にし、ノードに unreachable の taint を付ける',
    },
  },
  'taint-eviction-controller': {
    group: 'control-plane',
    where: {
      en: 'control plane (kube-controller-manager)',
      ja: 'コントロールプレーン（kube-controller-manager の中）',
    },
    decides: {
      en: 'deletes Pods from nodes with a NoExecute taint they do not tolerate, once their tolerationSeconds (300 s by default) have passed',
      ja: '許容していない NoExecute の taint が付いたノードから、tolerationSeconds（既定では 300 秒）が過ぎた Pod を削除する',
    },
  },
  'endpointslice-controller': {
    group: 'control-plane',
    where: {
      en: 'control plane (kube-controller-manager)',
      ja: 'コントロールプレーン（kube-controller-manager の中）',
    },
    decides: {
      en: "for each Service, finds the Pods its selector matches and writes their IPs and readiness into the Service's EndpointSlices",
      ja: 'Service ごとにセレクターに一致する Pod を探し、その IP と Ready かどうかを Service の EndpointSlice に書き込む',
    },
  },
  'garbage-collector': {
    group: 'control-plane',
    where: {
      en: 'control plane (kube-controller-manager)',
      ja: 'コントロールプレーン（kube-controller-manager の中）',
    },
    decides: {
      en: 'deletes objects whose owners (ownerReferences) no longer exist',
      ja: 'オーナー（ownerReferences）がもう存在しないオブジェクトを削除する',
    },
  },
  'cloud-controller-manager': {
    group: 'control-plane',
    where: {
      en: 'control plane (static Pod, only with cluster.cloud: fake)',
      ja: 'コントロールプレーン（static Pod。cluster.cloud: fake のときだけ）',
    },
    decides: {
      en: 'nothing itself: it runs the controllers that talk to the cloud provider, the service and cloud-node controllers',
      ja: '自分では何も判断しない。クラウドプロバイダーと話すコントローラー（service と cloud-node）を動かす',
    },
  },
  'service-controller': {
    group: 'control-plane',
    where: {
      en: 'control plane (cloud-controller-manager)',
      ja: 'コントロールプレーン（cloud-controller-manager の中）',
    },
    decides: {
      en: "for each LoadBalancer Service, asks the cloud for a load balancer pointing at the nodes and writes its address into the Service's status",
      ja: 'LoadBalancer の Service ごとに、ノードへ転送するロードバランサーをクラウドに作らせ、そのアドレスを Service の status に書き込む',
    },
  },
  'cloud-node-controller': {
    group: 'control-plane',
    where: {
      en: 'control plane (cloud-controller-manager)',
      ja: 'コントロールプレーン（cloud-controller-manager の中）',
    },
    decides: {
      en: "initializes each new node from the cloud's record of its machine: provider ID, zone and instance-type labels, addresses; then removes the uninitialized taint",
      ja: '新しいノードを、クラウドが持つマシンの情報（プロバイダー ID、ゾーンやインスタンスタイプのラベル、アドレス）で初期化し、uninitialized の taint を外す',
    },
  },
  cloud: {
    group: 'client',
    where: {
      en: "outside the cluster (the cloud provider's API; with cluster.cloud: fake, a made-up one)",
      ja: 'クラスターの外（クラウドプロバイダーの API。cluster.cloud: fake では架空のもの）',
    },
    decides: {
      en: 'provisions load balancers and answers what it knows of each machine; it never reads the Kubernetes API',
      ja: 'ロードバランサーを用意し、各マシンについて知っていることを答える。Kubernetes API は読まない',
    },
  },
  kubelet: {
    group: 'node',
    where: {
      en: 'every node (a systemd service, not a Pod)',
      ja: '各ノード（Pod ではなく systemd のサービス）',
    },
    decides: {
      en: 'runs the Pods bound to its node: asks the container runtime for sandboxes and containers, reports Pod and node status, and renews the node Lease every 10 s',
      ja: '自分のノードに割り当てられた Pod を動かす。コンテナランタイムにサンドボックスとコンテナを作らせ、Pod とノードのステータスを報告し、10 秒ごとにノードの Lease を更新する',
    },
  },
  'container-runtime': {
    group: 'node',
    where: {
      en: 'every node (containerd, called over CRI)',
      ja: '各ノード（containerd。CRI で呼ばれる）',
    },
    decides: {
      en: "nothing about Kubernetes objects: pulls images and starts sandboxes and containers when kubelet asks, and calls the CNI plugin for the Pod's network",
      ja: 'Kubernetes のオブジェクトについては判断しない。kubelet に頼まれてイメージを取得し、サンドボックスとコンテナを起動し、Pod のネットワークのために CNI プラグインを呼ぶ',
    },
  },
  'cni-plugin': {
    group: 'node',
    where: {
      en: 'every node (a binary the runtime executes)',
      ja: '各ノード（ランタイムが実行するバイナリ）',
    },
    decides: {
      en: "assigns the Pod an IP from the node's Pod CIDR and connects its network interface",
      ja: 'ノードの Pod CIDR から Pod に IP を割り当て、ネットワークインターフェースをつなぐ',
    },
  },
  'kube-proxy': {
    group: 'node',
    where: { en: 'every node (DaemonSet Pod)', ja: '各ノード（DaemonSet の Pod）' },
    decides: {
      en: "turns Services and EndpointSlices into the node's iptables rules",
      ja: 'Service と EndpointSlice を、そのノードの iptables ルールに変換する',
    },
  },
  iptables: {
    group: 'node',
    where: { en: 'every node (the kernel)', ja: '各ノード（カーネル）' },
    decides: {
      en: "nothing: the kernel's packet filter holds the rules kube-proxy writes",
      ja: '何も判断しない。kube-proxy が書いたルールをカーネルのパケットフィルターが保持する',
    },
  },
};

/** UNKNOWN_COMPONENT describes a component missing from COMPONENTS. */
const UNKNOWN_COMPONENT: ComponentInfo = {
  group: 'control-plane',
  where: { en: '(not described)', ja: '（説明なし）' },
  decides: { en: '(not described)', ja: '（説明なし）' },
};

/** componentInfo looks a component up by name, with or without "@node". */
export function componentInfo(name: string): ComponentInfo {
  const base = name.split('@')[0];
  return COMPONENTS[base] ?? UNKNOWN_COMPONENT;
}
