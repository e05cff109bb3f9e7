// Mirrors pkg/scheduler/framework/plugins/registry.go#NewInTreeRegistry: the in-tree plugins by name.

import type { Plugin } from '../framework.ts';
import type { Registry } from '../runtime.ts';
import { InterPodAffinity } from './inter-pod-affinity.ts';
import { ImageLocality } from './image-locality.ts';
import { NodeAffinity } from './node-affinity.ts';
import { NodeName } from './node-name.ts';
import { NodePorts } from './node-ports.ts';
import { NodeResourcesBalancedAllocation } from './balanced-allocation.ts';
import { NodeResourcesFit } from './node-resources-fit.ts';
import { NodeUnschedulable } from './node-unschedulable.ts';
import { PodTopologySpread } from './pod-topology-spread.ts';
import { TaintToleration } from './taint-toleration.ts';

/**
 * newInTreeRegistry returns the runnable plugins. PrioritySort lives in the scheduling queue and
 * DefaultPreemption is run by the framework as the PostFilter.
 */
export function newInTreeRegistry(): Registry {
  return new Map<string, Plugin>([
    [NodeUnschedulable.name, NodeUnschedulable],
    [NodeName.name, NodeName],
    [TaintToleration.name, TaintToleration],
    [NodeAffinity.name, NodeAffinity],
    [NodePorts.name, NodePorts],
    [NodeResourcesFit.name, NodeResourcesFit],
    [PodTopologySpread.name, PodTopologySpread],
    [InterPodAffinity.name, InterPodAffinity],
    [NodeResourcesBalancedAllocation.name, NodeResourcesBalancedAllocation],
    [ImageLocality.name, ImageLocality],
  ]);
}
