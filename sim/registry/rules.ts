// The rules one kind brings, as upstream keeps them per resource: the REST strategy
// (pkg/registry/<group>/<resource>/strategy.go: PrepareForCreate, PrepareForUpdate, Validate),
// the defaulting of its versioned type (pkg/apis/<group>/v1/defaults.go), and its table printer
// (pkg/printers/internalversion/printers.go). A kind's folder sim/registry/<group>/<resource>/
// exports them; its row in apiserver/discovery.ts points at them.

import type { AnyObject, Event, LabelSelector } from '../api/types.ts';
import type { FieldError } from '../apiserver/errors.ts';
import type { ColumnDefinition, TableRow } from '../kubectl/table.ts';

/** Strategy is what kube-apiserver runs for one kind on create and update. */
export interface Strategy {
  /** defaults mirrors SetDefaults_<Kind> (and the v1 conversion), on every create and update. */
  defaults?(obj: AnyObject): void;
  /** prepareForCreate mirrors the strategy's PrepareForCreate: what a new object starts with. */
  prepareForCreate?(obj: AnyObject): void;
  /** prepareForUpdate mirrors PrepareForUpdate: what the stored object keeps over the client's. */
  prepareForUpdate?(next: AnyObject, cur: AnyObject): void;
  /**
   * prepareForStatusUpdate mirrors the status strategy's PrepareForUpdate, after status is taken
   * from the client and the rest from the stored object: client is the object as sent.
   */
  prepareForStatusUpdate?(next: AnyObject, client: AnyObject): void;
  /** validate mirrors Validate (pkg/apis/<group>/validation); metadata.name is checked apart. */
  validate?(obj: AnyObject): FieldError[];
  /** nameIsDNSLabel: metadata.name must be a DNS-1123 label (ValidateNamespaceName), not a subdomain. */
  nameIsDNSLabel?: boolean;
  /** nameIsDNS1035Label: metadata.name must be a DNS-1035 label (ValidateServiceName). */
  nameIsDNS1035Label?: boolean;
  /**
   * checkGracefulDelete mirrors RESTGracefulDeleteStrategy.CheckGracefulDelete: the grace period
   * in seconds a delete gets (the object is marked and kept until then), or 0 to delete at once.
   */
  checkGracefulDelete?(obj: AnyObject, gracePeriodSeconds: number | undefined): number;
  /**
   * defaultsInPlace: defaults or PrepareForUpdate write below the top level of the object, so a
   * patched object may not share parts with the stored one (kube-apiserver copies it whole).
   */
  defaultsInPlace?: boolean;
  /**
   * ttlSeconds mirrors the registry Store's TTLFunc: kube-apiserver writes each create and update
   * of the object with an etcd lease of this many seconds (etcd3 store ttlOpts), so it is deleted
   * that long after its last write.
   */
  ttlSeconds?: number;
  /**
   * fieldLabels are the field selector labels the kind's registered conversion func accepts
   * (pkg/apis/core/v1/conversion.go), and the old names it renames; absent, only metadata.name
   * and metadata.namespace convert (runtime.DefaultMetaV1FieldSelectorConversion).
   */
  fieldLabels?: { labels: ReadonlySet<string>; renamed?: Readonly<Record<string, string>> };
  /**
   * selectableField reads a field beyond metadata.name and metadata.namespace as the strategy's
   * ToSelectableFields sets it ("" when the set lacks it, as fields.Set.Get).
   */
  selectableField?(obj: AnyObject, field: string): string;
}

/** Printer is a kind's table: AddHandlers' column definitions and its print function. */
export interface Printer {
  columns: ColumnDefinition[];
  /** row mirrors print<Kind>: the cells for one object (wide: with the Priority 1 ones). */
  row(obj: AnyObject, now: number, wide: boolean): TableRow;
}

/** ObjectLister is how a describer reads the related objects kubectl fetches for it. */
export interface ObjectLister {
  /** list lists a resource, optionally by label selector or (Pods) by node. */
  list<T extends AnyObject>(
    resource: string,
    namespace: string | undefined,
    selector?: LabelSelector,
    nodeName?: string,
  ): T[];
  /** get reads one object; a failure throws the server's error. */
  get<T extends AnyObject>(resource: string, namespace: string, name: string): T;
}

/** DescribeContext is what a describer gets besides its object. */
export interface DescribeContext extends ObjectLister {
  /** now is the virtual time in ms, for ages. */
  now: number;
  /**
   * events lists the object's events (none with --show-events=false); kindFilter also requires
   * involvedObject.kind to match, as describers other than the Pod's search.
   */
  events(kindFilter: boolean): Event[];
}

/** Describer mirrors a kind's describer (pkg/describe/describe.go): `kubectl describe` text. */
export type Describer = (ctx: DescribeContext, obj: AnyObject) => string;

/** KindRules are the rules a discovery row points at. */
export interface KindRules {
  strategy?: Strategy;
  printer?: Printer;
  describe?: Describer;
}
