// Mirrors pkg/apis/apps/validation/validation.go for what Deployments and ReplicaSets share:
// replicas, the selector and its match with the template, and the template's PodSpec.

import { labelSelectorAsSelector } from '../../api/labels.ts';
import type { Deployment, ReplicaSet } from '../../api/types.ts';
import type { FieldError } from '../../apiserver/errors.ts';
import { validatePodSpec } from '../core/pods/podspec.ts';

export function validatePercentOrInt(v: unknown, field: string, errs: FieldError[]): void {
  if (typeof v === 'number') {
    if (v < 0)
      errs.push({
        field,
        type: 'Invalid value',
        value: v,
        detail: 'must be greater than or equal to 0',
      });
  } else if (typeof v === 'string') {
    const m = /^(\d+)%$/.exec(v);
    if (!m)
      errs.push({
        field,
        type: 'Invalid value',
        value: v,
        detail:
          "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      });
    else if (Number(m[1]) > 100)
      errs.push({
        field,
        type: 'Invalid value',
        value: v,
        detail: 'must not be greater than 100%',
      });
  }
}

export function isZero(v: unknown): boolean {
  return v === 0 || v === '0%';
}

/** validateWorkload is the checks ValidateDeploymentSpec and ValidateReplicaSetSpec share. */
export function validateWorkload(o: Deployment | ReplicaSet, kind: string): FieldError[] {
  const errs: FieldError[] = [];
  const spec = o.spec;
  if (!spec) return [{ field: 'spec', type: 'Required value' }];
  if (spec.replicas !== undefined && (!Number.isInteger(spec.replicas) || spec.replicas < 0))
    errs.push({
      field: 'spec.replicas',
      type: 'Invalid value',
      value: spec.replicas,
      detail: 'must be greater than or equal to 0',
    });
  if (!spec.selector) errs.push({ field: 'spec.selector', type: 'Required value' });
  else if (!spec.selector.matchLabels && !spec.selector.matchExpressions)
    errs.push({
      field: 'spec.selector',
      type: 'Invalid value',
      raw: 'v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}',
      detail: `empty selector is invalid for ${kind}`,
    });
  else if (!labelSelectorAsSelector(spec.selector).matches(spec.template?.metadata?.labels))
    errs.push({
      field: 'spec.template.metadata.labels',
      type: 'Invalid value',
      raw: goMap(spec.template?.metadata?.labels ?? {}),
      detail: '`selector` does not match template `labels`',
    });
  if (!spec.template) errs.push({ field: 'spec.template', type: 'Required value' });
  else {
    errs.push(...validatePodSpec(spec.template.spec, 'spec.template.spec'));
    if (spec.template.spec?.restartPolicy && spec.template.spec.restartPolicy !== 'Always')
      errs.push({
        field: 'spec.template.spec.restartPolicy',
        type: 'Unsupported value',
        value: spec.template.spec.restartPolicy,
        detail: 'supported values: "Always"',
      });
  }
  return errs;
}

function goMap(m: Record<string, string>): string {
  return `map[string]string{${Object.keys(m)
    .sort()
    .map((k) => `"${k}":"${m[k]}"`)
    .join(', ')}}`;
}
