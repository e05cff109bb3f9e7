// The scenario format instructors write (YAML in content/scenarios/, or objects from TypeScript).
// One zod schema is the single source of truth: the loader validates with it, types come from it,
// and the authoring guide's reference is generated from it.

import { z } from 'zod';
import { parseQuantity } from '../api/quantity.ts';
import { parseDuration } from '../engine/clock.ts';
import {
  defaultSettings,
  durationSettings,
  enumSettings,
  settingExpectation,
  type Settings,
} from '../engine/settings.ts';

/** Duration accepts Go-style durations ("90s", "5m", "1h30m") and yields milliseconds. */
export const Duration = z
  .union([z.string(), z.number()])
  .transform((v, ctx) => {
    const ms = parseDuration(v);
    if (ms === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `found ${JSON.stringify(v)}, expected a duration such as 90s, 5m or 1h30m`,
      });
      return z.NEVER;
    }
    return ms;
  })
  .describe('A duration such as 90s, 5m or 1h30m.')
  .meta({ ja: '90s、5m、1h30m のような時間の長さ。' });

/** Quantity is a Kubernetes resource quantity such as "4", "500m", "8Gi". */
export const Quantity = z
  .union([z.string(), z.number()])
  .refine((v) => parseQuantity(v) !== undefined, {
    message: 'expected a Kubernetes quantity such as "4", "500m" or "8Gi"',
  })
  .transform((v) => String(v))
  .describe('A Kubernetes quantity such as "4", "500m" or "8Gi".')
  .meta({ ja: '"4"、"500m"、"8Gi" のような Kubernetes の数量（quantity）。' });

/** positiveQuantity is a Quantity above zero, such as a node's allocatable cpu or memory. */
function positiveQuantity(examples: string) {
  const expected = `expected a positive Kubernetes quantity such as ${examples}`;
  return z
    .union([z.string(), z.number()], { error: expected })
    .refine(
      (v) => {
        const q = parseQuantity(v);
        return q !== undefined && Number.isFinite(q) && q > 0;
      },
      { error: expected },
    )
    .transform((v) => String(v));
}

/** SEED_RANGE is what a seed may be, in the scenario file and on the command line: any safe integer. */
export const SEED_RANGE = `an integer such as 7, from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}`;

/** isSeed says whether n is a seed the scenario format accepts. */
export function isSeed(n: number): boolean {
  return Number.isSafeInteger(n);
}

const kebab = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export const TaintSchema = z
  .object({
    key: z
      .string()
      .min(1)
      .describe('The taint key, e.g. dedicated.')
      .meta({ ja: 'taint のキー。例: dedicated。' }),
    value: z
      .string()
      .optional()
      .describe('The taint value (optional).')
      .meta({ ja: 'taint の値（省略可）。' }),
    effect: z
      .enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute'])
      .describe('What the taint does to Pods that do not tolerate it.')
      .meta({ ja: 'その taint を許容しない Pod にどう作用するか。' }),
  })
  .strict();

const nodeFields = {
  cpu: positiveQuantity('"4" or "500m"')
    .default('4')
    .describe('Allocatable CPU, e.g. "4" or "3500m".')
    .meta({ ja: '割り当て可能な CPU。例: "4"、"3500m"。' }),
  memory: positiveQuantity('"8Gi" or "512Mi"')
    .default('8Gi')
    .describe('Allocatable memory, e.g. "8Gi".')
    .meta({ ja: '割り当て可能なメモリー。例: "8Gi"。' }),
  pods: z
    .int({ error: 'expected a positive whole number of Pods such as 110' })
    .positive({ error: 'expected a positive whole number of Pods such as 110' })
    .default(110)
    .describe('Maximum Pods on the node (kubelet maxPods, default 110).')
    .meta({ ja: 'ノードに置ける Pod の最大数（kubelet の maxPods、デフォルト 110）。' }),
  labels: z
    .record(z.string(), z.string())
    .default({})
    .describe('Extra node labels, e.g. topology.kubernetes.io/zone.')
    .meta({ ja: 'ノードに追加するラベル。例: topology.kubernetes.io/zone。' }),
  taints: z
    .array(TaintSchema)
    .default([])
    .describe('Taints the node registers with.')
    .meta({ ja: 'ノードが登録時に持つ taint。' }),
  images: z
    .array(z.string())
    .default([])
    .describe('Images already present on the node (no pull needed).')
    .meta({ ja: 'ノードにすでにあるイメージ（pull 不要）。' }),
};

