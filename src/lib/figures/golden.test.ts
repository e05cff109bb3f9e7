// Golden files for every figure kind's SVG, like sim/projections/testdata has for the Mermaid text:
// a change to a renderer shows up as a diff of testdata/*.svg in review. One element per line, so
// the diff is readable. UPDATE_GOLDEN=1 rewrites them locally; in CI (CI set) a mismatch fails.
import { describe, it } from 'vitest';
import {
  componentGraph,
  nodeTimeline,
  replicaSetReplicas,
  resourceDiagram,
  sequenceDiagram,
} from '../../../sim/index.ts';
import { golden as goldenFile } from '../../../sim/testing.ts';
import { classSvg } from './class-svg.ts';
import { graphSvg } from './graph-svg.ts';
import { runFor } from './run.ts';
import { sequenceSvg } from './sequence-svg.ts';
import { nodeBand, replicaSetSeries, stepChart } from './timeline-svg.ts';

const apply = runFor({ scenario: 'apply-to-running', seed: 1, page: 'test' });
const failure = runFor({ scenario: 'node-failure', seed: 7, page: 'test' });
const rolling = runFor({ scenario: 'rolling-update', seed: 3, page: 'test' });

/** golden compares an SVG, one element per line, with testdata/<file>. */
function golden(file: string, svg: string): void {
  goldenFile(new URL(`./testdata/${file}`, import.meta.url), `${svg.replace(/></g, '>\n<')}\n`);
}

describe('figure SVG golden files', () => {
  it('sequence diagram: lesson 2, node half (5 lifelines, wait notes, wrapped labels)', () => {
    const d = sequenceDiagram(apply, {
      follow: { resource: 'pods', namespace: 'default', label: 'app=web', index: 0 },
      participants: [
        'kube-scheduler',
        'kube-apiserver',
        'kubelet@node-1',
        'container-runtime@node-1',
        'cni-plugin@node-1',
      ],
      from: 0.006,
      waitNotes: true,
      number: true,
    });
    golden('apply-to-running.sequence-node.svg', sequenceSvg(d, { id: 'g' }));
  });

  it('sequence diagram: default lifeline cap of five, in Japanese', () => {
    const d = sequenceDiagram(apply, {
      follow: { resource: 'pods', namespace: 'default', label: 'app=web', index: 0 },
      maxParticipants: 5,
      number: true,
    });
    golden('apply-to-running.sequence-capped.ja.svg', sequenceSvg(d, { id: 'g', lang: 'ja' }));
  });

  // The wide layout (control plane | kube-apiserver | worker node), as drawn when there is room.
  it('component graph (nodes merged), wide layout', () => {
    golden(
      'apply-to-running.graph.svg',
      graphSvg(componentGraph(apply.trace, { mergeNodes: true }), { id: 'g', fit: 10_000 }),
    );
  });

  it('component graph in Japanese, wide layout: edge counts in Japanese (「6 件のリクエスト」), the columns apart to fit them', () => {
    golden(
      'apply-to-running.graph.ja.svg',
      graphSvg(componentGraph(apply.trace, { mergeNodes: true }), {
        id: 'g',
        lang: 'ja',
        fit: 10_000,
      }),
    );
  });

  // The narrow layout the lessons show (it fits the 632 px column): etcd in the left column, the
  // worker node below the control plane.
  it('component graph (nodes merged), narrow layout, in English and Japanese', () => {
    const g = componentGraph(apply.trace, { mergeNodes: true });
    golden('apply-to-running.graph-narrow.svg', graphSvg(g, { id: 'g' }));
    golden('apply-to-running.graph-narrow.ja.svg', graphSvg(g, { id: 'g', lang: 'ja' }));
  });

  it('resource diagram', () => {
    golden(
      'apply-to-running.class.svg',
      classSvg(resourceDiagram(apply.objects, { namespace: 'default' }), { id: 'g' }),
    );
  });

  it('step chart of a rollout', () => {
    const series = replicaSetSeries(replicaSetReplicas(rolling.changes, 'web'));
    golden(
      'rolling-update.replicasets.svg',
      stepChart(series, {
        id: 'g',
        title: 'spec.replicas',
        description: 'A rollout.',
        end: rolling.until,
        yLabel: 'Pods',
      }),
    );
  });

  it('node band', () => {
    golden(
      'node-failure.node-1.svg',
      nodeBand(nodeTimeline(failure.changes, 'node-1'), {
        id: 'g',
        node: 'node-1',
        title: 'node-1',
        description: 'Ready and taints.',
        end: failure.until,
        markers: [{ t: 60, label: 'fault: node-down' }],
      }),
    );
  });
});
