// Mirrors staging/src/k8s.io/api/apps/v1/types.go for Deployment: its TypeScript type (the
// JSON the API returns) and its Go type as strict decoding reads it (api/schema.ts). Its row in
// apiserver/discovery.ts points at the schema; api/types.ts re-exports the type.
// Simplification: only the fields the simulator reads or writes are declared in the type.

import type {
  ConditionStatus,
  IntOrString,
  KubeObject,
  LabelSelector,
  PodTemplateSpec,
  Time,
} from '../../../api/types.ts';
import {
  str,
  i32,
  bool,
  opaque,
  intstr,
  struct,
  byValue,
  labelSelector,
  kindSchema,
} from '../../../api/schema.ts';
import { podTemplateSpec } from '../../core/pods/types.ts';

export interface Deployment extends KubeObject {
  apiVersion: 'apps/v1';
  kind: 'Deployment';
  spec: DeploymentSpec;
  status: DeploymentStatus;
}

export interface DeploymentSpec {
  replicas?: number;
  selector: LabelSelector;
  template: PodTemplateSpec;
  strategy?: DeploymentStrategy;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
}

export interface DeploymentStrategy {
  type?: 'RollingUpdate' | 'Recreate';
  rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString };
}

export interface DeploymentCondition {
  type: 'Available' | 'Progressing' | 'ReplicaFailure';
  status: ConditionStatus;
  lastUpdateTime?: Time;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  terminatingReplicas?: number;
  conditions?: DeploymentCondition[];
  collisionCount?: number;
}

const rollingUpdateDeployment = struct('RollingUpdateDeployment', () => ({
  maxUnavailable: intstr,
  maxSurge: intstr,
}));

const deploymentStrategyType = struct('DeploymentStrategy', () => ({
  type: str('v1.DeploymentStrategyType'),
  rollingUpdate: rollingUpdateDeployment,
}));

const deploymentSpec = struct('DeploymentSpec', () => ({
  replicas: i32,
  selector: labelSelector,
  template: byValue(podTemplateSpec),
  strategy: byValue(deploymentStrategyType),
  minReadySeconds: i32,
  revisionHistoryLimit: i32,
  paused: bool,
  progressDeadlineSeconds: i32,
}));

/** deploymentSchema is the Go type Deployment bodies decode into. */
export const deploymentSchema = kindSchema<Deployment>('Deployment', {
  spec: byValue(deploymentSpec),
  status: opaque('DeploymentStatus'),
});
