// Mirrors the install manifests of ingress-nginx and NGINX Gateway Fabric 1.x: the objects an
// installed ingress controller and Gateway API implementation consist of, as they create them:
// ingress-nginx's deploy/static/provider/baremetal/deploy.yaml (the ingress-nginx Namespace,
// ServiceAccount, IngressClass `nginx` for controller k8s.io/ingress-nginx, the NodePort Service
// and the controller Deployment), and NGINX Gateway Fabric 1.x's deploy/default/deploy.yaml (the
// nginx-gateway Namespace, ServiceAccount, GatewayClass `nginx` for
// gateway.nginx.org/nginx-gateway-controller, Service and Deployment).
// ingress-nginx was retired in March 2026: best-effort maintenance ended and no further releases
// or security fixes come (kubernetes.io blog 2025-11-11 "ingress-nginx-retirement"). Existing
// installations keep working; Gateway API is the path forward.
// Simplification: RBAC objects, the ConfigMap, the admission webhook and its Jobs are left out;
// the controller's --publish-service flag (the cloud manifests') is set so that Ingress status
// carries the Service's address, which for a NodePort Service is its ClusterIP.

import type { Deployment, Namespace, ObjectMeta, Service, ServiceAccount } from '../api/types.ts';
import type { GatewayClass } from '../registry/gateway/types.ts';
import type { IngressClass } from '../registry/networking/ingressclasses/types.ts';

/** The ingress-nginx controller's names (k8s.io/ingress-nginx). */
export const INGRESS_NGINX = {
  namespace: 'ingress-nginx',
  service: 'ingress-nginx-controller',
  className: 'nginx',
  controller: 'k8s.io/ingress-nginx',
  image: 'registry.k8s.io/ingress-nginx/controller:v1.13.3',
  labels: {
    'app.kubernetes.io/component': 'controller',
    'app.kubernetes.io/instance': 'ingress-nginx',
    'app.kubernetes.io/name': 'ingress-nginx',
  },
} as const;

/** The Gateway API implementation's names (NGINX Gateway Fabric 1.x). */
export const NGINX_GATEWAY = {
  namespace: 'nginx-gateway',
  service: 'nginx-gateway',
  className: 'nginx',
  controller: 'gateway.nginx.org/nginx-gateway-controller',
  image: 'ghcr.io/nginx/nginx-gateway-fabric/nginx:1.6.2',
  labels: {
    'app.kubernetes.io/instance': 'nginx-gateway',
    'app.kubernetes.io/name': 'nginx-gateway',
  },
} as const;

const meta = (m: Record<string, unknown>): ObjectMeta => m as unknown as ObjectMeta;

function namespace(name: string, labels: Record<string, string>): Namespace {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: meta({ name, labels: { ...labels, 'kubernetes.io/metadata.name': name } }),
    spec: { finalizers: ['kubernetes'] },
  } as Namespace;
}

function serviceAccount(ns: string, name: string, labels: Record<string, string>): ServiceAccount {
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: meta({ name, namespace: ns, labels }),
  };
}

function nodePortService(
  ns: string,
  name: string,
  labels: Record<string, string>,
  selector: Record<string, string>,
): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta({ name, namespace: ns, labels }),
    spec: {
      type: 'NodePort',
      ipFamilyPolicy: 'SingleStack',
      ipFamilies: ['IPv4'],
      selector,
      ports: [
        { name: 'http', port: 80, protocol: 'TCP', targetPort: 'http', appProtocol: 'http' },
        { name: 'https', port: 443, protocol: 'TCP', targetPort: 'https', appProtocol: 'https' },
      ],
    },
    status: {},
  } as unknown as Service;
}

function deployment(
  ns: string,
  name: string,
  labels: Record<string, string>,
  container: Record<string, unknown>,
): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta({ name, namespace: ns, labels }),
    spec: {
      replicas: 1,
      revisionHistoryLimit: 10,
      selector: { matchLabels: labels },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '25%' } },
      template: {
        metadata: { labels },
        spec: {
          serviceAccountName: name,
          terminationGracePeriodSeconds: 300,
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          containers: [container],
        },
      },
    },
    status: {},
  } as unknown as Deployment;
}

/** ingressNginxObjects are what installing ingress-nginx creates, in the manifest's order. */
export function ingressNginxObjects(): {
  namespaces: Namespace[];
  serviceAccounts: ServiceAccount[];
  ingressClasses: IngressClass[];
  services: Service[];
  deployments: Deployment[];
} {
  const n = INGRESS_NGINX;
  const common = {
    'app.kubernetes.io/instance': 'ingress-nginx',
    'app.kubernetes.io/name': 'ingress-nginx',
  };
  return {
    namespaces: [namespace(n.namespace, common)],
    serviceAccounts: [serviceAccount(n.namespace, n.service, n.labels)],
    ingressClasses: [
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'IngressClass',
        metadata: meta({ name: n.className, labels: n.labels }),
        spec: { controller: n.controller },
      },
    ],
    services: [nodePortService(n.namespace, n.service, n.labels, n.labels)],
    deployments: [
      deployment(n.namespace, n.service, n.labels, {
        name: 'controller',
        image: n.image,
        imagePullPolicy: 'IfNotPresent',
        args: [
          '/nginx-ingress-controller',
          `--publish-service=$(POD_NAMESPACE)/${n.service}`,
          '--election-id=ingress-nginx-leader',
          `--controller-class=${n.controller}`,
          `--ingress-class=${n.className}`,
          `--configmap=$(POD_NAMESPACE)/${n.service}`,
        ],
        env: [
          { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
        ],
        ports: [
          { name: 'http', containerPort: 80, protocol: 'TCP' },
          { name: 'https', containerPort: 443, protocol: 'TCP' },
        ],
        resources: { requests: { cpu: '100m', memory: '90Mi' } },
      }),
    ],
  };
}

/** nginxGatewayObjects are what installing the Gateway API implementation creates. */
export function nginxGatewayObjects(): {
  namespaces: Namespace[];
  serviceAccounts: ServiceAccount[];
  gatewayClasses: GatewayClass[];
  services: Service[];
  deployments: Deployment[];
} {
  const n = NGINX_GATEWAY;
  return {
    namespaces: [namespace(n.namespace, {})],
    serviceAccounts: [serviceAccount(n.namespace, n.service, n.labels)],
    gatewayClasses: [
      {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'GatewayClass',
        metadata: meta({ name: n.className, labels: n.labels }),
        spec: { controllerName: n.controller },
      },
    ],
    services: [nodePortService(n.namespace, n.service, n.labels, n.labels)],
    deployments: [
      deployment(n.namespace, n.service, n.labels, {
        name: 'nginx',
        image: n.image,
        imagePullPolicy: 'IfNotPresent',
        ports: [
          { name: 'http', containerPort: 80, protocol: 'TCP' },
          { name: 'https', containerPort: 443, protocol: 'TCP' },
        ],
      }),
    ],
  };
}
