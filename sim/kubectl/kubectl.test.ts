import { beforeEach, describe, expect, it } from 'vitest';
import type { AnyObject, DaemonSet, Deployment, Node, Pod, ResourceName } from '../api/types.ts';
import { KubeAPIServer } from '../apiserver/apiserver.ts';
import { Client } from '../client/client.ts';
import { Simulation } from '../engine/simulation.ts';
import { EtcdStore } from '../etcd/store.ts';
import { runKubectl, type KubectlResult } from './kubectl.ts';
import { newDeployment, newNode, newPod, newReplicaSet } from './testing.ts';
import { webDeploymentManifest } from '../testing.ts';

let sim: Simulation;
let api: KubeAPIServer;

function kubectl(line: string, stdin?: string): KubectlResult {
  return runKubectl({ client: new Client(api, 'kubectl'), now: () => sim.now() }, line, stdin);
}

// seed stores an object as a controller or kubelet would have written it (status included).
function seed<T extends AnyObject>(resource: ResourceName, obj: T): T {
  const stripped = JSON.parse(JSON.stringify(obj)) as T;
  const created = api.create('test', resource, stripped);
  if ((obj as { status?: unknown }).status)
    return api.update(
      'test',
      resource,
      { ...created, status: (obj as { status?: unknown }).status } as T,
      'status',
    );
  return created;
}

beforeEach(() => {
  sim = new Simulation({ seed: 1 });
  api = new KubeAPIServer(sim, new EtcdStore());
  for (const name of ['default', 'kube-system', 'kube-node-lease'])
    api.create('test', 'namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
      spec: {},
      status: { phase: 'Active' },
    } as unknown as AnyObject);
});

const WEB = webDeploymentManifest({ image: 'nginx:1.25', port: true });

describe('kubectl get', () => {
  it('says "No resources found" on stderr, with the namespace for namespaced resources', () => {
    expect(kubectl('get pods')).toEqual({
      stdout: '',
      stderr: 'No resources found in default namespace.\n',
      exitCode: 0,
    });
    expect(kubectl('get pods -n kube-system').stderr).toBe(
      'No resources found in kube-system namespace.\n',
    );
    expect(kubectl('get nodes').stderr).toBe('No resources found\n');
    expect(kubectl('get pods -A').stderr).toBe('No resources found\n');
  });

  it('prints NotFound errors after the rows it could get', () => {
    seed('pods', newPod('a', { node: 'node-1' }));
    sim.runUntil(30_000);
    const r = kubectl('get pods a b');
    expect(r.stdout).toBe(
      'NAME   READY   STATUS    RESTARTS   AGE\na      1/1     Running   0          30s\n',
    );
    expect(r.stderr).toBe('Error from server (NotFound): pods "b" not found\n');
    expect(r.exitCode).toBe(1);
    expect(kubectl('get pods b --ignore-not-found')).toEqual({
      stdout: '',
      stderr: '',
      exitCode: 0,
    });
  });

  it('prefixes kinds when several resource types are requested', () => {
    seed('pods', newPod('a', { node: 'node-1' }));
    seed('deployments', newDeployment('web', 1));
    const r = kubectl('get pod/a deploy/web');
    expect(r.stdout).toBe(
      'NAME    READY   STATUS    RESTARTS   AGE\npod/a   1/1     Running   0          0s\n\nNAME                  READY   UP-TO-DATE   AVAILABLE   AGE\ndeployment.apps/web   1/1     1            1           0s\n',
    );
    expect(kubectl('get all').stdout).toContain('deployment.apps/web');
    expect(kubectl('get pods,deploy').stdout.startsWith('NAME    READY')).toBe(true);
  });

  it('-o yaml prints one object, or a List for several', () => {
    seed('pods', newPod('a', { node: 'node-1' }));
    const one = kubectl('get pod a -o yaml').stdout;
    expect(
      one.startsWith(
        'apiVersion: v1\nkind: Pod\nmetadata:\n  creationTimestamp: "2026-01-01T00:00:00Z"\n',
      ),
    ).toBe(true);
    const list = kubectl('get pods -o yaml').stdout;
    expect(list.startsWith('apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n')).toBe(true);
    expect(list.endsWith('kind: List\nmetadata:\n  resourceVersion: ""\n')).toBe(true);
    expect(kubectl('get pods -n kube-system -o json').stdout).toBe(
      '{\n    "apiVersion": "v1",\n    "items": [],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n',
    );
    expect(kubectl('get pods -o name').stdout).toBe('pod/a\n');
  });

  it('filters with -l and rejects names with a selector', () => {
    seed('pods', newPod('a', { labels: { app: 'web' } }));
    seed('pods', newPod('b', { labels: { app: 'db' } }));
    expect(kubectl('get pods -l app=db -o name').stdout).toBe('pod/b\n');
    expect(kubectl('get pods -l app!=db -o name').stdout).toBe('pod/a\n');
    expect(kubectl("get pods -l 'app in (web,db)' -o name").stdout).toBe('pod/a\npod/b\n');
    expect(kubectl('get pods a -l app=web').stderr).toBe(
      'error: name cannot be provided when a selector is specified\n',
    );
  });

  it('reports a bad -l as kube-apiserver rejects it, enhanced as EnhanceListError does', () => {
    expect(kubectl("get pods -l 'app in (web'")).toEqual({
      stdout: '',
      stderr:
        'Error from server (BadRequest): Unable to find "/v1, Resource=pods" that match label selector "app in (web", field selector "": unable to parse requirement: found \'\', expected: \',\' or \')\'\n',
      exitCode: 1,
    });
    expect(kubectl('get deploy,svc -l a=b=c').stderr).toBe(
      'Error from server (BadRequest): Unable to find "apps/v1, Resource=deployments" that match label selector "a=b=c", field selector "": found \'=\', expected: \',\' or \'end of string\'\n' +
        'Error from server (BadRequest): Unable to find "/v1, Resource=services" that match label selector "a=b=c", field selector "": found \'=\', expected: \',\' or \'end of string\'\n',
    );
    expect(kubectl('get endpointslices -l app,').stderr).toBe(
      'Error from server (BadRequest): Unable to find "discovery.k8s.io/v1, Resource=endpointslices" that match label selector "app,", field selector "": found \'\', expected: identifier after \',\'\n',
    );
  });

  it('warns that ComponentStatus is deprecated', () => {
    const r = kubectl('get cs');
    expect(r.stderr).toBe('Warning: v1 ComponentStatus is deprecated in v1.19+\n');
    expect(r.stdout).toBe(
      'NAME                 STATUS    MESSAGE   ERROR\nscheduler            Healthy   ok        \ncontroller-manager   Healthy   ok        \netcd-0               Healthy   ok        \n',
    );
  });

  it('reports connection failures as kubectl does', () => {
    api.down = true;
    expect(kubectl('get pods')).toEqual({
      stdout: '',
      stderr:
        'The connection to the server 10.0.0.1:6443 was refused - did you specify the right host or port?\n',
      exitCode: 1,
    });
  });
});

