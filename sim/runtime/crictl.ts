// Mirrors kubernetes-sigs/cri-tools cmd/crictl (container.go OutputContainers, sandbox.go
// OutputPodSandboxes, image.go, display.go): `crictl ps [-a]`, `crictl pods` and `crictl images`
// printed through text/tabwriter (minwidth 20, padding 3), newest first, IDs truncated to 13
// characters, CREATED from github.com/docker/go-units HumanDuration.
// Simplification: only the table output and the flags below; no -o json/yaml, no --label.

import type { ContainerRuntime, CRIContainer, PodSandbox } from './container-runtime.ts';

/** CommandResult is what a node command returns. */
export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** truncatedIDLen is crictl's truncatedIDLen. */
const truncatedIDLen = 13;

/** humanDuration mirrors go-units HumanDuration (integer truncation, hours rounded). */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < 1) return 'Less than a second';
  if (seconds === 1) return '1 second';
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = Math.trunc(ms / 60_000);
  if (minutes === 1) return 'About a minute';
  if (minutes < 60) return `${minutes} minutes`;
  const hours = Math.trunc(ms / 3_600_000 + 0.5);
  if (hours === 1) return 'About an hour';
  if (hours < 48) return `${hours} hours`;
  if (hours < 24 * 7 * 2) return `${Math.trunc(hours / 24)} days`;
  if (hours < 24 * 30 * 2) return `${Math.trunc(hours / 24 / 7)} weeks`;
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24 / 30)} months`;
  return `${Math.trunc(Math.trunc(ms / 3_600_000) / 24 / 365)} years`;
}

/** humanSize mirrors go-units HumanSizeWithPrecision(size, 3) (decimal units, %.3g). */
export function humanSize(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];
  let v = bytes;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${Number(v.toPrecision(3))}${units[i]}`;
}

/**
 * tabwrite mirrors text/tabwriter with crictl's settings (minwidth 20, tabwidth 1, padding 3,
 * padchar ' ', no flags): every cell but a row's last is padded to its column's width.
 */
export function tabwrite(rows: string[][], minwidth = 20, padding = 3): string {
  const widths: number[] = [];
  for (const r of rows)
    for (let i = 0; i < r.length - 1; i++)
      widths[i] = Math.max(widths[i] ?? 0, Math.max(r[i].length + padding, minwidth));
  let out = '';
  for (const r of rows) {
    for (let i = 0; i < r.length - 1; i++) out += r[i].padEnd(widths[i]);
    out += `${r[r.length - 1] ?? ''}\n`;
  }
  return out;
}

function trunc(id: string, prefix = ''): string {
  const s = id.startsWith(prefix) ? id.slice(prefix.length) : id;
  return s.length > truncatedIDLen ? s.slice(0, truncatedIDLen) : s;
}

function containerState(c: CRIContainer): string {
  switch (c.state) {
    case 'CONTAINER_CREATED':
      return 'Created';
    case 'CONTAINER_RUNNING':
      return 'Running';
    case 'CONTAINER_EXITED':
      return 'Exited';
    default:
      return 'Unknown';
  }
}

interface ListFlags {
  all: boolean;
  quiet: boolean;
  noTrunc: boolean;
  latest: boolean;
  last: number;
  name?: RegExp;
  namespace?: RegExp;
  pod?: string;
  state?: string;
  image?: string;
}

function parseFlags(args: string[]): ListFlags | string {
  const f: ListFlags = { all: false, quiet: false, noTrunc: false, latest: false, last: 0 };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const eq = a.indexOf('=');
    const key = eq > 0 ? a.slice(0, eq) : a;
    const value = (): string | undefined => (eq > 0 ? a.slice(eq + 1) : args[++i]);
    switch (key) {
      case '-a':
      case '--all':
        f.all = true;
        break;
      case '-q':
      case '--quiet':
        f.quiet = true;
        break;
      case '--no-trunc':
        f.noTrunc = true;
        break;
      case '-l':
      case '--latest':
        f.latest = true;
        break;
      case '-n':
      case '--last':
        f.last = Number(value() ?? 0);
        break;
      case '--name':
        f.name = new RegExp(value() ?? '');
        break;
      case '--namespace':
        f.namespace = new RegExp(value() ?? '');
        break;
      case '-p':
      case '--pod':
        f.pod = value();
        break;
      case '-s':
      case '--state':
        f.state = (value() ?? '').toLowerCase();
        break;
      case '--image':
        f.image = value();
        break;
      case '-aq':
      case '-qa':
        f.all = true;
        f.quiet = true;
        break;
      default:
        return `flag provided but not defined: ${key}`;
    }
  }
  return f;
}

function limit<T>(list: T[], f: ListFlags): T[] {
  const n = f.latest ? 1 : f.last > 0 ? f.last : list.length;
  return list.slice(0, Math.min(n, list.length));
}

