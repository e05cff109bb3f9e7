import { describe, expect, it } from 'vitest';
import {
  parseCommandLine,
  parseTaintSpec,
  resolveResource,
  suggestionsFor,
  tokenize,
  type KubectlCommand,
} from './parse.ts';

function ok(line: string): KubectlCommand {
  const r = parseCommandLine(line);
  if (!r.ok) throw new Error(`expected ${line} to parse, got: ${r.stderr}`);
  return r.command;
}

function err(line: string): string {
  const r = parseCommandLine(line);
  if (r.ok) throw new Error(`expected ${line} to fail`);
  expect(r.exitCode).toBe(1);
  return r.stderr;
}

describe('tokenize', () => {
  it('splits like a shell, with quotes and backslashes, and expands nothing', () => {
    expect(tokenize(`get pods -l 'app in (a,b)' -o "json"`)).toEqual([
      'get',
      'pods',
      '-l',
      'app in (a,b)',
      '-o',
      'json',
    ]);
    expect(tokenize('label pod x a=b\\ c $HOME `x`')).toEqual([
      'label',
      'pod',
      'x',
      'a=b c',
      '$HOME',
      '`x`',
    ]);
    expect(tokenize('a "" b')).toEqual(['a', '', 'b']);
  });
  it('reports an unterminated quote', () => {
    expect(err(`get pods -l 'app=web`)).toBe(
      "error: unexpected EOF while looking for matching `''\n",
    );
  });
});

describe('resource names', () => {
  it('resolves plurals, singulars, short names, kinds and group-qualified names', () => {
    const r = (s: string) => resolveResource(s).resource;
    expect(['po', 'pod', 'pods', 'Pods', 'pod.v1'].map(r)).toEqual(Array(5).fill('pods'));
    expect(
      ['deploy', 'deployment', 'deployments', 'deployment.apps', 'deployments.v1.apps'].map(r),
    ).toEqual(Array(5).fill('deployments'));
    expect(
      ['rs', 'no', 'nodes', 'svc', 'ev', 'ds', 'ns', 'cs', 'lease', 'endpointslices'].map(r),
    ).toEqual([
      'replicasets',
      'nodes',
      'nodes',
      'services',
      'events',
      'daemonsets',
      'namespaces',
      'componentstatuses',
      'leases',
      'endpointslices',
    ]);
  });
  it('refuses resources the simulated server does not serve', () => {
    expect(err('get foo')).toBe('error: the server doesn\'t have a resource type "foo"\n');
    expect(err('get endpoints')).toBe(
      'error: the server doesn\'t have a resource type "endpoints"\n',
    );
    expect(err('get pods,ep')).toBe('error: the server doesn\'t have a resource type "ep"\n');
  });
});

describe('unknown commands and flags', () => {
  it('suggests close commands as cobra does', () => {
    expect(err('gett pods')).toBe(
      'error: unknown command "gett" for "kubectl"\n\nDid you mean this?\n\tset\n\tget\n',
    );
    expect(err('aply -f -')).toBe(
      'error: unknown command "aply" for "kubectl"\n\nDid you mean this?\n\tapply\n',
    );
    expect(err('frobnicate')).toBe('error: unknown command "frobnicate" for "kubectl"\n');
    expect(suggestionsFor('ge')).toEqual(['set', 'get', 'cp']);
    expect(suggestionsFor('ps')).toEqual(['get', 'cp']);
  });
  it('reports unknown and malformed flags with the usage hint', () => {
    expect(err('get pods --foo')).toBe(
      "error: unknown flag: --foo\nSee 'kubectl get --help' for usage.\n",
    );
    expect(err('get pods -x')).toBe(
      "error: unknown shorthand flag: 'x' in -x\nSee 'kubectl get --help' for usage.\n",
    );
    expect(err('get pods -n')).toBe(
      "error: flag needs an argument: 'n' in -n\nSee 'kubectl get --help' for usage.\n",
    );
    expect(err('scale deploy web --replicas=three')).toBe(
      'error: invalid argument "three" for "--replicas" flag: strconv.ParseInt: parsing "three": invalid syntax\nSee \'kubectl scale --help\' for usage.\n',
    );
  });
  it('refuses real commands the simulator does not implement', () => {
    expect(err('attach web')).toBe('error: kubectl attach is not supported in this simulator\n');
    expect(err('create secret generic x')).toBe(
      'error: kubectl create secret is not supported in this simulator\n',
    );
  });
  it('accepts an optional leading "kubectl" and global flags before the command', () => {
    expect(ok('kubectl -n kube-system get pods')).toMatchObject({
      verb: 'get',
      namespace: 'kube-system',
    });
    expect(ok('--namespace=prod get pods')).toMatchObject({ verb: 'get', namespace: 'prod' });
  });
});