export const NodeSchema = z
  .object({
    name: z
      .string()
      .regex(kebab, 'expected a lower-case DNS label such as node-1')
      .describe('The node name.')
      .meta({ ja: 'ノード名。' }),
    ...nodeFields,
  })
  .strict();

export const NodeTemplateSchema = z
  .object({
    namePrefix: z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9]*)$/, 'expected a lower-case prefix such as worker-')
      .describe('Prefix of generated names: worker- gives worker-1, worker-2, ...')
      .meta({ ja: '生成する名前の接頭辞: worker- なら worker-1、worker-2、……。' }),
    count: z
      .int({ error: 'expected a whole number of nodes from 1 to 10000' })
      .min(1, { error: 'expected a whole number of nodes from 1 to 10000' })
      .max(10000, { error: 'expected a whole number of nodes from 1 to 10000' })
      .describe('How many nodes to generate (1 to 10000).')
      .meta({ ja: '生成するノードの数（1 から 10000）。' }),
    ...nodeFields,
  })
  .strict();

export const ImageBehaviourSchema = z
  .object({
    size: Quantity.optional()
      .describe('Compressed image size, e.g. "70Mi"; sets the pull time.')
      .meta({ ja: '圧縮後のイメージサイズ。例: "70Mi"。pull にかかる時間が決まる。' }),
    pull: z
      .enum(['ok', 'notfound', 'unauthorized'])
      .default('ok')
      .describe('Whether pulling succeeds.')
      .meta({ ja: 'pull が成功するかどうか。' }),
    crashAfter: Duration.optional()
      .describe('The container exits this long after it starts (CrashLoopBackOff follows).')
      .meta({ ja: 'コンテナが起動してからこの時間で終了する（その後 CrashLoopBackOff になる）。' }),
    exitCode: z
      .int({ error: 'expected an exit code from 0 to 255' })
      .min(0, { error: 'expected an exit code from 0 to 255' })
      .max(255, { error: 'expected an exit code from 0 to 255' })
      .default(1)
      .describe('Exit code when it crashes.')
      .meta({ ja: 'クラッシュしたときの終了コード。' }),
    serves: z
      .array(
        z
          .object({
            port: z
              .int({ error: 'expected a port number from 1 to 65535' })
              .min(1, { error: 'expected a port number from 1 to 65535' })
              .max(65535, { error: 'expected a port number from 1 to 65535' })
              .describe('The TCP port the container listens on.')
              .meta({ ja: 'コンテナが待ち受ける TCP ポート。' }),
            body: z
              .string()
              .default('')
              .describe('What it answers every HTTP request with.')
              .meta({ ja: 'すべての HTTP リクエストへの応答の本文。' }),
            status: z
              .int({ error: 'expected an HTTP status from 100 to 599' })
              .min(100, { error: 'expected an HTTP status from 100 to 599' })
              .max(599, { error: 'expected an HTTP status from 100 to 599' })
              .default(200)
              .describe('The HTTP status it answers with.')
              .meta({ ja: '応答の HTTP ステータス。' }),
          })
          .strict(),
      )
      .optional()
      .describe(
        'What the image serves: each port its process listens on and its HTTP answer (curl and wget from other Pods reach it).',
      )
      .meta({
        ja: 'イメージが提供するもの: プロセスが待ち受けるポートと、その HTTP の応答（ほかの Pod の curl や wget が届く）。',
      }),
  })
  .strict();

const settingKeys = Object.keys(defaultSettings) as [keyof Settings, ...(keyof Settings)[]];

