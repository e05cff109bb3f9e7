// The images a node can pull: realistic sizes for common images, the image-reference rules of
// github.com/distribution/reference (ParseNormalizedNamed: "nginx" is docker.io/library/nginx:latest),
// and the behaviours a scenario can declare (pull failures, containers that crash or finish).
// Simplification: there is no registry. A reference either resolves (with the catalogue's size)
// or fails with containerd's error text; digests are derived from the name, so the same image has
// the same ID on every node.

import { parseDuration } from '../engine/clock.ts';

/** PullOutcome is what a registry answers for a reference. */
export type PullOutcome = 'ok' | 'notfound' | 'unauthorized';

/** ImageBehaviour is what ImageCatalog.lookup returns for one reference. */
export interface ImageBehaviour {
  /** sizeBytes is the compressed size containerd reports (`crictl images` SIZE). */
  sizeBytes: number;
  pull: PullOutcome;
  /** crashAfterMs: the container exits this long after it starts, with exitCode (default 1). */
  crashAfterMs?: number;
  exitCode?: number;
  /** runFor: the container finishes (exit 0 unless exitCode) this long after it starts. */
  runFor?: number;
  /** shell: the image's default command is a shell or REPL that exits at once without a TTY. */
  shell?: boolean;
  /** ignoreSigterm: PID 1 has no SIGTERM handler, so stopping waits for the grace period. */
  ignoreSigterm?: boolean;
  /** serves: the ports a scenario says the image listens on, and each one's HTTP answer. */
  serves?: ServedPort[];
}

/** ServedPort is one port a scenario-declared image listens on, and what it answers. */
export interface ServedPort {
  port: number;
  body?: string;
  status?: number;
}

/** ImageOverride is how a scenario declares an image's behaviour (durations as "30s", sizes as "72MB"). */
export interface ImageOverride {
  /** size: "72MB", "70Mi" or bytes. */
  size?: string | number;
  pull?: PullOutcome;
  /** crashAfter and runFor: a Go duration ("30s") or milliseconds (the scenario schema's output). */
  crashAfter?: string | number;
  exitCode?: number;
  runFor?: string | number;
  ignoreSigterm?: boolean;
  serves?: ServedPort[];
}

/** DEFAULT_IMAGE_SIZE is used for images the catalogue does not know (50 MB). */
export const DEFAULT_IMAGE_SIZE = 50_000_000;

/** PAUSE_IMAGE is containerd 2.x's default sandbox image. */
export const PAUSE_IMAGE = 'registry.k8s.io/pause:3.10';

// Sizes are the compressed amd64 sizes containerd reports, rounded; approximate but realistic.
// Keys are normalized references; a "repo:*" key is the size for any other tag of that repo.
const SIZES: Record<string, number> = {
  'docker.io/library/nginx:1.27': 72_195_292,
  'docker.io/library/nginx:1.28': 72_412_601,
  'docker.io/library/nginx:latest': 72_319_458,
  'docker.io/library/nginx:*': 72_300_000,
  'docker.io/library/nginx:alpine': 20_872_401,
  'docker.io/library/busybox:latest': 2_156_518,
  'docker.io/library/busybox:1.36': 2_160_406,
  'docker.io/library/busybox:1.37': 2_156_518,
  'docker.io/library/busybox:*': 2_160_000,
  'docker.io/library/httpd:2.4': 58_223_416,
  'docker.io/library/httpd:*': 58_200_000,
  'docker.io/library/redis:7': 45_002_119,
  'docker.io/library/redis:*': 53_100_000,
  'docker.io/library/postgres:16': 150_317_911,
  'docker.io/library/postgres:*': 158_000_000,
  'docker.io/library/mysql:8': 170_004_553,
  'docker.io/library/mysql:*': 170_000_000,
  'docker.io/library/alpine:*': 3_623_807,
  'docker.io/library/ubuntu:*': 29_754_290,
  'docker.io/library/debian:*': 48_491_208,
  'docker.io/library/python:*': 383_000_000,
  'docker.io/library/node:*': 395_000_000,
  'docker.io/library/golang:*': 294_000_000,
  'docker.io/curlimages/curl:*': 10_111_201,
  'docker.io/hashicorp/http-echo:*': 3_461_372,
  'registry.k8s.io/e2e-test-images/agnhost:*': 51_204_633,
  'registry.k8s.io/pause:3.10': 320_368,
  'registry.k8s.io/pause:*': 321_520,
  'registry.k8s.io/kube-proxy:v1.34.1': 25_963_718,
  'registry.k8s.io/kube-proxy:*': 26_000_000,
  'registry.k8s.io/kube-apiserver:v1.34.1': 27_061_991,
  'registry.k8s.io/kube-apiserver:*': 27_000_000,
  'registry.k8s.io/kube-controller-manager:v1.34.1': 22_819_474,
  'registry.k8s.io/kube-controller-manager:*': 22_800_000,
  'registry.k8s.io/kube-scheduler:v1.34.1': 17_385_568,
  'registry.k8s.io/kube-scheduler:*': 17_400_000,
  'registry.k8s.io/etcd:3.6.4-0': 22_996_358,
  'registry.k8s.io/etcd:*': 23_000_000,
  'registry.k8s.io/coredns/coredns:v1.12.0': 20_939_036,
  'registry.k8s.io/coredns/coredns:v1.12.1': 22_384_805,
  'registry.k8s.io/coredns/coredns:*': 22_000_000,
  'registry.k8s.io/ingress-nginx/controller:*': 105_000_000,
  'ghcr.io/nginx/nginx-gateway-fabric/nginx:*': 24_000_000,
  'docker.io/flannel/flannel:*': 32_000_000,
  // Calico's images: approximate, not read from the registry.
  'docker.io/calico/node:*': 160_000_000,
  'docker.io/calico/cni:*': 95_000_000,
  'docker.io/calico/kube-controllers:*': 35_000_000,
  'quay.io/cilium/cilium:*': 225_000_000,
};

