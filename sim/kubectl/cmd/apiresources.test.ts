import { describe, expect, it } from 'vitest';
import { golden } from '../../testing.ts';
import { runKubectl, type KubectlClient, type KubectlResult } from '../kubectl.ts';

// api-resources reads discovery only, so no API client is needed.
function kubectl(line: string): KubectlResult {
  return runKubectl({ client: {} as KubectlClient, now: () => 0 }, line);
}

function out(line: string): string {
  const r = kubectl(line);
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return r.stdout;
}

describe('kubectl api-resources', () => {
  it('prints discovery sorted by group then name, as kubectl v1.34 does', () => {
    golden(new URL('../testdata/api-resources.txt', import.meta.url), out('api-resources'));
  });

  it('-o wide adds VERBS and CATEGORIES', () => {
    golden(
      new URL('../testdata/api-resources-wide.txt', import.meta.url),
      out('api-resources -o wide'),
    );
  });

  it('filters by --namespaced and --api-group, only when the flag is given', () => {
    const cluster = out('api-resources --namespaced=false --no-headers');
    expect(
      cluster
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual([
      'componentstatuses',
      'namespaces',
      'nodes',
      'gatewayclasses',
      'ingressclasses',
      'ipaddresses',
      'servicecidrs',
    ]);
    expect(out('api-resources --api-group=apps -o name')).toBe(
      'daemonsets.apps\ndeployments.apps\nreplicasets.apps\n',
    );
    // --api-group= is the core group, not "any group".
    expect(out('api-resources --api-group= --namespaced -o name')).toBe(
      'configmaps\nevents\npods\nserviceaccounts\nservices\n',
    );
    // Nothing matches: the header alone, as the empty table prints.
    expect(out('api-resources --api-group=batch')).toBe(
      'NAME   SHORTNAMES   APIVERSION   NAMESPACED   KIND\n',
    );
  });

  it('filters by --verbs and --categories, and sorts by --sort-by', () => {
    expect(out('api-resources --verbs=get,list --categories=all -o name --sort-by=kind')).toBe(
      'daemonsets.apps\ndeployments.apps\npods\nreplicasets.apps\nservices\n',
    );
    expect(out('api-resources --verbs=deletecollection --verbs=watch -o name --api-group=')).toBe(
      'configmaps\nevents\nnodes\npods\nserviceaccounts\nservices\n',
    );
  });

  it("refuses what kubectl refuses, in kubectl's words", () => {
    expect(kubectl('api-resources pods').stderr).toBe(
      "error: unexpected arguments: [pods]\nSee 'kubectl api-resources -h' for help and examples\n",
    );
    expect(kubectl('api-resources -o foo').stderr).toBe(
      'error: unable to match a printer suitable for the output format "foo", allowed formats are: json,name,wide,yaml\n',
    );
    expect(kubectl('api-resources --sort-by=group').stderr).toBe(
      'error: --sort-by accepts only name or kind\n',
    );
  });
});