describe('kubectl apply', () => {
  it('creates, leaves unchanged, and configures, keeping last-applied-configuration', () => {
    expect(kubectl('apply -f -', WEB)).toEqual({
      stdout: 'deployment.apps/web created\n',
      stderr: '',
      exitCode: 0,
    });
    const d = api.get<Deployment>('test', 'deployments', 'default', 'web');
    expect(d.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration']).toBe(
      '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"web","namespace":"default"},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.25","name":"nginx","ports":[{"containerPort":80}]}]}}}}\n',
    );
    expect(kubectl('apply -f -', WEB).stdout).toBe('deployment.apps/web unchanged\n');
    // Someone scales by hand; applying the manifest again restores its replicas.
    expect(kubectl('scale deployment web --replicas=5').stdout).toBe(
      'deployment.apps/web scaled\n',
    );
    expect(kubectl('apply -f -', WEB).stdout).toBe('deployment.apps/web configured\n');
    expect(api.get<Deployment>('test', 'deployments', 'default', 'web').spec.replicas).toBe(3);
    const changed = WEB.replace('nginx:1.25', 'nginx:1.26').replace(
      '        ports:\n        - containerPort: 80\n',
      '',
    );
    expect(kubectl('apply -f -', changed).stdout).toBe('deployment.apps/web configured\n');
    const c = api.get<Deployment>('test', 'deployments', 'default', 'web').spec.template.spec
      .containers[0];
    expect(c.image).toBe('nginx:1.26');
    expect(c.ports).toBeUndefined();
    expect(c.imagePullPolicy).toBe('IfNotPresent');
  });

  it('applies every document of a multi-document manifest', () => {
    const svc =
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: web\n  ports:\n  - port: 80\n';
    expect(kubectl('apply -f -', `${WEB}---\n${svc}---\n`).stdout).toBe(
      'deployment.apps/web created\nservice/web created\n',
    );
  });

  it('applies the documents it can map and prints the mapping errors after them', () => {
    const pod =
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p1\nspec:\n  containers:\n  - name: c\n    image: nginx\n';
    const widget = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n';
    const one = kubectl('apply -f -', `${widget}---\n${pod}`);
    expect(one).toEqual({
      stdout: 'pod/p1 created\n',
      stderr:
        'error: resource mapping not found for name: "w" namespace: "" from "STDIN": no matches for kind "Widget" in version "example.com/v1"\nensure CRDs are installed first\n',
      exitCode: 1,
    });
    // Several errors are an aggregate: one per line, without the "error: " prefix.
    const two = kubectl(
      'apply -f -',
      `${widget}---\n${pod}---\n${widget.replace('name: w', 'name: w2')}`,
    );
    expect(two.stdout).toBe('pod/p1 unchanged\n');
    expect(two.stderr).toBe(
      'resource mapping not found for name: "w" namespace: "" from "STDIN": no matches for kind "Widget" in version "example.com/v1"\nensure CRDs are installed first\n' +
        'resource mapping not found for name: "w2" namespace: "" from "STDIN": no matches for kind "Widget" in version "example.com/v1"\nensure CRDs are installed first\n',
    );
    expect(two.exitCode).toBe(1);
  });

  it('rejects bad input before sending anything', () => {
    expect(
      kubectl('apply -f -', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n\tspec: {}\n').stderr,
    ).toBe(
      'error: error parsing STDIN: error converting YAML to JSON: yaml: line 5: found character that cannot start any token\n',
    );
    expect(kubectl('apply -f -', 'apiVersion: v1\nmetadata:\n  name: x\n').stderr).toBe(
      'error: error validating "STDIN": error validating data: kind not set; if you choose to ignore these errors, turn validation off with --validate=false\n',
    );
    expect(kubectl('apply -f -', 'metadata:\n  name: x\n').stderr).toBe(
      'error: error validating "STDIN": error validating data: [apiVersion not set, kind not set]; if you choose to ignore these errors, turn validation off with --validate=false\n',
    );
    expect(
      kubectl('apply -f -', 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n')
        .stderr,
    ).toBe(
      'error: resource mapping not found for name: "w" namespace: "" from "STDIN": no matches for kind "Widget" in version "example.com/v1"\nensure CRDs are installed first\n',
    );
    expect(
      kubectl('apply -f -', 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: cfg\n').stderr,
    ).toBe(
      'error: resource mapping not found for name: "cfg" namespace: "" from "STDIN": kind "Secret" in version "v1" is built into Kubernetes but not modelled by this simulator, which models ConfigMap, Event, Namespace, Node, Pod, ServiceAccount, Service, DaemonSet.apps, Deployment.apps, ReplicaSet.apps, Lease.coordination.k8s.io, EndpointSlice.discovery.k8s.io, GatewayClass.gateway.networking.k8s.io, Gateway.gateway.networking.k8s.io, HTTPRoute.gateway.networking.k8s.io, IngressClass.networking.k8s.io, Ingress.networking.k8s.io, IPAddress.networking.k8s.io, NetworkPolicy.networking.k8s.io, ServiceCIDR.networking.k8s.io, PodDisruptionBudget.policy\n',
    );
    expect(
      kubectl('apply -n prod -f -', WEB.replace('name: web', 'name: web\n  namespace: dev')).stderr,
    ).toBe(
      'error: the namespace from the provided object "dev" does not match the namespace "prod". You must pass \'--namespace=dev\' to perform this operation.\n',
    );
    expect(kubectl('get deploy').stderr).toBe('No resources found in default namespace.\n');
  });

  it('reports server-side validation as kubectl formats Invalid errors', () => {
    const r = kubectl('apply -f -', WEB.replace('replicas: 3', 'replicas: -1'));
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /^The Deployment "web" is invalid: spec\.replicas: Invalid value: -1: must be greater than or equal to 0\n$/,
    );
  });

  it('create -f - creates and reports AlreadyExists with the source', () => {
    expect(kubectl('create -f -', WEB).stdout).toBe('deployment.apps/web created\n');
    expect(kubectl('create -f -', WEB).stderr).toBe(
      'Error from server (AlreadyExists): error when creating "STDIN": deployments.apps "web" already exists\n',
    );
  });
});

describe('kubectl create deployment', () => {
  it('builds the Deployment kubectl builds', () => {
    expect(
      kubectl('create deployment web --image=registry.k8s.io/nginx:1.25 --replicas=2 --port=8080')
        .stdout,
    ).toBe('deployment.apps/web created\n');
    const d = api.get<Deployment>('test', 'deployments', 'default', 'web');
    expect(d.metadata.labels).toEqual({ app: 'web' });
    expect(d.spec.selector).toEqual({ matchLabels: { app: 'web' } });
    expect(d.spec.replicas).toBe(2);
    expect(d.spec.template.metadata?.labels).toEqual({ app: 'web' });
    expect(
      d.spec.template.spec.containers.map((c) => [c.name, c.image, c.ports?.[0]?.containerPort]),
    ).toEqual([['nginx', 'registry.k8s.io/nginx:1.25', 8080]]);
    expect(kubectl('create deployment web --image=nginx').stderr).toBe(
      'error: failed to create deployment: deployments.apps "web" already exists\n',
    );
  });
});

describe('kubectl set image, rollout', () => {
  function deploymentWithHistory(): Deployment {
    const d = seed('deployments', newDeployment('web', 3, { image: 'nginx:1.26' }));
    const rs1 = newReplicaSet(d, '5d78c9b8f7', 0, 1, 'nginx:1.25');
    const rs2 = newReplicaSet(d, '6b8f4c7d9e', 3, 2);
    rs1.metadata.ownerReferences![0].uid = d.metadata.uid;
    rs2.metadata.ownerReferences![0].uid = d.metadata.uid;
    rs1.metadata.annotations!['kubernetes.io/change-cause'] = 'first';
    seed('replicasets', rs1);
    seed('replicasets', rs2);
    return d;
  }

  it('set image patches the template and is silent when nothing changes', () => {
    seed('deployments', newDeployment('web', 1));
    expect(kubectl('set image deployment/web nginx=nginx:1.27').stdout).toBe(
      'deployment.apps/web image updated\n',
    );
    expect(
      api.get<Deployment>('test', 'deployments', 'default', 'web').spec.template.spec.containers[0]
        .image,
    ).toBe('nginx:1.27');
    expect(kubectl('set image deployment/web nginx=nginx:1.27')).toEqual({
      stdout: '',
      stderr: '',
      exitCode: 0,
    });
    expect(kubectl('set image deployment/web app=x').stderr).toBe(
      'error: deployments/web unable to find container named "app"\n',
    );
  });

  it('set image without name=image fetches the objects, then refuses', () => {
    expect(kubectl('set image deployment/nope')).toEqual({
      stdout: '',
      stderr: 'Error from server (NotFound): deployments.apps "nope" not found\n',
      exitCode: 1,
    });
    kubectl('apply -f -', WEB);
    expect(kubectl('set image deployment/web')).toEqual({
      stdout: '',
      stderr: 'error: at least one image update is required\n',
      exitCode: 1,
    });
  });

  it('rollout history lists revisions with change causes', () => {
    deploymentWithHistory();
    expect(kubectl('rollout history deployment/web').stdout).toBe(
      'deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         first\n2         <none>\n\n',
    );
    const one = kubectl('rollout history deployment/web --revision=1').stdout;
    expect(
      one.startsWith(
        'deployment.apps/web with revision #1\nPod Template:\n  Labels:\tapp=web\n\tpod-template-hash=5d78c9b8f7\n',
      ),
    ).toBe(true);
    expect(kubectl('rollout history deployment/web --revision=7').stderr).toBe(
      'error: unable to find the specified revision\n',
    );
  });

  it('rollout undo restores the previous revision without its pod-template-hash', () => {
    deploymentWithHistory();
    expect(kubectl('rollout undo deployment/web').stdout).toBe('deployment.apps/web rolled back\n');
    const d = api.get<Deployment>('test', 'deployments', 'default', 'web');
    expect(d.spec.template.spec.containers[0].image).toBe('nginx:1.25');
    expect(d.spec.template.metadata?.labels).toEqual({ app: 'web' });
    expect(d.metadata.annotations?.['kubernetes.io/change-cause']).toBe('first');
    expect(kubectl('rollout undo deployment/web --to-revision=1').stdout).toBe(
      'deployment.apps/web skipped rollback (current template already matches revision 1)\n',
    );
    expect(kubectl('rollout undo deployment/web --to-revision=9').stderr).toBe(
      'error: unable to find specified revision 9 in history\n',
    );
  });

  it('rollout status prints the state at this instant', () => {
    seed('deployments', newDeployment('done', 3));
    expect(kubectl('rollout status deployment/done').stdout).toBe(
      'deployment "done" successfully rolled out\n',
    );
    seed('deployments', newDeployment('mid', 3, { updated: 1, ready: 2, available: 2 }));
    expect(kubectl('rollout status deployment/mid').stdout).toBe(
      'Waiting for deployment "mid" rollout to finish: 1 out of 3 new replicas have been updated...\n',
    );
    seed('deployments', newDeployment('avail', 3, { updated: 3, ready: 1, available: 1 }));
    expect(kubectl('rollout status deploy avail').stdout).toBe(
      'Waiting for deployment "avail" rollout to finish: 1 of 3 updated replicas are available...\n',
    );
    expect(kubectl('rollout status deployment/nope').stderr).toBe(
      'Error from server (NotFound): deployments.apps "nope" not found\n',
    );
  });

  it('rollout restart stamps the template', () => {
    seed('deployments', newDeployment('web', 1));
    sim.runUntil(5_000);
    expect(kubectl('rollout restart deployment/web').stdout).toBe(
      'deployment.apps/web restarted\n',
    );
    const d = api.get<Deployment>('test', 'deployments', 'default', 'web');
    expect(d.spec.template.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt']).toBe(
      '2026-01-01T00:00:05Z',
    );
  });
});

describe('kubectl delete', () => {
  it('names the namespace of namespaced objects and handles --force', () => {
    seed('pods', newPod('a'));
    seed('nodes', newNode('node-9'));
    expect(kubectl('delete pod a')).toEqual({
      stdout: 'pod "a" deleted from default namespace\n',
      stderr: '',
      exitCode: 0,
    });
    expect(kubectl('delete node node-9').stdout).toBe('node "node-9" deleted\n');
    expect(kubectl('delete pod a').stderr).toBe(
      'Error from server (NotFound): pods "a" not found\n',
    );
    seed('pods', newPod('b', { node: 'node-1' }));
    const f = kubectl('delete pod b --grace-period=0 --force');
    expect(f.stderr).toBe(
      'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n',
    );
    expect(f.stdout).toBe('pod "b" force deleted from default namespace\n');
    expect(kubectl('delete pods --all').stdout).toBe('No resources found\n');
  });
});

describe('kubectl cordon, drain, label, taint', () => {
  function cluster(): void {
    seed('nodes', newNode('node-1'));
    const ds: DaemonSet = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'kube-proxy', namespace: 'kube-system' } as DaemonSet['metadata'],
      spec: {
        selector: { matchLabels: { 'k8s-app': 'kube-proxy' } },
        template: {
          metadata: { labels: { 'k8s-app': 'kube-proxy' } },
          spec: { containers: [{ name: 'kube-proxy', image: 'kube-proxy' }] },
        },
      },
      status: {
        currentNumberScheduled: 1,
        desiredNumberScheduled: 1,
        numberReady: 1,
        numberMisscheduled: 0,
      },
    };
    const created = seed('daemonsets', ds);
    seed(
      'pods',
      newPod('kube-proxy-x7k2p', {
        namespace: 'kube-system',
        node: 'node-1',
        owner: { kind: 'DaemonSet', name: 'kube-proxy', uid: created.metadata.uid },
      }),
    );
    seed(
      'pods',
      newPod('web-5d78c9b8f7-2xkqp', {
        node: 'node-1',
        owner: { kind: 'ReplicaSet', name: 'web-5d78c9b8f7', uid: 'x' },
      }),
    );
    seed(
      'pods',
      newPod('web-5d78c9b8f7-9abcd', {
        node: 'node-1',
        owner: { kind: 'ReplicaSet', name: 'web-5d78c9b8f7', uid: 'x' },
      }),
    );
  }

  it('cordon and uncordon report what changed', () => {
    cluster();
    expect(kubectl('cordon node-1').stdout).toBe('node/node-1 cordoned\n');
    expect(api.get<Node>('test', 'nodes', undefined, 'node-1').spec.unschedulable).toBe(true);
    expect(kubectl('cordon node-1').stdout).toBe('node/node-1 already cordoned\n');
    expect(kubectl('uncordon node-1').stdout).toBe('node/node-1 uncordoned\n');
    expect(api.get<Node>('test', 'nodes', undefined, 'node-1').spec.unschedulable).toBeUndefined();
    expect(kubectl('cordon node-7').stderr).toBe(
      'Error from server (NotFound): nodes "node-7" not found\n',
    );
  });

  it('drain refuses DaemonSet Pods unless --ignore-daemonsets', () => {
    cluster();
    const r = kubectl('drain node-1');
    expect(r.stdout).toBe('node/node-1 cordoned\n');
    expect(r.stderr).toBe(
      'error: unable to drain node "node-1" due to error: cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/kube-proxy-x7k2p, continuing command...\nThere are pending nodes to be drained:\n node-1\ncannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/kube-proxy-x7k2p\n',
    );
    expect(r.exitCode).toBe(1);
    const ok = kubectl('drain node-1 --ignore-daemonsets');
    expect(ok.stderr).toBe(
      'Warning: ignoring DaemonSet-managed Pods: kube-system/kube-proxy-x7k2p\n',
    );
    expect(ok.stdout).toBe(
      'node/node-1 already cordoned\nevicting pod default/web-5d78c9b8f7-2xkqp\nevicting pod default/web-5d78c9b8f7-9abcd\npod/web-5d78c9b8f7-2xkqp evicted\npod/web-5d78c9b8f7-9abcd evicted\nnode/node-1 drained\n',
    );
    // A terminal shows the warning where drain wrote it: after the cordon, before the evictions
    // (drain.go prints the pod list's warnings to ErrOut, then evicts).
    expect(ok.terminal).toBe(
      'node/node-1 already cordoned\nWarning: ignoring DaemonSet-managed Pods: kube-system/kube-proxy-x7k2p\nevicting pod default/web-5d78c9b8f7-2xkqp\nevicting pod default/web-5d78c9b8f7-9abcd\npod/web-5d78c9b8f7-2xkqp evicted\npod/web-5d78c9b8f7-9abcd evicted\nnode/node-1 drained\n',
    );
    expect(r.terminal).toBeUndefined();
    expect(
      api.get<Pod>('test', 'pods', 'default', 'web-5d78c9b8f7-2xkqp').metadata.deletionTimestamp,
    ).toBeDefined();
  });

  it('drain refuses bare Pods unless --force', () => {
    seed('nodes', newNode('node-1'));
    seed('pods', newPod('bare', { node: 'node-1' }));
    expect(kubectl('drain node-1').stderr).toContain(
      'cannot delete Pods that declare no controller (use --force to override): default/bare',
    );
    const r = kubectl('drain node-1 --force');
    expect(r.stderr).toBe('Warning: deleting Pods that declare no controller: default/bare\n');
    expect(r.stdout).toBe(
      'node/node-1 already cordoned\nevicting pod default/bare\npod/bare evicted\nnode/node-1 drained\n',
    );
  });

  it('label adds, refuses to overwrite, and removes', () => {
    seed('pods', newPod('a', { labels: { app: 'web' } }));
    expect(kubectl('label pod a tier=frontend').stdout).toBe('pod/a labeled\n');
    expect(kubectl('label pod a tier=backend').stderr).toBe(
      "error: 'tier' already has a value (frontend), and --overwrite is false\n",
    );
    expect(kubectl('label pod a tier=backend --overwrite').stdout).toBe('pod/a labeled\n');
    expect(kubectl('label pod a tier-').stdout).toBe('pod/a unlabeled\n');
    expect(kubectl('label pod a app=web').stdout).toBe('pod/a not labeled\n');
    expect(api.get<Pod>('test', 'pods', 'default', 'a').metadata.labels).toEqual({ app: 'web' });
  });

  it('taint adds, refuses duplicates, and removes', () => {
    seed('nodes', newNode('node-1'));
    expect(kubectl('taint nodes node-1 dedicated=gpu:NoSchedule').stdout).toBe(
      'node/node-1 tainted\n',
    );
    expect(kubectl('taint nodes node-1 dedicated=cpu:NoSchedule').stderr).toBe(
      'error: node node-1 already has dedicated taint(s) with same effect(s) and --overwrite is false\n',
    );
    expect(kubectl('taint nodes node-1 dedicated=cpu:NoSchedule --overwrite').stdout).toBe(
      'node/node-1 modified\n',
    );
    expect(api.get<Node>('test', 'nodes', undefined, 'node-1').spec.taints?.[0]).toEqual({
      key: 'dedicated',
      value: 'cpu',
      effect: 'NoSchedule',
    });
    expect(kubectl('taint nodes node-1 dedicated:NoSchedule-').stdout).toBe(
      'node/node-1 untainted\n',
    );
    expect(kubectl('taint nodes node-1 dedicated-').stderr).toBe(
      'error: taint "dedicated:" not found\n',
    );
  });
});

