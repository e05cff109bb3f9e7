// Mirrors pkg/registry/core/node/strategy.go: a Node always has a spec and a status; its
// selectable fields (NodeToSelectableFields) and field labels (pkg/apis/core/v1/conversion.go).

import type { AnyObject, Node } from '../../../api/types.ts';
import type { Strategy } from '../../rules.ts';

const NODE_FIELD_LABELS: ReadonlySet<string> = new Set(['metadata.name', 'spec.unschedulable']);

/** nodeStrategy is the Node's REST strategy. */
export const nodeStrategy: Strategy = {
  defaults: defaultNode,
  fieldLabels: { labels: NODE_FIELD_LABELS },
  selectableField: (o, field) =>
    field === 'spec.unschedulable' ? String((o as Node).spec?.unschedulable === true) : '',
};

function defaultNode(obj: AnyObject): void {
  const node = obj as Node;
  node.spec ??= {};
  node.status ??= {};
}
