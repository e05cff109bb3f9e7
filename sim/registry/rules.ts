// The rules one kind brings, as upstream keeps them per resource: the REST strategy
// (pkg/registry/<group>/<resource>/strategy.go: PrepareForCreate, PrepareForUpdate, Validate),
// the defaulting of its versioned type (pkg/apis/<group>/v1/defaults.go), and its table printer
// (pkg/printers/internalversion/printers.go). A kind's folder sim/registry/<group>/<resource>/
// exports them; its row in apiserver/discovery.ts points at them.

import type { AnyObject } from '../api/types.ts';
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
}

/** Printer is a kind's table: AddHandlers' column definitions and its print function. */
export interface Printer {
  columns: ColumnDefinition[];
  /** row mirrors print<Kind>: the cells for one object (wide: with the Priority 1 ones). */
  row(obj: AnyObject, now: number, wide: boolean): TableRow;
}

/** KindRules are the rules a discovery row points at. */
export interface KindRules {
  strategy?: Strategy;
  printer?: Printer;
}
