// The cluster lab's state outside the worker: how the URL hash carries a run, its console
// transcript and the open Why? panel (the console's grammar is src/lib/console.ts). Imports only types from sim/, so the island's own bundle stays small.

import type { Snapshot } from '../../../sim/index.ts';

/** Action is something the learner did at a virtual time (ms), as snapshots record it. */
export type Action = Snapshot['actions'][number];

/** LAB_FAULTS are the faults the island offers, with the node they act on. */
export const LAB_FAULTS = ['node-down', 'node-up', 'partition', 'heal'] as const;
export type LabFault = (typeof LAB_FAULTS)[number];

/** HASH_KEY is the URL hash parameter: #lab=<base64url JSON>. */
export const HASH_KEY = 'lab';
/** HASH_VERSION is bumped when the hash's shape changes (version 1 had no transcript). */
export const HASH_VERSION = 2;
/** The hash's bounds: what a link may carry, so a crafted one cannot make the page work forever. */
export const MAX_ACTIONS = 500;
export const MAX_LINE = 2000;
/** MAX_MANIFEST bounds a manifest applied from the editor (its YAML). */
export const MAX_MANIFEST = 20_000;
/** MAX_TRANSCRIPT is how many console lines the hash keeps (the latest). */
export const MAX_TRANSCRIPT = 100;

/**
 * TranscriptLine is one line typed in the console. action is the index in actions of what it
 * did to the cluster (its output is replayed from there); lines without one (help, an unknown
 * program) are answered by the console again. stopped is, for a `kubectl get -w`, the virtual
 * time (ms) the watch ended at (Escape, Ctrl+C, the next line): the replay prints the rows it
 * streamed up to then. A watch with no stopped time was still running when the link was made.
 */
export interface TranscriptLine {
  line: string;
  action?: number;
  stopped?: number;
}

/** WHY_TARGET is the Why? panel's choice: "pod:NAME" or "node:NAME". */
const WHY_TARGET = /^(pod|node):[a-z0-9][a-z0-9.-]{0,252}$/;

/** LabState is what the URL hash carries. */
export interface LabState {
  scenario: string;
  seed: number;
  time: number;
  actions: Action[];
  transcript?: TranscriptLine[];
  /** why is the object the Why? panel explains, "pod:NAME" or "node:NAME". */
  why?: string;
}

