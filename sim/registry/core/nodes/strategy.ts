// Mirrors pkg/registry/core/node/strategy.go: a Node always has a spec and a status.

import type { AnyObject, Node } from '../../../api/types.ts';
import type { Strategy } from '../../rules.ts';

/** nodeStrategy is the Node's REST strategy. */
export const nodeStrategy: Strategy = {
  defaults: defaultNode,
};

function defaultNode(obj: AnyObject): void {
  const node = obj as Node;
  node.spec ??= {};
  node.status ??= {};
}