// Images whose default command is a shell or an interpreter: without a TTY it exits 0 at once,
// which is why `kubectl run --image=busybox` ends in CrashLoopBackOff with "Completed".
const SHELL_REPOS = new Set([
  'docker.io/library/busybox',
  'docker.io/library/alpine',
  'docker.io/library/ubuntu',
  'docker.io/library/debian',
  'docker.io/library/python',
  'docker.io/library/node',
  'docker.io/library/golang',
  'docker.io/curlimages/curl',
]);

/**
 * Userland is what an image has to run commands with: BusyBox (its applets and ash as /bin/sh),
 * a Debian base (GNU coreutils and dash as /bin/sh), or nothing (distroless and scratch images:
 * no shell at all, so `kubectl exec … -- sh` fails to start).
 */
export type Userland = 'busybox' | 'debian' | 'none';

// Alpine-based images have BusyBox; agnhost is built on Alpine (test/images/agnhost/Dockerfile).
const BUSYBOX_REPOS = new Set([
  'docker.io/library/busybox',
  'docker.io/library/alpine',
  'docker.io/curlimages/curl',
  'registry.k8s.io/e2e-test-images/agnhost',
]);

// Distroless or scratch images: the control-plane components, CoreDNS, pause, http-echo.
const NO_SHELL_REPOS = new Set([
  'registry.k8s.io/pause',
  'registry.k8s.io/kube-apiserver',
  'registry.k8s.io/kube-controller-manager',
  'registry.k8s.io/kube-scheduler',
  'registry.k8s.io/coredns/coredns',
  'registry.k8s.io/etcd',
  'docker.io/hashicorp/http-echo',
]);

/**
 * imageUserland says what an image runs commands with; an `-alpine` tag is Alpine's BusyBox.
 * Simplification: an image the catalogue does not name is taken to be Debian-based, as the
 * official images' default tags mostly are.
 */
export function imageUserland(image: string): Userland {
  const r = normalizeImage(image);
  if (NO_SHELL_REPOS.has(r.repo)) return 'none';
  if (BUSYBOX_REPOS.has(r.repo) || /(^|-)alpine/.test(r.tag)) return 'busybox';
  return 'debian';
}

/**
 * imageEnv is the environment an image's config sets.
 * Simplification: PATH only (the official images set a few more, such as NGINX_VERSION).
 */
export function imageEnv(_image: string): [string, string][] {
  return [['PATH', '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin']];
}

/** ImageReference is a parsed, normalized image reference. */
export interface ImageReference {
  /** repo is the fully qualified repository, e.g. "docker.io/library/nginx". */
  repo: string;
  /** tag is the tag, "latest" when none was given ("" when only a digest was). */
  tag: string;
  digest?: string;
  /** full is repo:tag (or repo@digest), as containerd names the image. */
  full: string;
}

/**
 * normalizeImage mirrors reference.ParseNormalizedNamed + TagNameOnly: a name without a registry
 * is on docker.io, a single-component name is in library/, and a missing tag means :latest.
 */
const normalized = new Map<string, ImageReference>();

export function normalizeImage(image: string): ImageReference {
  let r = normalized.get(image);
  if (!r) {
    r = parseReference(image);
    if (normalized.size > 10_000) normalized.clear();
    normalized.set(image, r);
  }
  return r;
}