export const SettingsSchema = z
  .record(z.string(), z.union([z.string(), z.number()]))
  .superRefine((rec, ctx) => {
    for (const [k, v] of Object.entries(rec)) {
      if (!settingKeys.includes(k as keyof Settings)) {
        ctx.addIssue({
          code: 'custom',
          path: [k],
          message: `found unknown setting "${k}", expected one of ${settingKeys.join(', ')}`,
        });
      } else {
        const expected = settingExpectation(k as keyof Settings, v);
        if (expected)
          ctx.addIssue({
            code: 'custom',
            path: [k],
            message: `found ${JSON.stringify(v)}, expected ${expected}`,
          });
      }
    }
  })
  .transform((rec) => {
    const out: Partial<Settings> = {};
    for (const [k, v] of Object.entries(rec)) {
      const key = k as keyof Settings;
      out[key] = (
        durationSettings.has(key) ? parseDuration(v)! : enumSettings[key] ? String(v) : Number(v)
      ) as never;
    }
    return out;
  })
  .describe(
    "Overrides of upstream defaults, e.g. nodeMonitorGracePeriod: 40s (the value before v1.32), proxyMode: nftables (kube-proxy's mode: iptables, the default; nftables; or ipvs, deprecated since v1.35), or cni: calico (the CNI plugin: bridge, the default, which ignores NetworkPolicy, or calico, which enforces it).",
  )
  .meta({
    ja: 'upstream のデフォルト値の上書き。例: nodeMonitorGracePeriod: 40s（v1.32 より前の値）、proxyMode: nftables（kube-proxy のモード。デフォルトの iptables、nftables、または v1.35 で非推奨になった ipvs）、cni: calico（CNI プラグイン。デフォルトの bridge は NetworkPolicy を無視し、calico は適用する）。',
  });

export const ClusterSchema = z
  .object({
    nodes: z
      // The loader reports an entry's errors for the shape it has (name, or namePrefix and count).
      .array(z.union([NodeSchema, NodeTemplateSchema]))
      .min(1, {
        error:
          'expected at least one node (leave nodes out for the default node-1, node-2, node-3)',
      })
      .default(
        [{ name: 'node-1' }, { name: 'node-2' }, { name: 'node-3' }].map((n) =>
          NodeSchema.parse(n),
        ),
      )
      .describe(
        'Worker nodes (a control-plane node is always added). Default: node-1..node-3 with 4 CPU, 8Gi, 110 pods.',
      )
      .meta({
        ja: 'ワーカーノード（コントロールプレーンノードは常に追加される）。デフォルト: CPU 4、メモリー 8Gi、Pod 110 の node-1 から node-3。',
      }),
    controlPlane: z
      .object({
        count: z
          .number({ error: 'expected 1, 3 or 5' })
          .refine((n) => n === 1 || n === 3 || n === 5, {
            error:
              'expected 1, 3 or 5 (an odd number of etcd members: 4 tolerates no more failures than 3)',
          })
          .default(1)
          .describe('How many control-plane nodes. Default: 1.')
          .meta({ ja: 'コントロールプレーンノードの数。デフォルト: 1。' }),
      })
      .strict()
      .optional()
      .describe(
        "The control plane: count 1 (one node named control-plane) or 3 or 5 (control-plane-1 ... control-plane-N, each running etcd, kube-apiserver, kube-scheduler and kube-controller-manager as kubeadm's stacked topology does). Default: count 1.",
      )
      .meta({
        ja: 'コントロールプレーン: count 1（control-plane という 1 台）または 3 か 5（control-plane-1 から control-plane-N。kubeadm の stacked 構成のように、各ノードで etcd、kube-apiserver、kube-scheduler、kube-controller-manager が動く）。デフォルト: count 1。',
      }),
    settings: SettingsSchema.default({}),
    cloud: z
      .enum(['none', 'fake'])
      .default('none')
      .describe(
        'The cloud provider: none (a kubeadm cluster on bare metal: a LoadBalancer Service stays <pending>) or fake (a cloud-controller-manager whose fake cloud gives LoadBalancer Services an address from 203.0.113.0/24 after a few seconds and initializes the nodes).',
      )
      .meta({
        ja: 'クラウドプロバイダー: none（ベアメタル上の kubeadm クラスター。LoadBalancer の Service は <pending> のまま）または fake（cloud-controller-manager が動き、その擬似クラウドが数秒後に LoadBalancer の Service へ 203.0.113.0/24 のアドレスを与え、ノードを初期化する）。',
      }),
    images: z
      .record(z.string(), ImageBehaviourSchema)
      .default({})
      .describe('How particular images behave: size, pull failures, crashes.')
      .meta({ ja: '特定のイメージのふるまい: サイズ、pull の失敗、クラッシュ。' }),
    ingress: z
      .enum(['nginx'], { error: 'expected nginx (or leave ingress out for no ingress controller)' })
      .optional()
      .describe(
        'An ingress controller installed at birth: nginx is ingress-nginx (retired in March 2026) with its IngressClass nginx. Default: none.',
      )
      .meta({
        ja: '誕生時に入れる Ingress コントローラー: nginx は ingress-nginx（2026 年 3 月に引退）と IngressClass nginx。デフォルト: なし。',
      }),
    gateway: z
      .boolean({ error: 'expected true or false' })
      .optional()
      .describe(
        'Install a Gateway API implementation (modelled on NGINX Gateway Fabric) with its GatewayClass nginx. Default: false.',
      )
      .meta({
        ja: 'Gateway API の実装（NGINX Gateway Fabric がモデル）と GatewayClass nginx を入れる。デフォルト: false。',
      }),
  })
  .strict();