function toBase64Url(s: string): string {
  const bytes = new TextEncoder().encode(s);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s: string): string {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** encodeHash returns the hash for a lab state, e.g. "#lab=eyJ2Ijox...". */
export function encodeHash(s: LabState): string {
  const c = (s.transcript ?? []).slice(-MAX_TRANSCRIPT).map((l) => ({
    l: l.line,
    ...(l.action === undefined ? {} : { a: l.action }),
    ...(l.stopped === undefined ? {} : { s: l.stopped }),
  }));
  const body = {
    v: HASH_VERSION,
    s: s.scenario,
    seed: s.seed,
    t: s.time,
    a: s.actions,
    ...(c.length ? { c } : {}),
    ...(s.why ? { w: s.why } : {}),
  };
  return `#${HASH_KEY}=${toBase64Url(JSON.stringify(body))}`;
}

/** HashResult is a decoded hash: absent, a valid state, or why it was rejected. */
export type HashResult =
  { kind: 'none' } | { kind: 'ok'; state: LabState } | { kind: 'invalid'; reason: string };

const isTime = (v: unknown, until: number): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= until;

/**
 * decodeHash reads a location hash defensively: any problem gives { kind: 'invalid' } with a
 * reason (never an exception). scenario and until bound what is accepted.
 */
export function decodeHash(hash: string, scenario: string, until: number): HashResult {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const raw = params.get(HASH_KEY);
  if (raw === null) return { kind: 'none' };
  let body: unknown;
  try {
    body = JSON.parse(fromBase64Url(raw));
  } catch {
    return { kind: 'invalid', reason: 'not base64url JSON' };
  }
  if (typeof body !== 'object' || body === null)
    return { kind: 'invalid', reason: 'not an object' };
  const b = body as Record<string, unknown>;
  if (b.v !== HASH_VERSION && b.v !== 1)
    return { kind: 'invalid', reason: `unsupported version ${String(b.v)}` };
  if (b.s !== scenario) return { kind: 'invalid', reason: 'another scenario' };
  if (typeof b.seed !== 'number' || !Number.isSafeInteger(b.seed))
    return { kind: 'invalid', reason: 'bad seed' };
  if (!isTime(b.t, until)) return { kind: 'invalid', reason: 'bad time' };
  if (!Array.isArray(b.a) || b.a.length > MAX_ACTIONS)
    return { kind: 'invalid', reason: 'bad actions' };
  const actions: Action[] = [];
  for (const a of b.a as unknown[]) {
    if (typeof a !== 'object' || a === null) return { kind: 'invalid', reason: 'bad action' };
    const x = a as Record<string, unknown>;
    if (!isTime(x.at, b.t)) return { kind: 'invalid', reason: 'bad action time' };
    if (typeof x.kubectl === 'string' && x.kubectl.length <= MAX_LINE && x.fault === undefined) {
      if (x.stdin === undefined) actions.push({ at: x.at, kubectl: x.kubectl });
      else if (typeof x.stdin === 'string' && x.stdin.length <= MAX_MANIFEST)
        actions.push({ at: x.at, kubectl: x.kubectl, stdin: x.stdin });
      else return { kind: 'invalid', reason: 'bad manifest' };
    } else if (
      typeof x.exec === 'string' &&
      x.exec.length <= MAX_LINE &&
      typeof x.node === 'string' &&
      /^[a-z0-9][a-z0-9.-]{0,62}$/.test(x.node)
    ) {
      actions.push({ at: x.at, exec: x.exec, node: x.node });
    } else if (
      typeof x.fault === 'string' &&
      (LAB_FAULTS as readonly string[]).includes(x.fault) &&
      typeof x.node === 'string' &&
      /^[a-z0-9][a-z0-9.-]{0,62}$/.test(x.node)
    ) {
      actions.push({ at: x.at, fault: x.fault, node: x.node });
    } else return { kind: 'invalid', reason: 'bad action' };
  }
  const transcript: TranscriptLine[] = [];
  if (b.c !== undefined) {
    if (!Array.isArray(b.c) || b.c.length > MAX_TRANSCRIPT)
      return { kind: 'invalid', reason: 'bad transcript' };
    for (const l of b.c as unknown[]) {
      const x = (typeof l === 'object' && l !== null ? l : {}) as Record<string, unknown>;
      if (typeof x.l !== 'string' || x.l.length > MAX_LINE)
        return { kind: 'invalid', reason: 'bad transcript line' };
      const line: TranscriptLine = { line: x.l };
      if (typeof x.a === 'number' && Number.isInteger(x.a) && x.a >= 0 && x.a < actions.length)
        line.action = x.a;
      else if (x.a !== undefined) return { kind: 'invalid', reason: 'bad transcript line' };
      // Only a line that did something can have started a watch.
      if (line.action !== undefined && isTime(x.s, b.t) && x.s >= actions[line.action]!.at)
        line.stopped = x.s;
      else if (x.s !== undefined) return { kind: 'invalid', reason: 'bad transcript line' };
      transcript.push(line);
    }
  }
  if (b.w !== undefined && (typeof b.w !== 'string' || !WHY_TARGET.test(b.w)))
    return { kind: 'invalid', reason: 'bad Why? target' };
  const state: LabState = { scenario: b.s, seed: b.seed, time: b.t, actions };
  if (transcript.length) state.transcript = transcript;
  if (typeof b.w === 'string') state.why = b.w;
  return { kind: 'ok', state };
}
