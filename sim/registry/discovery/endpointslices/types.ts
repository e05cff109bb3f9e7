// Mirrors staging/src/k8s.io/api/discovery/v1/types.go for EndpointSlice: its TypeScript type (the
// JSON the API returns) and its Go type as strict decoding reads it (api/schema.ts). Its row in
// apiserver/discovery.ts points at the schema; api/types.ts re-exports the type.
// Simplification: only the fields the simulator reads or writes are declared in the type.

import type { KubeObject, ObjectReference } from '../../../api/types.ts';
import {
  str,
  i32,
  bool,
  opaque,
  strings,
  stringMap,
  list,
  struct,
  byValue,
  kindSchema,
} from '../../../api/schema.ts';

export interface EndpointSlice extends KubeObject {
  apiVersion: 'discovery.k8s.io/v1';
  kind: 'EndpointSlice';
  addressType: 'IPv4' | 'IPv6' | 'FQDN';
  endpoints: Endpoint[];
  ports: EndpointPort[] | null;
}

export interface Endpoint {
  addresses: string[];
  conditions: EndpointConditions;
  nodeName?: string;
  zone?: string;
  targetRef?: ObjectReference;
}

export interface EndpointConditions {
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

export interface EndpointPort {
  name?: string;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  port?: number;
}

const endpointConditions = struct('EndpointConditions', () => ({
  ready: bool,
  serving: bool,
  terminating: bool,
}));

const endpoint = struct('Endpoint', () => ({
  addresses: strings,
  conditions: byValue(endpointConditions),
  hostname: str(),
  targetRef: opaque('ObjectReference'),
  deprecatedTopology: stringMap,
  nodeName: str(),
  zone: str(),
  hints: opaque('EndpointHints'),
}));

const endpointPort = struct('EndpointPort', () => ({
  name: str(),
  protocol: str('v1.Protocol'),
  port: i32,
  appProtocol: str(),
}));

/** endpointSliceSchema is the Go type EndpointSlice bodies decode into. */
export const endpointSliceSchema = kindSchema<EndpointSlice>('EndpointSlice', {
  addressType: str('v1.AddressType'),
  endpoints: list(endpoint),
  ports: list(endpointPort),
});