export const FAULTS = [
  'node-down',
  'node-up',
  'partition',
  'heal',
  'kubelet-stop',
  'kubelet-start',
  'apiserver-down',
  'apiserver-up',
  'etcd-down',
  'etcd-up',
  'etcd-member-down',
  'etcd-member-up',
] as const;
/** NODE_FAULTS are the faults that act on one node, named by the step's `node`. */
export const NODE_FAULTS: ReadonlySet<string> = new Set<string>([
  'node-down',
  'node-up',
  'partition',
  'heal',
  'kubelet-stop',
  'kubelet-start',
  'etcd-member-down',
  'etcd-member-up',
]);
/**
 * MEMBER_FAULTS stop or start one control-plane component: with `node` (a control-plane node)
 * the one on that node, without it (apiserver-* and etcd-* only) every one of them.
 */
export const MEMBER_FAULTS: ReadonlySet<string> = new Set<string>([
  'apiserver-down',
  'apiserver-up',
  'etcd-down',
  'etcd-up',
  'etcd-member-down',
  'etcd-member-up',
]);

export const StepSchema = z
  .object({
    at: Duration.describe('When the step runs, from the start of the scenario.').meta({
      ja: 'ステップを実行する時刻（シナリオ開始から）。',
    }),
    apply: z
      .string()
      .optional()
      .describe('One or more manifests (YAML, separated by ---), applied as kubectl apply -f does.')
      .meta({
        ja: '1 つ以上のマニフェスト（YAML、--- で区切る）。kubectl apply -f と同じように適用する。',
      }),
    kubectl: z
      .string()
      .optional()
      .describe('A kubectl command line without the leading "kubectl"; its output is captured.')
      .meta({ ja: '先頭の "kubectl" を除いた kubectl のコマンドライン。出力が記録される。' }),
    fault: z.enum(FAULTS).optional().describe('A fault to inject.').meta({ ja: '注入する障害。' }),
    exec: z
      .string()
      .optional()
      .describe(
        'A node command, as run over ssh: crictl ps -a, crictl pods, iptables-save -t nat, ls, cat, mv, systemctl status|start|stop|restart kubelet; a leading sudo is accepted.',
      )
      .meta({
        ja: 'ssh で実行するノード上のコマンド: crictl ps -a、crictl pods、iptables-save -t nat、ls、cat、mv、systemctl status|start|stop|restart kubelet。先頭の sudo も使える。',
      }),
    node: z
      .string()
      .optional()
      .describe('The node a fault or exec applies to.')
      .meta({ ja: 'fault や exec の対象となるノード。' }),
    expectError: z
      .string()
      .min(1, { error: 'expected a part of the error the apply is meant to fail with' })
      .optional()
      .describe(
        'On an apply step: the error it is meant to fail with (a part of kubectl\'s output, e.g. unknown field "spec.replica"). Without it, an apply that kube-apiserver or kubectl would reject is an author error.',
      )
      .meta({
        ja: 'apply ステップで、失敗させたいときのエラー（kubectl の出力の一部。例: unknown field "spec.replica"）。これがなければ、kube-apiserver や kubectl が拒否する apply は作者のエラーになる。',
      }),
  })
  .strict()
  .superRefine((s, ctx) => {
    const actions = (['apply', 'kubectl', 'fault', 'exec'] as const).filter(
      (k) => s[k] !== undefined,
    );
    if (actions.length !== 1)
      ctx.addIssue({
        code: 'custom',
        message: `found ${actions.length ? actions.join(' and ') : 'no action'}, expected exactly one of apply, kubectl, fault, exec`,
      });
    if (s.expectError !== undefined && s.apply === undefined && actions.length === 1)
      ctx.addIssue({
        code: 'custom',
        path: ['expectError'],
        message: `found expectError on a ${actions[0]} step, expected expectError only on apply steps`,
      });
    const takesNode = s.exec !== undefined || (s.fault !== undefined && NODE_FAULTS.has(s.fault));
    if (takesNode && !s.node)
      ctx.addIssue({
        code: 'custom',
        path: ['node'],
        message: `found nothing, expected the node the ${s.exec !== undefined ? 'command runs on' : 'fault applies to'}`,
      });
    else if (
      !takesNode &&
      s.node !== undefined &&
      actions.length === 1 &&
      !(s.fault !== undefined && MEMBER_FAULTS.has(s.fault))
    ) {
      const what =
        s.fault !== undefined
          ? `a fault ${s.fault}`
          : actions[0] === 'apply'
            ? 'an apply'
            : 'a kubectl';
      ctx.addIssue({
        code: 'custom',
        path: ['node'],
        message: `found node ${JSON.stringify(s.node)} on ${what} step, which does not use a node; expected node only on exec steps, on the faults ${[...NODE_FAULTS].join(', ')}, and (naming a control-plane node) on apiserver-down, apiserver-up, etcd-down and etcd-up`,
      });
    }
  });

