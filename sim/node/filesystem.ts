// A node's files: the few paths the node commands reach. On the control-plane node that is the
// kubeadm layout the kubelet reads its static Pods from (/etc/kubernetes/manifests, see
// cmd/kubeadm/app/phases/controlplane/manifests.go and cmd/kubeadm/app/util/staticpod/utils.go
// WriteStaticPodToDisk, which writes each manifest with mode 0600), plus /tmp and root's home.
// Simplification: a flat map of paths to text; no inodes, links, owners other than root, or
// permissions checks (the shell runs as root, so `sudo` changes nothing).

/** FileInfo is what `ls -l` prints about an entry. */
export interface FileInfo {
  path: string;
  dir: boolean;
  /** mode is the permission bits, e.g. 0o600. */
  mode: number;
  size: number;
  /** mtime is the virtual time (ms) of the last change. */
  mtime: number;
}

interface Entry {
  dir: boolean;
  mode: number;
  mtime: number;
  content: string;
}

/** HOME is where a login shell starts (root's home). */
export const HOME = '/root';

/** normalize resolves a path against cwd: `~`, `.`, `..`, repeated and trailing slashes. */
export function normalize(path: string, cwd = HOME): string {
  let p = path;
  if (p === '~' || p.startsWith('~/')) p = HOME + p.slice(1);
  if (!p.startsWith('/')) p = `${cwd}/${p}`;
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

/** dirname is the parent of a normalized path ("/" for "/"). */
export function dirname(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/** basename is the last component of a normalized path. */
export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** NodeFilesystem is one node's files, keyed by absolute path. */
export class NodeFilesystem {
  private readonly entries = new Map<string, Entry>();
  /** generation changes on every write, so readers can skip unchanged directories. */
  generation = 0;

  constructor() {
    this.entries.set('/', { dir: true, mode: 0o755, mtime: 0, content: '' });
  }

  /** mkdir creates a directory and its parents (mkdir -p). */
  mkdir(path: string, mode = 0o755, now = 0): void {
    const p = normalize(path, '/');
    if (this.entries.has(p)) return;
    this.mkdir(dirname(p), 0o755, now);
    this.entries.set(p, { dir: true, mode, mtime: now, content: '' });
    this.generation++;
  }

  /** writeFile creates or replaces a file; its directory must exist. */
  writeFile(path: string, content: string, mode = 0o644, now = 0): void {
    const p = normalize(path, '/');
    const parent = this.entries.get(dirname(p));
    if (!parent?.dir) throw new Error(`writeFile ${p}: no such directory`);
    this.entries.set(p, { dir: false, mode, mtime: now, content });
    parent.mtime = now;
    this.generation++;
  }

  /** stat describes an entry, or undefined if there is none. */
  stat(path: string): FileInfo | undefined {
    const e = this.entries.get(path);
    return e && { path, dir: e.dir, mode: e.mode, size: e.dir ? 4096 : utf8Length(e.content), mtime: e.mtime };
  }

  /** readFile returns a file's text, or undefined if it is missing or a directory. */
  readFile(path: string): string | undefined {
    const e = this.entries.get(path);
    return e && !e.dir ? e.content : undefined;
  }

  /** readDir lists the names directly under a directory, sorted; undefined if it is not one. */
  readDir(path: string): string[] | undefined {
    if (!this.entries.get(path)?.dir) return undefined;
    const prefix = path === '/' ? '/' : `${path}/`;
    const names: string[] = [];
    for (const p of this.entries.keys())
      if (p !== '/' && p.startsWith(prefix) && !p.slice(prefix.length).includes('/')) names.push(p.slice(prefix.length));
    return names.sort(byteOrder);
  }

  /**
   * rename moves an entry (and, for a directory, everything under it) as rename(2) does: an
   * existing file at the destination is replaced. The caller checks the error cases first.
   */
  rename(from: string, to: string, now: number): void {
    if (from === to) return;
    const moved = [...this.entries.entries()].filter(([p]) => p === from || p.startsWith(`${from}/`));
    for (const [p] of moved) this.entries.delete(p);
    for (const [p, e] of moved) this.entries.set(to + p.slice(from.length), e);
    const src = this.entries.get(dirname(from));
    const dst = this.entries.get(dirname(to));
    if (src) src.mtime = now;
    if (dst) dst.mtime = now;
    this.generation++;
  }
}

function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

/** byteOrder sorts as `LC_ALL=C ls` does. */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