describe('kubectl describe', () => {
  it('falls back to a name prefix match, and separates several objects with blank lines', () => {
    seed('pods', newPod('web-5d78c9b8f7-2xkqp', { node: 'node-1' }));
    seed('pods', newPod('web-5d78c9b8f7-9abcd', { node: 'node-1' }));
    const r = kubectl('describe pod web');
    expect(r.exitCode).toBe(0);
    expect(r.stdout.match(/^Name: +web-/gm)).toHaveLength(2);
    expect(r.stdout).toContain('<none>\n\n\nName:             web-5d78c9b8f7-9abcd\n');
    expect(kubectl('describe pod nope').stderr).toBe(
      'Error from server (NotFound): pods "nope" not found\n',
    );
    expect(kubectl('describe pods -n kube-system').stderr).toBe(
      'No resources found in kube-system namespace.\n',
    );
  });

  it('describe deployment leaves old ReplicaSets scaled to 0 out of OldReplicaSets', () => {
    const d = seed('deployments', newDeployment('web', 3, { image: 'nginx:1.27' }));
    const withOwner = (rs: ReturnType<typeof newReplicaSet>) => {
      rs.metadata.ownerReferences![0].uid = d.metadata.uid;
      rs.status.replicas = rs.spec.replicas ?? 0;
      return rs;
    };
    seed('replicasets', withOwner(newReplicaSet(d, 'aaaaaaaaa1', 0, 1, 'nginx:1.25')));
    seed('replicasets', withOwner(newReplicaSet(d, 'bbbbbbbbb2', 1, 2, 'nginx:1.26')));
    seed('replicasets', withOwner(newReplicaSet(d, 'ccccccccc3', 3, 3)));
    const out = kubectl('describe deployment web').stdout;
    expect(out).toContain('\nOldReplicaSets:  web-bbbbbbbbb2 (1/1 replicas created)\n');
    expect(out).toContain('\nNewReplicaSet:   web-ccccccccc3 (3/3 replicas created)\n');
    // After the rollout completes, no old ReplicaSet has replicas left.
    api.patch('test', 'replicasets', 'default', 'web-bbbbbbbbb2', { spec: { replicas: 0 } });
    expect(kubectl('describe deployment web').stdout).toContain('\nOldReplicaSets:  <none>\n');
    // rollout history still reads every old ReplicaSet.
    expect(kubectl('rollout history deployment/web').stdout).toMatch(/^1 .*\n2 .*\n3 /m);
  });

  it('describes a node with its lease lookup failing', () => {
    seed('nodes', newNode('node-1'));
    expect(kubectl('describe node node-1').stdout).toContain(
      'Lease:              Failed to get lease: leases.coordination.k8s.io "node-1" not found\n',
    );
  });
});