/** crictlPs prints `crictl ps`: running containers, or all with -a, newest first. */
export function crictlPs(runtime: ContainerRuntime, args: string[], now: number): CommandResult {
  const f = parseFlags(args);
  if (typeof f === 'string') return { stdout: '', stderr: `${f}\n`, exitCode: 1 };
  const stateFilter = f.state ?? (f.all || f.latest || f.last > 0 ? undefined : 'running');
  const list = runtime
    .listContainers()
    .filter((c) => !stateFilter || containerState(c).toLowerCase() === stateFilter)
    .filter((c) => !f.pod || c.podSandboxId.startsWith(f.pod))
    .filter(
      (c) =>
        !f.image ||
        c.image === f.image ||
        c.imageRef.startsWith(f.image) ||
        c.imageRef.slice(7).startsWith(f.image),
    )
    .filter(
      (c) =>
        (!f.name || f.name.test(c.metadata.name)) &&
        (!f.namespace || f.namespace.test(c.podNamespace)),
    )
    .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
  const shown = limit(list, f);
  if (f.quiet) return { stdout: shown.map((c) => `${c.id}\n`).join(''), stderr: '', exitCode: 0 };
  const rows = [
    ['CONTAINER', 'IMAGE', 'CREATED', 'STATE', 'NAME', 'ATTEMPT', 'POD ID', 'POD', 'NAMESPACE'],
  ];
  for (const c of shown) {
    rows.push([
      f.noTrunc ? c.id : trunc(c.id),
      f.noTrunc ? c.imageRef : trunc(c.imageRef, 'sha256:'),
      `${humanDuration(now - c.createdAt)} ago`,
      containerState(c),
      c.metadata.name,
      String(c.metadata.attempt),
      f.noTrunc ? c.podSandboxId : trunc(c.podSandboxId),
      c.podName,
      c.podNamespace,
    ]);
  }
  return { stdout: tabwrite(rows), stderr: '', exitCode: 0 };
}

/** crictlPods prints `crictl pods`: every sandbox, newest first. */
export function crictlPods(runtime: ContainerRuntime, args: string[], now: number): CommandResult {
  const f = parseFlags(args);
  if (typeof f === 'string') return { stdout: '', stderr: `${f}\n`, exitCode: 1 };
  const want =
    f.state === 'ready' ? 'SANDBOX_READY' : f.state === 'notready' ? 'SANDBOX_NOTREADY' : undefined;
  const list = runtime
    .listPodSandbox()
    .filter((s: PodSandbox) => !want || s.state === want)
    .filter(
      (s) =>
        (!f.name || f.name.test(s.metadata.name)) &&
        (!f.namespace || f.namespace.test(s.metadata.namespace)),
    )
    .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
  const shown = limit(list, f);
  if (f.quiet) return { stdout: shown.map((s) => `${s.id}\n`).join(''), stderr: '', exitCode: 0 };
  const rows = [['POD ID', 'CREATED', 'STATE', 'NAME', 'NAMESPACE', 'ATTEMPT', 'RUNTIME']];
  for (const s of shown) {
    rows.push([
      f.noTrunc ? s.id : trunc(s.id),
      `${humanDuration(now - s.createdAt)} ago`,
      s.state === 'SANDBOX_READY' ? 'Ready' : 'NotReady',
      s.metadata.name,
      s.metadata.namespace,
      String(s.metadata.attempt),
      s.runtimeHandler || '(default)',
    ]);
  }
  return { stdout: tabwrite(rows), stderr: '', exitCode: 0 };
}

/** crictlImages prints `crictl images`: IMAGE TAG IMAGE ID SIZE, one row per repo tag. */
export function crictlImages(runtime: ContainerRuntime, args: string[]): CommandResult {
  const quiet = args.includes('-q') || args.includes('--quiet');
  const rows = [['IMAGE', 'TAG', 'IMAGE ID', 'SIZE']];
  const lines: string[] = [];
  for (const img of runtime.listImages()) {
    if (quiet) {
      lines.push(`${img.id}\n`);
      continue;
    }
    for (const tagged of img.repoTags) {
      const i = tagged.lastIndexOf(':');
      rows.push([
        tagged.slice(0, i),
        tagged.slice(i + 1),
        trunc(img.id, 'sha256:'),
        humanSize(img.size),
      ]);
    }
  }
  if (quiet) return { stdout: lines.join(''), stderr: '', exitCode: 0 };
  return { stdout: tabwrite(rows), stderr: '', exitCode: 0 };
}

/**
 * crictl runs `crictl <args>` against a node's runtime: ps, pods, images. A powered-off machine
 * cannot be reached at all; callers model that before getting here.
 */
export function crictl(runtime: ContainerRuntime, args: string[], now: number): CommandResult {
  const [sub, ...rest] = args;
  if (!runtime.running)
    return {
      stdout: '',
      stderr:
        'E0101 00:00:00.000000    1234 log.go:32] "validate service connection: validate CRI v1 runtime API for endpoint \\"unix:///run/containerd/containerd.sock\\": rpc error: code = Unavailable desc = connection error: desc = \\"transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: connection refused\\""\n',
      exitCode: 1,
    };
  switch (sub) {
    case 'ps':
      return crictlPs(runtime, rest, now);
    case 'pods':
      return crictlPods(runtime, rest, now);
    case 'images':
    case 'image':
    case 'img':
      return crictlImages(runtime, rest);
    case undefined:
      return {
        stdout: '',
        stderr: 'crictl: missing command; supported: ps, pods, images\n',
        exitCode: 1,
      };
    default:
      return { stdout: '', stderr: `No help topic for '${sub}'\n`, exitCode: 3 };
  }
}