export const ScenarioSchema = z
  .object({
    name: z
      .string()
      .regex(kebab, 'expected a kebab-case name such as node-failure')
      .describe('Required, kebab-case; figures and questions refer to it.')
      .meta({ ja: '必須、ケバブケース。図や問題はこの名前で参照する。' }),
    seed: z
      .int({ error: `expected ${SEED_RANGE}` })
      .describe('Required integer seed: the same seed always gives the same run.')
      .meta({ ja: '必須の整数のシード。同じシードなら常に同じ実行になる。' }),
    description: z
      .object({ en: z.string(), ja: z.string() })
      .strict()
      .optional()
      .describe('What the scenario shows, in English and Japanese.')
      .meta({ ja: 'シナリオが示す内容（英語と日本語）。' }),
    cluster: ClusterSchema.default(ClusterSchema.parse({})),
    steps: z
      .array(StepSchema)
      .default([])
      .describe('Actions in time order; each has `at` and exactly one action.')
      .meta({ ja: '時刻順に並べた操作。各ステップは `at` と、ちょうど 1 つの操作を持つ。' }),
    until: Duration.describe('Required: how long to run, e.g. 15m.').meta({
      ja: '必須: 実行する長さ。例: 15m。',
    }),
  })
  .strict();

/** Scenario is a validated scenario with durations in milliseconds. */
export type Scenario = z.output<typeof ScenarioSchema>;
export type ScenarioInput = z.input<typeof ScenarioSchema>;
export type Step = z.output<typeof StepSchema>;
export type ClusterConfig = z.output<typeof ClusterSchema>;
export type NodeConfig = z.output<typeof NodeSchema>;
export type NodeTemplate = z.output<typeof NodeTemplateSchema>;
export type ImageBehaviour = z.output<typeof ImageBehaviourSchema>;
export type Fault = (typeof FAULTS)[number];