function parseReference(image: string): ImageReference {
  let rest = image.trim();
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  let tag = '';
  const slash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > slash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const first = rest.split('/')[0];
  const hasRegistry =
    rest.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  let repo = hasRegistry ? rest : `docker.io/${rest}`;
  if (!hasRegistry && !rest.includes('/')) repo = `docker.io/library/${rest}`;
  if (!tag && !digest) tag = 'latest';
  const full = digest && !tag ? `${repo}@${digest}` : `${repo}:${tag}`;
  return { repo, tag, digest, full };
}

// fnvHex derives 64 hex characters from a string (FNV-1a with eight seeds); stable across runs.
function fnvHex(s: string): string {
  let out = '';
  for (let seed = 0; seed < 8; seed++) {
    let h = (0x811c9dc5 ^ Math.imul(seed + 1, 0x9e3779b1)) >>> 0;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
    h ^= h >>> 13;
    h = Math.imul(h, 0x5bd1e995) >>> 0;
    h ^= h >>> 15;
    out += (h >>> 0).toString(16).padStart(8, '0');
  }
  return out;
}

const ids = new Map<string, string>();
const digests = new Map<string, string>();

/** imageID is the image's config digest, "sha256:<64 hex>" (what CRI calls the image ref). */
export function imageID(image: string): string {
  let id = ids.get(image);
  if (!id) {
    id = `sha256:${fnvHex(`config:${normalizeImage(image).full}`)}`;
    if (ids.size > 10_000) ids.clear();
    ids.set(image, id);
  }
  return id;
}

/** repoDigest is the manifest digest reference, e.g. "docker.io/library/nginx@sha256:...". */
export function repoDigest(image: string): string {
  let d = digests.get(image);
  if (!d) {
    const r = normalizeImage(image);
    d = `${r.repo}@sha256:${fnvHex(`manifest:${r.full}`)}`;
    if (digests.size > 10_000) digests.clear();
    digests.set(image, d);
  }
  return d;
}

const SIZE_RE = /^(\d+(?:\.\d+)?)\s*(B|kB|KB|MB|GB|TB|KiB|MiB|GiB|Ki|Mi|Gi|k|K|M|G)?$/;
const SIZE_MULT: Record<string, number> = {
  B: 1,
  k: 1e3,
  K: 1e3,
  kB: 1e3,
  KB: 1e3,
  M: 1e6,
  MB: 1e6,
  G: 1e9,
  GB: 1e9,
  TB: 1e12,
  Ki: 1024,
  KiB: 1024,
  Mi: 1024 ** 2,
  MiB: 1024 ** 2,
  Gi: 1024 ** 3,
  GiB: 1024 ** 3,
};

/** parseImageSize reads "72MB", "1.2GB", "500Mi" or a byte count; undefined if malformed. */
export function parseImageSize(s: string | number): number | undefined {
  if (typeof s === 'number') return Number.isFinite(s) && s >= 0 ? Math.round(s) : undefined;
  const m = SIZE_RE.exec(s.trim());
  if (!m) return undefined;
  return Math.round(Number(m[1]) * SIZE_MULT[m[2] ?? 'B']);
}

function durationMs(v: string | number): number | undefined {
  return typeof v === 'number' ? (Number.isFinite(v) && v >= 0 ? v : undefined) : parseDuration(v);
}

/**
 * ImageCatalog answers, for an image reference, how big it is, whether it can be pulled and how
 * its containers behave. Scenario overrides are keyed by reference as written ("nginx:1.27"),
 * normalized ("docker.io/library/nginx:1.27"), or repository only ("myapp") for every tag.
 */
export class ImageCatalog {
  private readonly overrides = new Map<string, ImageOverride>();
  private readonly cache = new Map<string, ImageBehaviour>();

  constructor(overrides: Record<string, ImageOverride> = {}) {
    for (const [k, v] of Object.entries(overrides)) {
      const r = normalizeImage(k);
      const explicitTag = k.includes('@') || k.lastIndexOf(':') > k.lastIndexOf('/');
      this.overrides.set(explicitTag ? r.full : `${r.repo}:*`, v);
    }
  }

  /** lookup returns the behaviour of an image reference. */
  lookup(image: string): ImageBehaviour {
    const cached = this.cache.get(image);
    if (cached) return cached;
    const r = normalizeImage(image);
    const base: ImageBehaviour = {
      sizeBytes: SIZES[r.full] ?? SIZES[`${r.repo}:*`] ?? DEFAULT_IMAGE_SIZE,
      // Typo demos: a tag that cannot exist fails by default.
      pull: r.tag === 'doesnotexist' || r.tag === 'does-not-exist' ? 'notfound' : 'ok',
    };
    if (SHELL_REPOS.has(r.repo)) base.shell = true;
    const o = this.overrides.get(r.full) ?? this.overrides.get(`${r.repo}:*`);
    if (o) {
      if (o.size !== undefined) base.sizeBytes = parseImageSize(o.size) ?? base.sizeBytes;
      if (o.pull) base.pull = o.pull;
      if (o.crashAfter !== undefined) base.crashAfterMs = durationMs(o.crashAfter);
      if (o.runFor !== undefined) base.runFor = durationMs(o.runFor);
      if (o.exitCode !== undefined) base.exitCode = o.exitCode;
      if (o.ignoreSigterm !== undefined) base.ignoreSigterm = o.ignoreSigterm;
      if (o.serves) base.serves = o.serves;
    }
    this.cache.set(image, base);
    return base;
  }

