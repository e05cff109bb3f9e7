// The cluster lab's state outside the worker: how the console reads a command line and how the
// URL hash carries a run. Imports only types from sim/, so the island's own bundle stays small.

import type { Snapshot } from '../../../sim/index.ts';

/** Action is something the learner did at a virtual time (ms), as snapshots record it. */
export type Action = Snapshot['actions'][number];

/** LAB_FAULTS are the faults the island offers, with the node they act on. */
export const LAB_FAULTS = ['node-down', 'node-up', 'partition', 'heal'] as const;
export type LabFault = (typeof LAB_FAULTS)[number];

/** Command is a console line, read. */
export type Command =
  | { kind: 'empty' }
  | { kind: 'kubectl'; args: string }
  | { kind: 'exec'; node: string; line: string }
  | { kind: 'unknown'; program: string }
  | { kind: 'ssh-usage' };

/**
 * parseCommand reads a console line: `kubectl <args>` runs kubectl, `ssh <node> <command>` runs a
 * node command (ls, cat, mv, systemctl, crictl, iptables-save; see sim/node/shell.ts). Anything else is an unknown program, as a shell says.
 */
export function parseCommand(line: string): Command {
  const trimmed = line.trim();
  if (trimmed === '') return { kind: 'empty' };
  const [program = '', ...rest] = trimmed.split(/\s+/);
  if (program === 'kubectl') return { kind: 'kubectl', args: rest.join(' ') };
  if (program === 'ssh') {
    const [node, ...cmd] = rest;
    if (!node || cmd.length === 0) return { kind: 'ssh-usage' };
    return { kind: 'exec', node, line: cmd.join(' ') };
  }
  return { kind: 'unknown', program };
}

/** HASH_KEY is the URL hash parameter: #lab=<base64url JSON>. */
export const HASH_KEY = 'lab';
/** HASH_VERSION is bumped when the hash's shape changes. */
export const HASH_VERSION = 1;
const MAX_ACTIONS = 500;
const MAX_LINE = 2000;

/** LabState is what the URL hash carries. */
export interface LabState {
  scenario: string;
  seed: number;
  time: number;
  actions: Action[];
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
  const body = { v: HASH_VERSION, s: s.scenario, seed: s.seed, t: s.time, a: s.actions };
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
  if (b.v !== HASH_VERSION)
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
      actions.push({ at: x.at, kubectl: x.kubectl });
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
  return { kind: 'ok', state: { scenario: b.s, seed: b.seed, time: b.t, actions } };
}
