// Mirrors staging/src/k8s.io/apimachinery/pkg/util/jsonmergepatch CreateThreeWayJSONMergePatch in
// its two-way form: the smallest RFC 7386 merge patch that turns `from` into `to`. The kubelet
// sends status changes this way (upstream: statusutil.PatchPodStatus and PatchNodeStatus, which use
// strategic merge patches). Simplification: lists are replaced whole, so the kubelet always sends
// complete condition and container-status lists.

import { deepEqual } from '../api/clone.ts';

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** createMergePatch returns the patch from `from` to `to`, or undefined when they are equal. */
export function createMergePatch(from: unknown, to: unknown): Record<string, unknown> | undefined {
  const a = isObject(from) ? from : {};
  const b = isObject(to) ? to : {};
  const patch: Record<string, unknown> = {};
  let n = 0;
  for (const k in a) {
    if (a[k] !== undefined && b[k] === undefined) {
      patch[k] = null;
      n++;
    }
  }
  for (const k in b) {
    const y = b[k];
    if (y === undefined) continue;
    const x = a[k];
    if (isObject(x) && isObject(y)) {
      const sub = createMergePatch(x, y);
      if (sub) {
        patch[k] = sub;
        n++;
      }
    } else if (!deepEqual(x, y)) {
      patch[k] = y;
      n++;
    }
  }
  return n ? patch : undefined;
}