  /**
   * pullError is the error containerd 2.x returns through CRI for a failed pull, as the kubelet
   * shows it in the Failed event and the ErrImagePull message; undefined when the pull succeeds.
   */
  pullError(image: string): string | undefined {
    const b = this.lookup(image);
    const full = normalizeImage(image).full;
    if (b.pull === 'notfound')
      return `rpc error: code = NotFound desc = failed to pull and unpack image "${full}": failed to resolve reference "${full}": ${full}: not found`;
    if (b.pull === 'unauthorized')
      return `rpc error: code = Unknown desc = failed to pull and unpack image "${full}": failed to resolve reference "${full}": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed`;
    return undefined;
  }
}

/** ExitPlan says whether and how a started container exits on its own. */
export interface ExitPlan {
  /** afterMs is how long after StartContainer the process exits; undefined means it keeps running. */
  afterMs?: number;
  exitCode: number;
  /** ignoresSigterm: StopContainer waits for the timeout, then SIGKILL (exit 137). */
  ignoresSigterm: boolean;
}

const FOREVER = /\b(while|until)\b|tail\s+-f|sleep\s+infinity/;

/**
 * exitPlan decides how a container behaves from its image and its command: a catalogue crash or
 * run time wins; otherwise `sleep N` / `exit K` in a shell command are honoured; otherwise a
 * shell image with no command exits 0 at once, and anything else runs until stopped.
 * Simplification: commands are not executed; only these patterns are recognised.
 */
export function exitPlan(
  b: ImageBehaviour,
  command: string[] | undefined,
  args: string[] | undefined,
): ExitPlan {
  // Most containers set neither command nor args: their plan is the image's alone, made once per
  // image behaviour (plans are never written to).
  if (command === undefined && args === undefined) {
    let plan = imagePlans.get(b);
    if (!plan) imagePlans.set(b, (plan = planFor(b, undefined, undefined)));
    return plan;
  }
  return planFor(b, command, args);
}

/** imagePlans are the exit plans of containers without command or args, by image behaviour. */
const imagePlans = new WeakMap<ImageBehaviour, ExitPlan>();

function planFor(
  b: ImageBehaviour,
  command: string[] | undefined,
  args: string[] | undefined,
): ExitPlan {
  const argv = [...(command ?? []), ...(args ?? [])];
  const script = argv.join(' ');
  const pid1 = (command?.[0] ?? (b.shell ? 'sh' : '')).split('/').pop() ?? '';
  // A shell or sleep as PID 1 installs no SIGTERM handler, so the kernel ignores the signal.
  const shellPid1 =
    ['sh', 'bash', 'ash', 'sleep'].includes(pid1) || (b.shell === true && argv.length === 0);
  const ignoresSigterm = b.ignoreSigterm ?? shellPid1;
  if (b.crashAfterMs !== undefined)
    return { afterMs: b.crashAfterMs, exitCode: b.exitCode ?? 1, ignoresSigterm };
  if (b.runFor !== undefined)
    return { afterMs: b.runFor, exitCode: b.exitCode ?? 0, ignoresSigterm };
  if (argv.length > 0) {
    if (FOREVER.test(script)) return { exitCode: 0, ignoresSigterm };
    const sleeps = [...script.matchAll(/\bsleep\s+(\d+(?:\.\d+)?)(s|m|h)?\b/g)];
    const exits = [...script.matchAll(/\bexit\s+(\d+)/g)];
    if (sleeps.length || exits.length || b.shell || shellPid1) {
      let ms = 0;
      for (const m of sleeps)
        ms += Number(m[1]) * (m[2] === 'h' ? 3_600_000 : m[2] === 'm' ? 60_000 : 1000);
      const code = exits.length ? Number(exits[exits.length - 1][1]) : 0;
      return { afterMs: Math.max(ms, 50), exitCode: code, ignoresSigterm };
    }
    return { exitCode: 0, ignoresSigterm };
  }
  if (b.shell) return { afterMs: 50, exitCode: 0, ignoresSigterm };
  return { exitCode: 0, ignoresSigterm };
}
