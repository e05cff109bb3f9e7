// Mirrors pkg/kubelet/config/file.go (sourceFile): the kubelet's static Pod source. It reads every
// file in staticPodPath that does not start with "." (listConfig, extractFromDir), decodes each
// as a Pod (pkg/kubelet/config/common.go tryDecodeSinglePod) and names it <name>-<nodeName>
// (applyDefaults), then hands the whole set to the kubelet (a SET update). It reads the directory
// at once when it starts and again every fileCheckFrequency.
// Simplification: no inotify watch (file_linux.go startWatch), so a change is seen at the next
// periodic read, at most fileCheckFrequency later; a file that does not decode is skipped.

import { parse } from 'yaml';
import type { Simulation, TimerHandle } from '../engine/simulation.ts';

/**
 * fileCheckFrequency is the kubelet's default fileCheckFrequency (20s), in ms:
 * pkg/kubelet/apis/config/v1beta1/defaults.go (SetDefaults_KubeletConfiguration).
 */
export const fileCheckFrequency = 20_000;

/** ManifestReader is the part of the node's filesystem the file source reads. */
export interface ManifestReader {
  readDir(path: string): string[] | undefined;
  readFile(path: string): string | undefined;
}

/** staticPodKey is the namespace/name of the Pod a manifest declares on a node. */
export function staticPodKey(namespace: string | undefined, name: string, nodeName: string): string {
  return `${namespace || 'default'}/${name}-${nodeName}`;
}

/**
 * decoded remembers what each manifest text declares. Decoding is a pure function of the text,
 * and the kubelet re-reads the same unchanged files every 20 s, so each text is parsed once (the
 * cache is valid for every run and seed; it is small: a few manifests per course).
 */
const decoded = new Map<string, { name: string; namespace?: string } | null>();

function decodePod(text: string): { name: string; namespace?: string } | null {
  let hit = decoded.get(text);
  if (hit !== undefined) return hit;
  hit = null;
  try {
    const pod = parse(text) as { kind?: string; metadata?: { name?: unknown; namespace?: unknown } } | null;
    if (pod?.kind === 'Pod' && typeof pod.metadata?.name === 'string' && pod.metadata.name)
      hit = { name: pod.metadata.name, namespace: typeof pod.metadata.namespace === 'string' ? pod.metadata.namespace : undefined };
  } catch {
    hit = null;
  }
  if (decoded.size > 256) decoded.clear();
  decoded.set(text, hit);
  return hit;
}

/**
 * readStaticPods is one listConfig: the keys (namespace/name-node) of the Pods the directory
 * declares. keyOf, when given, remembers each manifest text's key across reads (the file source
 * re-reads unchanged files every 20 s).
 */
export function readStaticPods(
  fs: ManifestReader,
  path: string,
  nodeName: string,
  keyOf?: Map<string, string | null>,
): Set<string> {
  const keys = new Set<string>();
  for (const file of fs.readDir(path) ?? []) {
    if (file.startsWith('.')) continue;
    const text = fs.readFile(`${path}/${file}`);
    if (text === undefined) continue;
    let key = keyOf?.get(text);
    if (key === undefined) {
      const pod = decodePod(text);
      key = pod ? staticPodKey(pod.namespace, pod.name, nodeName) : null;
      if (keyOf) {
        if (keyOf.size > 256) keyOf.clear();
        keyOf.set(text, key);
      }
    }
    if (key !== null) keys.add(key);
  }
  return keys;
}

/** FileSource re-reads a node's static Pod directory every fileCheckFrequency. */
export class FileSource {
  private readonly sim: Simulation;
  private readonly fs: ManifestReader;
  private readonly path: string;
  private readonly nodeName: string;
  private readonly onSet: (keys: Set<string>) => void;
  private timer: TimerHandle | undefined;
  /** keyOf is readStaticPods' memory of each manifest text's key on this node. */
  private readonly keyOf = new Map<string, string | null>();
  /** readWhat names the periodic read and read is its callback (both made once). */
  private readonly readWhat: string;
  private readonly read: () => void;

  constructor(sim: Simulation, owner: string, fs: ManifestReader, path: string, nodeName: string, onSet: (keys: Set<string>) => void) {
    this.sim = sim;
    this.fs = fs;
    this.path = path;
    this.nodeName = nodeName;
    this.onSet = onSet;
    this.readWhat = `${owner}: read ${path}`;
    const read = () => {
      this.schedule();
      this.onSet(this.list());
    };
    this.read = read;
  }

  /** start reads the directory now and returns what it declares; later reads go to onSet. */
  start(): Set<string> {
    this.stop();
    this.schedule();
    return this.list();
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** list is listConfig: what the directory declares now. */
  list(): Set<string> {
    return readStaticPods(this.fs, this.path, this.nodeName, this.keyOf);
  }

  private schedule(): void {
    this.timer = this.sim.after(fileCheckFrequency, this.readWhat, this.read);
  }
}
