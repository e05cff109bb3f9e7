/// <reference types="node" />
// Test helpers for the projections: golden files and scenario runs. Used by tests only.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { golden as goldenFile } from '../testing.ts';
import { parseScenario } from '../scenario/loader.ts';
import { runScenario, type RunResult } from '../scenario/runner.ts';

const HERE = dirname(fileURLToPath(import.meta.url));

/** golden compares with testdata/<file> (see sim/testing.ts). */
export function golden(file: string, got: string): void {
  goldenFile(new URL(`./testdata/${file}`, import.meta.url), got);
}

/** runNamed runs content/scenarios/<name>.yaml with a seed. */
export function runNamed(name: string, seed: number): RunResult {
  const text = readFileSync(join(HERE, '../../content/scenarios', `${name}.yaml`), 'utf8');
  return runScenario(parseScenario(text, `${name}.yaml`), { seed });
}