describe('get', () => {
  it('parses types, names, pairs and flags', () => {
    expect(ok('get pods')).toMatchObject({
      verb: 'get',
      output: 'table',
      targets: { form: 'types', names: [] },
    });
    const g = ok('get po,deploy web -o wide -n prod --show-labels');
    expect(g).toMatchObject({ verb: 'get', output: 'wide', namespace: 'prod', showLabels: true });
    if (g.verb === 'get' && g.targets.form === 'types') {
      expect(g.targets.types.map((t) => t.resource)).toEqual(['pods', 'deployments']);
      expect(g.targets.names).toEqual(['web']);
    }
    const p = ok('get pod/a svc/b -oyaml');
    expect(p).toMatchObject({ output: 'yaml' });
    if (p.verb === 'get' && p.targets.form === 'pairs')
      expect(p.targets.pairs.map((x) => `${x.type.resource}/${x.name}`)).toEqual([
        'pods/a',
        'services/b',
      ]);
    expect(ok('get pods -A -l app=web')).toMatchObject({
      allNamespaces: true,
      selector: 'app=web',
    });
    expect(ok('get pods --all-namespaces --selector=app!=web -o=json')).toMatchObject({
      allNamespaces: true,
      selector: 'app!=web',
      output: 'json',
    });
    expect(ok('get pods -o name')).toMatchObject({ output: 'name' });
  });
  it('expands all to the served resources of the "all" category', () => {
    const g = ok('get all');
    if (g.verb === 'get' && g.targets.form === 'types')
      expect(g.targets.types.map((t) => t.resource)).toEqual([
        'pods',
        'services',
        'daemonsets',
        'deployments',
        'replicasets',
      ]);
  });
  it('errors as kubectl does', () => {
    expect(err('get')).toBe(
      'You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).\nSee \'kubectl get -h\' for help and examples\n',
    );
    expect(err('get pods -o foo')).toBe(
      'error: unable to match a printer suitable for the output format "foo", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml\n',
    );
    expect(err('get pods -o jsonpath={.items}')).toBe(
      'error: output format "jsonpath" is not supported in this simulator\n',
    );
    expect(err('get pods -o yaml --show-labels')).toBe(
      'error: --show-labels option cannot be used with yaml printer\n',
    );
    expect(err('get pods -w -o yaml')).toContain('watch (-w) with -o yaml is not supported');
    expect(err('get pod web pod/x')).toContain(
      'there is no need to specify a resource type as a separate argument',
    );
  });
});

describe('describe', () => {
  it('parses and requires a type', () => {
    expect(ok('describe pod web')).toMatchObject({ verb: 'describe', showEvents: true });
    expect(ok('describe nodes --show-events=false')).toMatchObject({ showEvents: false });
    expect(err('describe')).toBe(
      'error: You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.\n',
    );
  });
});

