/// <reference types="node" />
// Test helpers for the projections: golden files and scenario runs. Used by tests only.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { parseScenario } from '../scenario/loader.ts';
import { runScenario, type RunResult } from '../scenario/runner.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const TESTDATA = join(HERE, 'testdata');

/** golden compares with testdata/<file>. UPDATE_GOLDEN=1 rewrites it, but never when CI is set. */
export function golden(file: string, got: string): void {
  const path = join(TESTDATA, file);
  if (process.env.UPDATE_GOLDEN === '1' && !process.env.CI) {
    mkdirSync(TESTDATA, { recursive: true });
    writeFileSync(path, got);
    return;
  }
  if (!existsSync(path)) throw new Error(`missing golden file ${path}; run with UPDATE_GOLDEN=1 (outside CI) to create it`);
  expect(got).toBe(readFileSync(path, 'utf8'));
}

/** runNamed runs content/scenarios/<name>.yaml with a seed. */
export function runNamed(name: string, seed: number): RunResult {
  const text = readFileSync(join(HERE, '../../content/scenarios', `${name}.yaml`), 'utf8');
  return runScenario(parseScenario(text, `${name}.yaml`), { seed });
}
