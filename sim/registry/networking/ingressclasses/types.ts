// Mirrors staging/src/k8s.io/api/networking/v1/types.go for IngressClass: its TypeScript type and
// its Go type as strict decoding reads it (api/schema.ts).

import type { KubeObject } from '../../../api/types.ts';
import { byValue, kindSchema, str, struct } from '../../../api/schema.ts';

/** AnnotationIsDefaultIngressClass marks the class the DefaultIngressClass plugin fills in. */
export const AnnotationIsDefaultIngressClass = 'ingressclass.kubernetes.io/is-default-class';

/** IngressClass is networking.k8s.io/v1 IngressClass: which controller serves a class. */
export interface IngressClass extends KubeObject {
  apiVersion: 'networking.k8s.io/v1';
  kind: 'IngressClass';
  spec: {
    controller?: string;
    parameters?: {
      apiGroup?: string;
      kind: string;
      name: string;
      scope?: 'Cluster' | 'Namespace';
      namespace?: string;
    };
  };
}

const ingressClassParametersReference = struct('IngressClassParametersReference', () => ({
  apiGroup: str(),
  kind: str(),
  name: str(),
  scope: str(),
  namespace: str(),
}));

/** ingressClassSchema is the Go type IngressClass bodies decode into. */
export const ingressClassSchema = kindSchema<IngressClass>('IngressClass', {
  spec: byValue(
    struct('IngressClassSpec', () => ({
      controller: str(),
      parameters: ingressClassParametersReference,
    })),
  ),
});