describe('apply and create', () => {
  it('apply -f - reads stdin', () => {
    expect(ok('apply -f -')).toMatchObject({ verb: 'apply', filenames: ['-'] });
    expect(ok('apply --filename=- -n prod')).toMatchObject({ verb: 'apply', namespace: 'prod' });
    expect(err('apply')).toBe('error: must specify one of -f and -k\n');
    expect(err('apply -f deploy.yaml')).toBe('error: the path "deploy.yaml" does not exist\n');
    expect(err('create')).toBe('Error: must specify one of -f and -k\n');
  });
  it('create deployment builds its options', () => {
    expect(ok('create deployment web --image=nginx:1.25 --replicas=3 --port=80')).toMatchObject({
      verb: 'create deployment',
      name: 'web',
      images: ['nginx:1.25'],
      replicas: 3,
      port: 80,
    });
    expect(ok('create deploy web --image a --image b')).toMatchObject({
      images: ['a', 'b'],
      replicas: 1,
      port: -1,
    });
    expect(err('create deployment web')).toBe('error: required flag(s) "image" not set\n');
    expect(err('create deployment --image=nginx')).toBe(
      "error: exactly one NAME is required, got 0\nSee 'kubectl create deployment -h' for help and examples\n",
    );
  });
});

describe('scale, set image, rollout', () => {
  it('scale', () => {
    expect(ok('scale deployment/web --replicas=5')).toMatchObject({ verb: 'scale', replicas: 5 });
    expect(ok('scale deploy web --replicas 0')).toMatchObject({ replicas: 0 });
    expect(err('scale deploy web')).toBe('error: required flag(s) "replicas" not set\n');
    expect(err('scale deploy web --replicas=-1')).toBe(
      'error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0\n',
    );
    expect(err('scale --replicas=3')).toBe(
      "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'\n",
    );
  });
  it('set image', () => {
    expect(ok('set image deployment/web nginx=nginx:1.26 sidecar=envoy:2')).toMatchObject({
      verb: 'set image',
      images: [
        { container: 'nginx', image: 'nginx:1.26' },
        { container: 'sidecar', image: 'envoy:2' },
      ],
    });
    // Validate's check runs after the objects are fetched: the command makes it (kubectl.ts).
    expect(ok('set image deployment/web')).toMatchObject({ verb: 'set image', images: [] });
    expect(err('set image nginx=nginx:1.26')).toMatch(
      /^error: You must provide one or more resources by argument or filename\./,
    );
    expect(err('set image nginx=x deploy/web')).toBe(
      'error: all resources must be specified before image changes: deploy/web\n',
    );
  });
  it('rollout subcommands', () => {
    expect(ok('rollout status deployment/web')).toMatchObject({ verb: 'rollout status' });
    expect(ok('rollout history deploy web --revision=2')).toMatchObject({
      verb: 'rollout history',
      revision: 2,
    });
    expect(ok('rollout undo deployment/web --to-revision=1')).toMatchObject({
      verb: 'rollout undo',
      toRevision: 1,
    });
    expect(ok('rollout restart deployment/web')).toMatchObject({ verb: 'rollout restart' });
    expect(err('rollout status')).toBe('error: required resource not specified\n');
    expect(err('rollout pause deployment/web')).toBe(
      'error: kubectl rollout pause is not supported in this simulator\n',
    );
    expect(err('rollout foo')).toBe(
      'error: unknown command "foo"\nSee \'kubectl rollout -h\' for help and examples\n',
    );
    expect(err('set foo bar')).toBe(
      'error: unknown command "foo bar"\nSee \'kubectl set -h\' for help and examples\n',
    );
  });
  it('rollout and set without a subcommand print their help and exit 1', () => {
    const rollout = parseCommandLine('rollout');
    expect(rollout).toEqual({
      ok: false,
      exitCode: 1,
      stderr: '',
      stdout: `Manage the rollout of one or many resources.
        
 Valid resource types include:

  *  deployments
  *  daemonsets
  *  statefulsets

Examples:
  # Rollback to the previous deployment
  kubectl rollout undo deployment/abc
  
  # Check the rollout status of a daemonset
  kubectl rollout status daemonset/foo
  
  # Restart a deployment
  kubectl rollout restart deployment/abc
  
  # Restart deployments with the 'app=nginx' label
  kubectl rollout restart deployment --selector=app=nginx

Available Commands:
  history       View rollout history
  pause         Mark the provided resource as paused
  restart       Restart a resource
  resume        Resume a paused resource
  status        Show the status of the rollout
  undo          Undo a previous rollout

Usage:
  kubectl rollout SUBCOMMAND [options]

Use "kubectl rollout <command> --help" for more information about a given command.
Use "kubectl options" for a list of global command-line options (applies to all commands).
`,
    });
    const set = parseCommandLine('set');
    expect(set).toMatchObject({ ok: false, exitCode: 1, stdout: '' });
    expect(set.ok ? '' : set.stderr).toBe(`Configure application resources.

 These commands help you make changes to existing application resources.

Available Commands:
  env              Update environment variables on a pod template
  image            Update the image of a pod template
  resources        Update resource requests/limits on objects with pod templates
  selector         Set the selector on a resource
  serviceaccount   Update the service account of a resource
  subject          Update the user, group, or service account in a role binding or cluster role binding

Usage:
  kubectl set SUBCOMMAND [options]

Use "kubectl set <command> --help" for more information about a given command.
Use "kubectl options" for a list of global command-line options (applies to all commands).
`);
  });
});

