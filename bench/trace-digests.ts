/// <reference types="node" />
// Prints one digest per standard scenario, seed and trace level: the SHA-256 of the run's whole
// `--json` result (objects, changes, trace, outputs), so that a change meant to leave runs alone
// can be checked against another checkout, e.g.
//   node bench/trace-digests.ts . > after.txt
//   node bench/trace-digests.ts ../other-checkout > before.txt && diff before.txt after.txt
// scale-5000 is left out (its run takes minutes); a scenario that needs parameters is listed as
// not parsed.

import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(process.argv[2] ?? '.');
const { parseScenario } = (await import(
  `${root}/sim/scenario/loader.ts`
)) as typeof import('../sim/scenario/loader.ts');
const { runScenario } = (await import(
  `${root}/sim/scenario/runner.ts`
)) as typeof import('../sim/scenario/runner.ts');

for (const file of readdirSync(`${root}/content/scenarios`).sort()) {
  if (!file.endsWith('.yaml') || file === 'scale-5000.yaml') continue;
  const name = file.replace(/\.yaml$/, '');
  let scenario;
  try {
    scenario = parseScenario(readFileSync(`${root}/content/scenarios/${file}`, 'utf8'), name);
  } catch {
    console.log(`${name} not parsed`);
    continue;
  }
  for (const seed of [undefined, 3, 11])
    for (const traceLevel of ['full', 'requests'] as const) {
      const result = runScenario(scenario, {
        seed,
        traceLevel,
        recordChanges: traceLevel === 'full',
      });
      const digest = createHash('sha256').update(JSON.stringify(result)).digest('hex').slice(0, 16);
      console.log(
        `${name} seed=${seed ?? 'default'} ${traceLevel} ${digest} (${result.trace.length} trace entries)`,
      );
    }
}
