// Checks the manifests a scenario's apply steps send before the scenario runs: what
// kube-apiserver's strict decoding would reject (an unknown field such as `replica: 2`, a value of
// the wrong type) is the author's mistake, reported at its line and column in the scenario file,
// unless the step declares the error it means to provoke (`expectError`). Validation that needs
// the cluster (422 Invalid, a namespace that does not exist) is checked when the run plays the
// step (ScenarioRun.stepProblems).

import { parseAllDocuments, isMap, isSeq, isScalar, type Document, type Node as YamlNode, type parseDocument } from 'yaml';
import { decode, knownFields } from '../apiserver/decode.ts';
import { didYouMean } from './suggest.ts';

/** ManifestProblem is one thing kube-apiserver would reject, and where it is in the scenario file. */
export interface ManifestProblem {
  message: string;
  line?: number;
  column?: number;
}

type Pos = { line: number; column: number };

function posOf(src: string, off: number): Pos {
  const before = src.slice(0, off);
  return { line: before.split('\n').length, column: off - before.lastIndexOf('\n') };
}

/**
 * manifestMapper maps a position in the apply text to the scenario file: a block scalar (`|`)
 * keeps its lines, shifted by the header line and the block's indentation; any other scalar maps
 * to where it starts.
 */
function manifestMapper(doc: ReturnType<typeof parseDocument> | undefined, path: readonly PropertyKey[], src: string | undefined): (p: Pos | undefined) => Pos | undefined {
  const node = doc?.getIn(path as PropertyKey[], true) as YamlNode | undefined;
  if (!src || !node || !isScalar(node) || !node.range) return () => undefined;
  const start = posOf(src, node.range[0]);
  if (node.type !== 'BLOCK_LITERAL' && node.type !== 'BLOCK_FOLDED') return () => start;
  const lines = src.split('\n');
  const first = lines.slice(start.line).find((l) => l.trim() !== '');
  const indent = first ? /^ */.exec(first)![0].length : 0;
  return (p) => (p ? { line: start.line + p.line, column: indent + p.column } : start);
}

/** nodeAt finds a manifest field by its strict-error path ("spec.containers[0].imagee"); for an unknown field, its key. */
function nodeAt(d: Document, path: string, key: boolean): YamlNode | undefined {
  const parts = path.match(/[^.[\]]+/g) ?? [];
  let node = d.contents as YamlNode | null;
  let last: YamlNode | undefined = node ?? undefined;
  for (const [i, p] of parts.entries()) {
    if (isMap(node)) {
      const pair = node.items.find((it) => (it.key as { value?: unknown } | null)?.value === p);
      if (!pair) break;
      if (key && i === parts.length - 1) return pair.key as YamlNode;
      node = pair.value as YamlNode | null;
    } else if (isSeq(node)) node = (node.items[/^\d+$/.test(p) ? Number(p) : 0] as YamlNode | undefined) ?? null;
    else break;
    if (node) last = node;
  }
  return last;
}

/** checkManifests lists what kube-apiserver would reject in one apply step's text. */
export function checkManifests(
  text: string,
  expectError: string | undefined,
  doc: ReturnType<typeof parseDocument> | undefined,
  path: readonly PropertyKey[],
  src: string | undefined,
): ManifestProblem[] {
  // A {{placeholder}} is filled in before the run; the filled-in text is checked then.
  if (text.includes('{{')) return [];
  const map = manifestMapper(doc, path, src);
  const at = (d: Document, node: YamlNode | undefined): Partial<Pos> => map(node?.range ? posOf(text, node.range[0]) : d.range ? posOf(text, d.range[0]) : undefined) ?? {};
  const out: ManifestProblem[] = [];
  const expected = (err: string) => expectError !== undefined && err.includes(expectError);
  const fix = (err: string) => `If the step is meant to fail, give it expectError: ${JSON.stringify(err)} (or a part of it).`;
  for (const d of parseAllDocuments(text, { uniqueKeys: false })) {
    if (d.errors.length) {
      const e = d.errors[0];
      const msg = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
      if (!expectError) out.push({ message: `the manifest is not valid YAML: ${msg}; expected a manifest kubectl can parse (kubectl apply fails with "error converting YAML to JSON")`, ...map(posOf(text, e.pos[0])) });
      continue;
    }
    const obj = d.toJS() as unknown;
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) continue;
    const o = obj as Record<string, unknown>;
    const r = decode(o);
    if (r.error === undefined || expected(r.error)) continue;
    const kind = String(o.kind);
    const name = (o.metadata as { name?: unknown } | undefined)?.name;
    const what = `${kind}${typeof name === 'string' ? ` "${name}"` : ''}`;
    const answer = `kube-apiserver answers 400 BadRequest: ${r.error}.`;
    const unknown = /strict decoding error: (.*)$/.exec(r.error);
    if (unknown) {
      for (const m of unknown[1].matchAll(/unknown field "([^"]+)"/g)) {
        const field = m[1];
        const known = knownFields(kind, field) ?? [];
        const leaf = field.replace(/\[[^\]]*\]/g, '').split('.').pop()!;
        const shown = known.length > 12 ? `${known.slice(0, 12).join(', ')}, ...` : known.join(', ');
        out.push({
          message: `found unknown field "${field}" in ${what}, expected ${known.length ? `a field kube-apiserver knows there (${shown})` : 'only fields of the API'}${didYouMean(leaf, known) || "."} ${answer} ${fix(`unknown field "${field}"`)}`,
          ...at(d, nodeAt(d, field, true)),
        });
      }
      continue;
    }
    // "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"
    const field = /Go struct field \w+\.(\S+) of type/.exec(r.error)?.[1];
    out.push({ message: `found a value kube-apiserver cannot decode in ${what}${field ? ` at ${field}` : ''}. ${answer} ${fix(r.error.replace(/^.*?: /, ''))}`, ...at(d, field ? nodeAt(d, field, false) : undefined) });
  }
  return out;
}