describe('delete', () => {
  it('parses names, grace period and force', () => {
    expect(ok('delete pod web-1 web-2')).toMatchObject({
      verb: 'delete',
      gracePeriod: -1,
      force: false,
    });
    expect(ok('delete pod web --grace-period=0 --force')).toMatchObject({
      gracePeriod: 0,
      force: true,
    });
    expect(ok('delete pod web --force')).toMatchObject({ gracePeriod: 0 });
    expect(ok('delete pod web --grace-period=0')).toMatchObject({ gracePeriod: 1 });
    expect(ok('delete pod web --now')).toMatchObject({ gracePeriod: 1 });
    expect(ok('delete pods --all')).toMatchObject({ all: true });
    expect(ok('delete pods -l app=web')).toMatchObject({ selector: 'app=web' });
    expect(err('delete pods')).toBe(
      'error: resource(s) were provided, but no name was specified\n',
    );
    expect(err('delete')).toContain(
      'error: You must provide one or more resources by argument or filename.',
    );
  });
});

describe('node commands', () => {
  it('cordon, uncordon, drain', () => {
    expect(ok('cordon node-1')).toMatchObject({ verb: 'cordon', nodes: ['node-1'] });
    expect(ok('uncordon node-1')).toMatchObject({ verb: 'uncordon' });
    expect(ok('drain node-1 --ignore-daemonsets --delete-emptydir-data --force')).toMatchObject({
      verb: 'drain',
      ignoreDaemonsets: true,
      deleteEmptyDirData: true,
      force: true,
      gracePeriod: -1,
    });
    expect(err('drain')).toBe(
      "error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples\n",
    );
  });
  it('taint specs', () => {
    expect(parseTaintSpec('dedicated=gpu:NoSchedule')).toEqual({
      key: 'dedicated',
      value: 'gpu',
      effect: 'NoSchedule',
    });
    expect(parseTaintSpec('example.com/maint:NoExecute')).toEqual({
      key: 'example.com/maint',
      effect: 'NoExecute',
    });
    const t = ok('taint nodes node-1 dedicated=gpu:NoSchedule maint:NoExecute- legacy-');
    expect(t).toMatchObject({
      verb: 'taint',
      add: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      remove: [
        { key: 'maint', effect: 'NoExecute' },
        { key: 'legacy', effect: '' },
      ],
    });
    // parseTaints' errors are usage errors (taint.go Complete: cmdutil.UsageErrorf).
    const see = "\nSee 'kubectl taint -h' for help and examples\n";
    expect(err('taint nodes node-1 a=b:Sometimes')).toBe(
      `error: invalid taint effect: Sometimes, unsupported taint effect${see}`,
    );
    expect(err('taint nodes node-1 a=b')).toMatch(
      /^error: invalid taint spec: a=b, name part must consist of alphanumeric characters.*\nSee 'kubectl taint -h' for help and examples\n$/,
    );
    expect(err('taint nodes node-1 a=b=c:NoSchedule')).toBe(
      `error: invalid taint spec: a=b=c:NoSchedule${see}`,
    );
    expect(err('taint nodes node-1 a:b:c')).toBe(`error: invalid taint spec: a:b:c${see}`);
    expect(err('taint node node-1 a=b:NoSchedule a=c:NoSchedule')).toBe(
      `error: duplicated taints with the same key and effect: {a c NoSchedule <nil>}${see}`,
    );
    expect(err('taint nodes node-1')).toBe('error: at least one taint update is required\n');
    expect(err('taint pods web a:NoSchedule')).toBe(
      'error: invalid resource type pods, only node types are supported\n',
    );
    expect(err('taint node-1 a:NoSchedule b')).toBe(
      'error: all resources must be specified before taint changes: b\n',
    );
  });
  it('label', () => {
    expect(ok('label pod web tier=frontend env- --overwrite')).toMatchObject({
      verb: 'label',
      set: { tier: 'frontend' },
      remove: ['env'],
      overwrite: true,
    });
    expect(err('label pod web')).toBe('error: at least one label update is required\n');
    expect(err('label tier=x')).toBe(
      'error: one or more resources must be specified as <resource> <name> or <resource>/<name>\n',
    );
  });
  it('version', () => {
    expect(ok('version --client')).toMatchObject({ verb: 'version', client: true });
  });
});