describe('kubectl version', () => {
  it('prints client, kustomize and server versions', () => {
    expect(kubectl('version').stdout).toBe(
      'Client Version: v1.34.1\nKustomize Version: v5.7.1\nServer Version: v1.34.1\n',
    );
  });
});

describe('kubectl --field-selector', () => {
  beforeEach(() => {
    seed('pods', newPod('web-1', { node: 'node-1', ip: '10.244.1.2' }));
    seed('pods', newPod('web-2', { node: 'node-2', ip: '10.244.2.2' }));
    seed('pods', newPod('pending', { phase: 'Pending' }));
    seed('nodes', newNode('node-1'));
  });

  it('get lists what kube-apiserver selects', () => {
    expect(kubectl('get pods --field-selector spec.nodeName=node-1 -o name').stdout).toBe(
      'pod/web-1\n',
    );
    expect(kubectl('get pods --field-selector status.phase!=Running -o name').stdout).toBe(
      'pod/pending\n',
    );
    expect(
      kubectl('get pods --field-selector=status.phase==Running,metadata.name!=web-1 -o name')
        .stdout,
    ).toBe('pod/web-2\n');
    expect(kubectl('get pods --field-selector status.podIP=10.244.2.2 -o name').stdout).toBe(
      'pod/web-2\n',
    );
    expect(kubectl('get pods --field-selector spec.nodeName=node-9')).toEqual({
      stdout: '',
      stderr: 'No resources found in default namespace.\n',
      exitCode: 0,
    });
    expect(kubectl('get nodes --field-selector metadata.name=node-1 -o name').stdout).toBe(
      'node/node-1\n',
    );
  });

  it('get reports unknown fields and bad selectors as kube-apiserver and EnhanceListError word them', () => {
    expect(kubectl('get pods --field-selector foo=bar')).toEqual({
      stdout: '',
      stderr:
        'Error from server (BadRequest): Unable to find "/v1, Resource=pods" that match label selector "", field selector "foo=bar": field label not supported: foo\n',
      exitCode: 1,
    });
    expect(kubectl('get deploy --field-selector status.replicas=1').stderr).toBe(
      'Error from server (BadRequest): Unable to find "apps/v1, Resource=deployments" that match label selector "", field selector "status.replicas=1": "status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"\n',
    );
    expect(kubectl('get pods -l app=web --field-selector status.phase').stderr).toBe(
      'Error from server (BadRequest): Unable to find "/v1, Resource=pods" that match label selector "app=web", field selector "status.phase": invalid selector: \'status.phase\'; can\'t understand \'status.phase\'\n',
    );
    expect(kubectl('get pods web-1 --field-selector spec.nodeName=node-1').stderr).toBe(
      'error: name cannot be provided when a selector is specified\n',
    );
    expect(kubectl('get cs --field-selector metadata.name=etcd-0').stdout).toBe(
      'NAME     STATUS    MESSAGE   ERROR\netcd-0   Healthy   ok        \n',
    );
  });

  it('delete and label act on the selected objects only', () => {
    expect(kubectl('label pods --field-selector spec.nodeName=node-2 tier=web').stdout).toBe(
      'pod/web-2 labeled\n',
    );
    expect(kubectl('delete pods --field-selector status.phase=Pending')).toEqual({
      stdout: 'pod "pending" deleted from default namespace\n',
      stderr: '',
      exitCode: 0,
    });
    expect(kubectl('delete pods --field-selector status.phase=Pending').stdout).toBe(
      'No resources found\n',
    );
  });
});

