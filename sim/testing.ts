/// <reference types="node" />
// Shared test helper: golden files. Used by tests only (lint treats sim/**/testing.ts as tests).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/**
 * golden compares got with the file at url. UPDATE_GOLDEN=1 rewrites the file locally; CI (CI set)
 * always compares and never rewrites, so a mismatch fails.
 */
export function golden(url: URL, got: string): void {
  const path = fileURLToPath(url);
  if (process.env.UPDATE_GOLDEN === '1' && !process.env.CI) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, got);
    return;
  }
  if (!existsSync(path)) throw new Error(`missing golden file ${path}; run with UPDATE_GOLDEN=1 (outside CI) to create it`);
  expect(got).toBe(readFileSync(path, 'utf8'));
}
