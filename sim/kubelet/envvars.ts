// Mirrors pkg/kubelet/envvars/envvars.go (FromServices) and the parts of pkg/kubelet/kubelet_pods.go
// that build a container's environment (getServiceEnvVarMap, makeEnvironmentVariables) (see
// "Simplification:" notes).

import type { Container, EnvVar, Pod, Service } from '../api/types.ts';

/** MASTER_SERVICE is the Service every container gets variables for, enableServiceLinks or not. */
const MASTER_SERVICE = { namespace: 'default', name: 'kubernetes' };

/** isServiceIPSet mirrors v1helper.IsServiceIPSet: headless and ExternalName Services have none. */
function isServiceIPSet(s: Service): boolean {
  const ip = s.spec?.clusterIP;
  return ip !== undefined && ip !== '' && ip !== 'None';
}

/**
 * serviceEnvVarMap mirrors getServiceEnvVarMap: the kubernetes Service of default always, and
 * with enableServiceLinks (default true) every Service of the Pod's namespace that has a cluster
 * IP; a namespace's own Service of the same name wins over the master one.
 */
export function serviceEnvVarMap(
  services: readonly Service[],
  namespace: string,
  enableServiceLinks: boolean,
): EnvVar[] {
  const byName = new Map<string, Service>();
  for (const s of services) {
    if (!isServiceIPSet(s)) continue;
    const name = s.metadata.name;
    if (s.metadata.namespace === MASTER_SERVICE.namespace && name === MASTER_SERVICE.name) {
      if (!byName.has(name)) byName.set(name, s);
    } else if (s.metadata.namespace === namespace && enableServiceLinks) {
      byName.set(name, s);
    }
  }
  return fromServices([...byName.values()]);
}

/** fromServices mirrors envvars.FromServices: the {NAME}_SERVICE_* and docker-link variables. */
export function fromServices(services: readonly Service[]): EnvVar[] {
  const out: EnvVar[] = [];
  for (const s of services) {
    if (!isServiceIPSet(s)) continue;
    const prefix = s.metadata.name.toUpperCase().replaceAll('-', '_');
    const ports = s.spec.ports ?? [];
    out.push({ name: `${prefix}_SERVICE_HOST`, value: s.spec.clusterIP });
    if (ports[0]) out.push({ name: `${prefix}_SERVICE_PORT`, value: String(ports[0].port) });
    for (const p of ports)
      if (p.name)
        out.push({
          name: `${prefix}_SERVICE_PORT_${p.name.toUpperCase().replaceAll('-', '_')}`,
          value: String(p.port),
        });
    // makeLinkVariables: the first port is also {NAME}_PORT.
    ports.forEach((p, i) => {
      const protocol = p.protocol ?? 'TCP';
      const url = `${protocol.toLowerCase()}://${s.spec.clusterIP}:${p.port}`;
      const base = `${prefix}_PORT_${p.port}_${protocol.toUpperCase()}`;
      if (i === 0) out.push({ name: `${prefix}_PORT`, value: url });
      out.push(
        { name: base, value: url },
        { name: `${base}_PROTO`, value: protocol.toLowerCase() },
        { name: `${base}_PORT`, value: String(p.port) },
        { name: `${base}_ADDR`, value: s.spec.clusterIP },
      );
    });
  }
  return out;
}

/**
 * containerEnvironment is the environment a container's processes see: the image's (PATH ...),
 * HOSTNAME, the container's own variables (literal values; $(VAR) references expanded as
 * makeEnvironmentVariables expands them), the service variables it does not define itself, and
 * HOME.
 * Simplification: only literal `env` values are modelled (valueFrom and envFrom are left out),
 * and the kubelet's variables are in name order: the real kubelet collects them in a Go map, so
 * their order differs from container to container.
 * Simplification: the Services are those that existed when the container started, read from
 * kube-apiserver's store when the command runs; the real kubelet reads its Service informer at
 * the start and a container keeps the variables of Services deleted since.
 */
export function containerEnvironment(
  pod: Pod,
  container: Container,
  imageEnv: readonly [string, string][],
  services: readonly Service[],
): Map<string, string> {
  const kubelet = new Map<string, string>();
  for (const e of container.env ?? []) {
    if (e.value === undefined && e.valueFrom !== undefined) continue;
    kubelet.set(e.name, expandVarRefs(e.value ?? '', kubelet));
  }
  const links = pod.spec.enableServiceLinks ?? true;
  for (const v of serviceEnvVarMap(services, pod.metadata.namespace ?? 'default', links))
    if (!kubelet.has(v.name)) kubelet.set(v.name, v.value ?? '');
  const env = new Map<string, string>(imageEnv);
  env.set('HOSTNAME', pod.spec.hostname ?? pod.metadata.name);
  for (const name of [...kubelet.keys()].sort()) env.set(name, kubelet.get(name)!);
  if (!env.has('HOME')) env.set('HOME', '/root');
  return env;
}

/**
 * expandVarRefs mirrors third_party/forked/golang/expansion: $(NAME) is the value of a variable
 * defined before it, $$ is a literal $, and a reference to an undefined variable stays as written.
 */
function expandVarRefs(value: string, defined: ReadonlyMap<string, string>): string {
  return value.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (m, name: string | undefined) =>
    m === '$$' ? '$' : (defined.get(name!) ?? m),
  );
}