describe('kubectl get --sort-by', () => {
  beforeEach(() => {
    // kube-apiserver stamps creationTimestamp: web-10 at 0s, web-2 at 5s, web-1 at 9s.
    seed('pods', newPod('web-10', { node: 'node-2', statuses: [{ restartCount: 3 }] }));
    sim.runUntil(5_000);
    seed('pods', newPod('web-2', { node: 'node-1', statuses: [{ restartCount: 0 }] }));
    sim.runUntil(9_000);
    seed('pods', newPod('web-1', { phase: 'Pending', statuses: [] }));
    sim.runUntil(30_000);
  });

  it('sorts table rows by strings, timestamps and numbers', () => {
    expect(kubectl('get pods --sort-by=.metadata.name').stdout).toBe(
      'NAME     READY   STATUS    RESTARTS   AGE\n' +
        'web-1    0/1     Pending   0          21s\n' +
        'web-2    1/1     Running   0          25s\n' +
        'web-10   1/1     Running   3          30s\n',
    );
    expect(kubectl('get pods --sort-by={.metadata.creationTimestamp} -o name').stdout).toBe(
      'pod/web-10\npod/web-2\npod/web-1\n',
    );
    expect(kubectl('get pods --sort-by=metadata.creationTimestamp').stdout).toBe(
      'NAME     READY   STATUS    RESTARTS   AGE\n' +
        'web-10   1/1     Running   3          30s\n' +
        'web-2    1/1     Running   0          25s\n' +
        'web-1    0/1     Pending   0          21s\n',
    );
    expect(kubectl("get pods --sort-by='{.spec.nodeName}' -o name").stdout).toBe(
      'pod/web-1\npod/web-2\npod/web-10\n',
    );
  });

  it('reports a path no object has, and a bad path, as kubectl does', () => {
    expect(kubectl('get pods --sort-by=.metadata.uid2')).toEqual({
      stdout: '',
      stderr:
        'error: couldn\'t find any field with path "{.metadata.uid2}" in the list of objects\n',
      exitCode: 1,
    });
    expect(kubectl("get pods --sort-by='{.metadata.name'").stderr).toBe(
      'error: sorting error: unclosed action\n',
    );
    expect(kubectl("get pods --sort-by='{.metadata.name' -o yaml").stderr).toBe(
      "error: unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'\n",
    );
    // One pod has no containerStatuses[0]: the evaluator's error, wrapped by NewTableSorter.
    expect(kubectl('get pods --sort-by=.status.containerStatuses[0].restartCount').stderr).toBe(
      'error: Failed to get values for [][]reflect.Value(nil) using {.status.containerStatuses[0].restartCount} (&errors.errorString{s:"array index out of bounds: index 0, length 0"})\n',
    );
    expect(
      kubectl('get pods --sort-by=.status.containerStatuses[0].restartCount -o name').stderr,
    ).toBe('error: array index out of bounds: index 0, length 0\n');
  });

  it('sorts by a count, and leaves a single implied object alone', () => {
    kubectl('delete pod web-1 --grace-period=0 --force');
    expect(
      kubectl('get pods --sort-by=.status.containerStatuses[0].restartCount -o name').stdout,
    ).toBe('pod/web-2\npod/web-10\n');
    expect(kubectl('get pod web-2 --sort-by=.nothing -o name').stdout).toBe('pod/web-2\n');
    expect(kubectl('get pod web-2 --sort-by=.nothing').stderr).toBe(
      'error: couldn\'t find any field with path "{.nothing}" in the list of objects\n',
    );
  });
});

describe('kubectl scale --current-replicas', () => {
  it('scales only when the current replicas match', () => {
    seed('deployments', newDeployment('web', 3));
    expect(kubectl('scale deploy web --replicas=5 --current-replicas=2')).toEqual({
      stdout: '',
      stderr: 'error: Expected replicas to be 2, was 3\n',
      exitCode: 1,
    });
    expect(api.get<Deployment>('test', 'deployments', 'default', 'web').spec.replicas).toBe(3);
    expect(kubectl('scale deploy web --replicas=5 --current-replicas=3').stdout).toBe(
      'deployment.apps/web scaled\n',
    );
    expect(api.get<Deployment>('test', 'deployments', 'default', 'web').spec.replicas).toBe(5);
  });
});
