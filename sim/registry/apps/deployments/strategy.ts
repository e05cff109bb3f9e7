// Mirrors pkg/registry/apps/deployment/strategy.go (deploymentStatusStrategy.PrepareForUpdate),
// SetDefaults_Deployment (pkg/apis/apps/v1/defaults.go) and ValidateDeployment
// (pkg/apis/apps/validation).

import { deepClone } from '../../../api/clone.ts';
import type { AnyObject, Deployment } from '../../../api/types.ts';
import type { FieldError } from '../../../apiserver/errors.ts';
import { defaultTemplate } from '../../core/pods/podspec.ts';
import type { Strategy } from '../../rules.ts';
import { isZero, validatePercentOrInt, validateWorkload } from '../validation.ts';

/** deploymentStrategy is the Deployment's REST strategy. */
export const deploymentStrategy: Strategy = {
  defaults: (obj) => defaultDeployment(obj as Deployment),
  prepareForStatusUpdate: prepareDeploymentForStatusUpdate,
  validate: (obj) => validateDeployment(obj as Deployment),
  defaultsInPlace: true,
};

/**
 * prepareDeploymentForStatusUpdate: deploymentStatusStrategy.PrepareForUpdate resets only spec and
 * labels, so annotations written through deployments/status stick: that is how the deployment
 * controller sets deployment.kubernetes.io/revision.
 */
function prepareDeploymentForStatusUpdate(next: AnyObject, client: AnyObject): void {
  const m = next.metadata as unknown as Record<string, unknown>;
  if (client.metadata?.annotations) m.annotations = deepClone(client.metadata.annotations);
  else delete m.annotations;
}

/** defaultDeployment mirrors SetDefaults_Deployment (apps/v1). */
export function defaultDeployment(d: Deployment): void {
  d.spec.replicas ??= 1;
  d.spec.strategy ??= {};
  d.spec.strategy.type ||= 'RollingUpdate';
  if (d.spec.strategy.type === 'RollingUpdate') {
    d.spec.strategy.rollingUpdate ??= {};
    d.spec.strategy.rollingUpdate.maxUnavailable ??= '25%';
    d.spec.strategy.rollingUpdate.maxSurge ??= '25%';
  }
  d.spec.revisionHistoryLimit ??= 10;
  d.spec.progressDeadlineSeconds ??= 600;
  defaultTemplate(d.spec.template);
  d.status ??= {};
}

function validateDeployment(d: Deployment): FieldError[] {
  const errs = validateWorkload(d, 'deployment');
  const s = d.spec?.strategy;
  if (s?.type === 'RollingUpdate' && s.rollingUpdate) {
    const { maxSurge, maxUnavailable } = s.rollingUpdate;
    validatePercentOrInt(maxSurge, 'spec.strategy.rollingUpdate.maxSurge', errs);
    validatePercentOrInt(maxUnavailable, 'spec.strategy.rollingUpdate.maxUnavailable', errs);
    if (isZero(maxSurge) && isZero(maxUnavailable))
      errs.push({
        field: 'spec.strategy.rollingUpdate.maxUnavailable',
        type: 'Invalid value',
        value: maxUnavailable,
        detail: 'may not be 0 when `maxSurge` is 0',
      });
  }
  if (s?.type === 'Recreate' && s.rollingUpdate)
    errs.push({
      field: 'spec.strategy.rollingUpdate',
      type: 'Forbidden',
      detail: "may not be specified when strategy `type` is 'Recreate'",
    });
  if (s?.type && s.type !== 'Recreate' && s.type !== 'RollingUpdate')
    errs.push({
      field: 'spec.strategy.type',
      type: 'Unsupported value',
      value: s.type,
      detail: 'supported values: "Recreate", "RollingUpdate"',
    });
  return errs;
}