describe('--field-selector, --sort-by, --current-replicas', () => {
  it('get takes both, trimming the field selector and dropping empty values', () => {
    expect(
      ok("get pods --field-selector ' status.phase=Running ' --sort-by=.metadata.name"),
    ).toMatchObject({
      verb: 'get',
      fieldSelector: 'status.phase=Running',
      sortBy: '.metadata.name',
    });
    const c = ok("get pods --field-selector '' --sort-by=");
    expect(c).toMatchObject({ verb: 'get' });
    expect((c as { fieldSelector?: string }).fieldSelector).toBeUndefined();
    expect((c as { sortBy?: string }).sortBy).toBeUndefined();
  });

  it('delete selects by field alone, ignores NotFound with a selector, and refuses --all with one', () => {
    expect(ok('delete pods --field-selector status.phase=Failed')).toMatchObject({
      verb: 'delete',
      fieldSelector: 'status.phase=Failed',
      ignoreNotFound: true,
    });
    expect(ok('delete pods --field-selector a=b --ignore-not-found=false')).toMatchObject({
      ignoreNotFound: false,
    });
    expect(ok('delete pod a')).toMatchObject({ ignoreNotFound: false });
    expect(err('delete pods --all --field-selector a=b')).toBe(
      "error: setting 'all' parameter but found a non empty selector. \n",
    );
  });

  it('label takes a field selector and refuses it with --all', () => {
    expect(ok('label pods --field-selector spec.nodeName=node-1 tier=web')).toMatchObject({
      verb: 'label',
      fieldSelector: 'spec.nodeName=node-1',
    });
    expect(err('label pods --all --field-selector a=b x=y')).toBe(
      'error: cannot set --all and --field-selector at the same time\n',
    );
  });

  it('scale takes --current-replicas, -1 or greater', () => {
    expect(ok('scale deploy web --replicas=3 --current-replicas=2')).toMatchObject({
      replicas: 3,
      currentReplicas: 2,
    });
    expect(ok('scale deploy web --replicas=3')).toMatchObject({ currentReplicas: -1 });
    expect(err('scale deploy web --replicas=3 --current-replicas=-2')).toBe(
      'error: The --current-replicas must specify an integer of -1 or greater\n',
    );
  });

  it('describe and drain have no --field-selector', () => {
    expect(err('describe pods --field-selector a=b')).toContain('unknown flag: --field-selector');
  });
});
