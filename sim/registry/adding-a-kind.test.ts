// The "Adding a kind" recipe of sim/README.md, walked through: a copy of sim/ gets one new folder
// (registry/example/widgets/: types.ts, strategy.ts, printer.ts) and one row in
// apiserver/discovery.ts, and nothing else. The copy then serves the kind: discovery and name
// resolution, strict decoding of its fields, its validation, its table, and the garbage
// collector collects it when its owner goes (it watches every deletable row).
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestEntry } from '../engine/trace.ts';
import type * as Loader from '../scenario/loader.ts';
import type * as Runner from '../scenario/runner.ts';

const SIM = fileURLToPath(new URL('..', import.meta.url));
const REPO = join(SIM, '..');

// The new folder, as the recipe's step 1 writes it.
const TYPES = `import type { KubeObject } from '../../../api/types.ts';
import { byValue, i32, kindSchema, struct } from '../../../api/schema.ts';

export interface Widget extends KubeObject {
  apiVersion: 'example.k8s.io/v1';
  kind: 'Widget';
  spec: { size?: number };
}

export const widgetSchema = kindSchema<Widget>('Widget', {
  spec: byValue(struct('WidgetSpec', () => ({ size: i32 }))),
});
`;
const STRATEGY = `import type { FieldError } from '../../../apiserver/errors.ts';
import type { Strategy } from '../../rules.ts';
import type { Widget } from './types.ts';

export const widgetStrategy: Strategy = {
  validate(obj) {
    const w = obj as unknown as Widget;
    const errs: FieldError[] = [];
    if ((w.spec?.size ?? 0) < 0)
      errs.push({ field: 'spec.size', type: 'Invalid value', value: w.spec.size, detail: 'must be greater than or equal to 0' });
    return errs;
  },
};
`;
const PRINTER = `import { translateTimestampSince } from '../../../kubectl/duration.ts';
import { AGE, col, NAME } from '../../../kubectl/table.ts';
import type { Printer } from '../../rules.ts';
import type { Widget } from './types.ts';

export const widgetPrinter: Printer = {
  columns: [NAME, col('Size'), AGE],
  row(obj, now) {
    const w = obj as unknown as Widget;
    return { cells: [w.metadata.name, w.spec?.size ?? 0, translateTimestampSince(w.metadata.creationTimestamp, now)], object: obj };
  },
};
`;
// The row, as the recipe's step 2 adds it (in discovery order: after events.k8s.io).
const IMPORTS = `import { widgetSchema } from '../registry/example/widgets/types.ts';
import { widgetStrategy } from '../registry/example/widgets/strategy.ts';
import { widgetPrinter } from '../registry/example/widgets/printer.ts';
`;
const ROW = `  row({
    group: 'example.k8s.io',
    kind: 'Widget',
    schema: widgetSchema,
    resource: 'widgets',
    namespaced: true,
    shortNames: ['wd'],
    rules: { strategy: widgetStrategy, printer: widgetPrinter },
  }),
`;

const SCENARIO = `name: widgets
seed: 1
steps:
  - at: 0s
    apply: |
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: owner
until: 60s
`;

let dir = '';
let loader: typeof Loader;
let runner: typeof Runner;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'adding-a-kind-'));
  cpSync(SIM, join(dir, 'sim'), {
    recursive: true,
    filter: (p) => !p.endsWith('.test.ts') && !p.includes('testdata'),
  });
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  const folder = join(dir, 'sim/registry/example/widgets');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'types.ts'), TYPES);
  writeFileSync(join(folder, 'strategy.ts'), STRATEGY);
  writeFileSync(join(folder, 'printer.ts'), PRINTER);
  const discovery = join(dir, 'sim/apiserver/discovery.ts');
  let text = readFileSync(discovery, 'utf8');
  const policyRow = '  // pkg/registry/policy/poddisruptionbudget';
  expect(text).toContain(policyRow);
  text = IMPORTS + text.replace(policyRow, ROW + policyRow);
  writeFileSync(discovery, text);
  loader = (await import(join(dir, 'sim/scenario/loader.ts'))) as typeof Loader;
  runner = (await import(join(dir, 'sim/scenario/runner.ts'))) as typeof Runner;
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function cluster(): Runner.ScenarioRun {
  const run = new runner.ScenarioRun(loader.parseScenario(SCENARIO, 'widgets.yaml'), {
    freeze: true,
  });
  run.runUntil(5_000);
  return run;
}

function widget(extra: string): string {
  return `apiVersion: example.k8s.io/v1
kind: Widget
metadata:
  name: w
${extra}`;
}

describe('adding a kind is one folder and one row', () => {
  it('discovery lists it and kubectl resolves its names', () => {
    const run = cluster();
    expect(run.cluster.kubectl('api-resources --api-group=example.k8s.io').stdout).toBe(
      'NAME      SHORTNAMES   APIVERSION          NAMESPACED   KIND\n' +
        'widgets   wd           example.k8s.io/v1   true         Widget\n',
    );
    expect(run.cluster.kubectl('get wd').stderr).toBe('No resources found in default namespace.\n');
  });

  it('kube-apiserver decodes, validates, stores and prints it', () => {
    const run = cluster();
    const unknown = run.cluster.kubectl('apply -f -', widget('spec:\n  colour: red\n'));
    expect(unknown.stderr).toContain(
      'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.colour"',
    );
    const typed = run.cluster.kubectl('apply -f -', widget('spec:\n  size: big\n'));
    expect(typed.stderr).toContain(
      'json: cannot unmarshal string into Go struct field WidgetSpec.spec.size of type int32',
    );
    const invalid = run.cluster.kubectl('apply -f -', widget('spec:\n  size: -1\n'));
    expect(invalid.stderr).toContain(
      'The Widget "w" is invalid: spec.size: Invalid value: -1: must be greater than or equal to 0',
    );
    expect(run.cluster.kubectl('apply -f -', widget('spec:\n  size: 3\n')).stdout).toBe(
      'widget.example.k8s.io/w created\n',
    );
    expect(run.cluster.kubectl('get widgets.example.k8s.io').stdout).toBe(
      'NAME   SIZE   AGE\nw      3      0s\n',
    );
  });

  it('the garbage collector watches it and deletes it when its owner is gone', () => {
    const run = cluster();
    const owner = JSON.parse(run.cluster.kubectl('get configmap owner -o json').stdout) as {
      metadata: { uid: string };
    };
    const uid = owner.metadata.uid;
    expect(uid).not.toBe('');
    const owned = widget(
      `  ownerReferences:\n  - apiVersion: v1\n    kind: ConfigMap\n    name: owner\n    uid: ${uid}\nspec:\n  size: 1\n`,
    );
    expect(run.cluster.kubectl('apply -f -', owned).exitCode).toBe(0);
    expect(run.cluster.kubectl('delete configmap owner').exitCode).toBe(0);
    run.runUntil(15_000);
    expect(run.cluster.kubectl('get widgets').stderr).toBe(
      'No resources found in default namespace.\n',
    );
    const gcDelete = run.cluster.sim.trace.find(
      (e): e is RequestEntry =>
        e.kind === 'request' &&
        e.from === 'garbage-collector' &&
        e.verb === 'delete' &&
        e.resource === 'widgets',
    );
    expect(gcDelete?.name).toBe('w');
  });
});
