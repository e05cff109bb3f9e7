// Structure tests for the static figure renderers: they draw what the projection models say, in
// accessible SVG, with every string escaped, and the same input always gives the same output.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  componentGraph,
  nodeTimeline,
  replicaSetReplicas,
  resourceDiagram,
  sequenceDiagram,
  type ComponentGraph,
  type ResourceDiagram,
  type SequenceDiagram,
} from '../../../sim/index.ts';
import { classSvg } from './class-svg.ts';
import { graphSvg } from './graph-svg.ts';
import { edgeLabel } from './strings.ts';
import { figureId, runFor, SCENARIO_DIR } from './run.ts';
import { AuthorError } from '../author-error.ts';
import { sequenceSvg } from './sequence-svg.ts';
import { COLUMN_WIDTHS, esc, MIN_FONT, seconds, svgMetrics, textWidth, wrapLabel } from './svg.ts';
import { legibilityProblems, needsFullSize, shownFont } from './legibility.ts';
import { figuresIn } from './legibility-check.ts';
import { nodeBand, niceStep, replicaSetSeries, stepChart, ticks } from './timeline-svg.ts';

const apply = runFor({ scenario: 'apply-to-running', seed: 1, page: 'test' });
const failure = runFor({ scenario: 'node-failure', seed: 7, page: 'test' });
const rolling = runFor({ scenario: 'rolling-update', seed: 3, page: 'test' });

const XSS = '<script>alert("x")</script>';

/** count counts the occurrences of a pattern. */
function count(s: string, re: RegExp): number {
  return [...s.matchAll(re)].length;
}

/** expectAccessibleSvg checks the frame every figure shares. */
function expectAccessibleSvg(svg: string, id: string) {
  expect(svg.startsWith('<svg')).toBe(true);
  expect(svg).toContain('role="img"');
  expect(svg).toContain(`aria-labelledby="${id}-title ${id}-desc"`);
  expect(svg).toMatch(new RegExp(`<title id="${id}-title">[^<]+</title>`));
  expect(svg).toMatch(new RegExp(`<desc id="${id}-desc"[^>]*>[^<]+</desc>`));
  expect(svg).toMatch(/viewBox="-?[\d.]+ -?[\d.]+ \d+ \d+"/);
  // Drawn at its own size: width and height attributes equal the viewBox's (never shrunk).
  const vb = /viewBox="-?[\d.]+ -?[\d.]+ (\d+) (\d+)"/.exec(svg)!;
  expect(svg).toContain(`width="${vb[1]}" height="${vb[2]}"`);
  expect(svg).not.toContain('<script');
  expect(svg).not.toMatch(/NaN|undefined|Infinity/);
}

describe('esc', () => {
  it('escapes markup and quotes', () => {
    expect(esc(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
  it('measures wide characters wider', () => {
    expect(textWidth('ノード', 12)).toBeGreaterThan(textWidth('abc', 12));
  });
});

describe('seconds', () => {
  it('prints virtual seconds to the millisecond, never rounding a short time to 0', () => {
    expect(seconds(0.004)).toBe('0.004');
    expect(seconds(0.0004)).toBe('0');
    expect(seconds(0.0006)).toBe('0.001');
    expect(seconds(50)).toBe('50');
    expect(seconds(50.04)).toBe('50.04');
    expect(seconds(57.9)).toBe('57.9');
    expect(seconds(2.8345)).toBe('2.835');
    expect(seconds(415.102)).toBe('415.102');
    expect(seconds(-0)).toBe('0');
  });
  it('gives the same time text in both languages (the unit is added around it)', () => {
    const d = sequenceDiagram(apply, {
      follow: { resource: 'pods', namespace: 'default', label: 'app=web', index: 0 },
      to: 0.004,
    });
    for (const lang of ['en', 'ja'] as const) {
      const svg = sequenceSvg(d, { id: 's', lang });
      expect(svg).toContain('>0.004 s</text>');
      expect(svg).toContain('>0.002 s</text>');
      expect(svg).not.toMatch(/>0 s<\/text>[\s\S]*>0 s<\/text>/);
    }
  });
});

describe('wrapLabel', () => {
  it('breaks at spaces, after "/" and "-", and before "@", keeping every character', () => {
    const key = 'txn-create /registry/replicasets/default/web-68c7d7979f';
    const lines = wrapLabel(key, 112, 12);
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(textWidth(l, 12)).toBeLessThanOrEqual(112);
    expect(lines.join(' ').replace(/\/ /g, '/').replace(/- /g, '-')).toBe(key);
    const name = wrapLabel('container-runtime@node-1', 100, 12);
    expect(name[0]).toBe('container-');
    expect(name.join('')).toBe('container-runtime@node-1');
    expect(wrapLabel('kubelet@node-1', 60, 12)).toEqual(['kubelet', '@node-1']);
    expect(wrapLabel('short', 100, 12)).toEqual(['short']);
  });
});

describe('legibility', () => {
  it('never draws text below 12 px: every font-size in figures.css is at least MIN_FONT', () => {
    const css = readFileSync(join(import.meta.dirname, 'figures.css'), 'utf8');
    const svgPart = css.slice(css.indexOf('/* SVG.'));
    const sizes = [...svgPart.matchAll(/font-size:\s*([\d.]+)px/g)].map((m) => Number(m[1]));
    expect(sizes.length).toBeGreaterThan(5);
    for (const px of sizes) expect(px).toBeGreaterThanOrEqual(MIN_FONT);
  });
  it('reads size and smallest font back from an SVG', () => {
    const svg = '<svg viewBox="-10 0 700.5 300"><text font-size="10">a</text></svg>';
    expect(svgMetrics(svg)).toEqual({ width: 700.5, height: 300, minFont: 10 });
    expect(svgMetrics('<svg viewBox="0 0 300 100"></svg>').minFont).toBe(MIN_FONT);
  });
  it('warns about a figure wider than the desktop column unless it is marked fullSize', () => {
    const fits = { width: COLUMN_WIDTHS.desktop, height: 100, minFont: 12 };
    expect(legibilityProblems(fits)).toEqual([]);
    expect(needsFullSize(fits)).toBe(true);
    expect(needsFullSize({ ...fits, width: COLUMN_WIDTHS.phone })).toBe(false);
    const wide = { width: 1264, height: 100, minFont: 12 };
    expect(shownFont(wide, COLUMN_WIDTHS.desktop)).toBe(6);
    const [problem] = legibilityProblems(wide);
    expect(problem).toContain('1264 px wide');
    expect(problem).toContain('6.0 px');
    expect(legibilityProblems({ ...wide, fullSize: true })).toEqual([]);
    // Text drawn too small is a problem whatever the width, fullSize or not.
    expect(legibilityProblems({ ...fits, minFont: 10, fullSize: true })).toHaveLength(1);
  });
  it('reads the facts Figure.astro writes on a built <figure>', () => {
    const html =
      '<figure class="kal-figure" data-figure="graph" id="kal-g" data-fig-width="947" data-fig-min-font="12" data-fig-full-size>' +
      '<svg viewBox="0 0 947 10"><title id="kal-g-title">Who talks</title></svg></figure>' +
      '<figure class="kal-figure" data-figure="sequence" id="kal-s" data-fig-width="500" data-fig-min-font="12">';
    expect(figuresIn(html)).toEqual([
      { id: 'kal-g', title: 'Who talks', width: 947, minFont: 12, fullSize: true },
      { id: 'kal-s', title: 'kal-s', width: 500, minFont: 12, fullSize: false },
    ]);
  });
});

describe('sequenceSvg', () => {
  const d = sequenceDiagram(apply, {
    follow: { resource: 'pods', namespace: 'default', label: 'app=web', index: 0 },
    waitNotes: true,
  });
  const svg = sequenceSvg(d, { id: 'seq' });
  const arrows = d.steps.filter((s) => s.kind !== 'note');

  it('is an accessible SVG', () => expectAccessibleSvg(svg, 'seq'));

  it('draws one numbered arrow per step and one box per note', () => {
    expect(count(svg, /class="kal-fig__step /g)).toBe(arrows.length);
    expect(count(svg, /class="kal-fig__arrow /g) - 2 /* legend */).toBe(arrows.length);
    expect(count(svg, /class="kal-fig__badge"/g)).toBe(arrows.length);
    expect(count(svg, /class="kal-fig__note"/g)).toBe(d.steps.length - arrows.length);
    expect(count(svg, /class="kal-fig__participant"/g)).toBe(d.participants.length);
  });

  it('dashes exactly the watch deliveries', () => {
    const watches = arrows.filter((s) => s.kind === 'watch').length;
    expect(watches).toBeGreaterThan(0);
    expect(count(svg, /kal-fig__arrow--watch"/g) - 1 /* legend */).toBe(watches);
    const dashedSteps = [
      ...svg.matchAll(/kal-fig__step--(\w+)"[^>]*><[^>]*kal-fig__arrow--watch/g),
    ];
    expect(dashedSteps.every((m) => m[1] === 'watch')).toBe(true);
  });

  it('is deterministic', () => {
    expect(sequenceSvg(d, { id: 'seq' })).toBe(svg);
  });

  it('escapes names, labels, title and description', () => {
    const evil: SequenceDiagram = {
      ...d,
      title: XSS,
      description: XSS,
      participants: [{ id: 'a', label: XSS }, ...d.participants],
      steps: [
        {
          n: 1,
          t: 0,
          from: XSS,
          to: d.participants[0]!.label,
          kind: 'request',
          text: XSS,
          dotted: false,
          seqs: [],
        },
      ],
    };
    const out = sequenceSvg(evil, { id: 'x' });
    expect(out).not.toContain('<script');
    expect(out).toContain('&lt;script&gt;');
  });

  it('draws a self-message as a loop', () => {
    const self: SequenceDiagram = {
      ...d,
      steps: [
        {
          n: 1,
          t: 0,
          from: 'kubelet@node-1',
          to: 'kubelet@node-1',
          kind: 'call',
          text: 'sync',
          dotted: false,
          seqs: [],
        },
      ],
      participants: [{ id: 'k', label: 'kubelet@node-1' }],
    };
    expect(sequenceSvg(self, { id: 's' })).toMatch(
      /kal-fig__step--call[^>]*><path d="M[^"]+ L[^"]+ L[^"]+ L/,
    );
  });

  it('grows wider with participants and taller with steps', () => {
    const size = (s: string) =>
      s
        .match(/viewBox="[^ ]+ [^ ]+ (\d+) (\d+)"/)!
        .slice(1)
        .map(Number);
    const small = sequenceDiagram(apply, { participants: ['kubectl', 'kube-apiserver'], to: 1 });
    const big = sequenceDiagram(apply, {
      participants: ['kubectl', 'kube-apiserver', 'etcd'],
      to: 1,
    });
    const [w1, h1] = size(sequenceSvg(small, { id: 'a' }));
    const [w2, h2] = size(sequenceSvg(big, { id: 'b' }));
    expect(w2).toBeGreaterThan(w1!);
    expect(h2).toBeGreaterThan(h1!);
  });

  it('tightens its spacing (never its text) to fit the desktop column when it can', () => {
    const size = (svg: string) => Number(/ width="(\d+)"/.exec(svg)![1]);
    const font = (svg: string) =>
      Math.min(...[...svg.matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1])), 12);
    const five = sequenceDiagram(apply, {
      follow: { resource: 'pods', namespace: 'default', label: 'app=web', index: 0 },
      participants: [
        'kube-scheduler',
        'kube-apiserver',
        'kubelet@node-1',
        'container-runtime@node-1',
        'cni-plugin@node-1',
      ],
      from: 0.006,
    });
    const natural = sequenceSvg(five, { id: 'n', fit: 5000 });
    const fitted = sequenceSvg(five, { id: 'n' });
    expect(size(natural)).toBeGreaterThan(COLUMN_WIDTHS.desktop);
    expect(size(fitted)).toBeLessThanOrEqual(COLUMN_WIDTHS.desktop);
    expect(font(fitted)).toBeGreaterThanOrEqual(12);
    // The same arrows, only wrapped onto more lines.
    expect(count(fitted, /class="kal-fig__step /g)).toBe(count(natural, /class="kal-fig__step /g));
    // One that cannot fit keeps its natural spacing (it opens full size instead).
    const all = sequenceDiagram(apply, {
      participants: [
        'kubelet@*',
        'kube-apiserver',
        'kube-scheduler',
        'etcd',
        'kubectl',
        'deployment-controller',
        'replicaset-controller',
      ],
      to: 4,
    });
    expect(sequenceSvg(all, { id: 'a' })).toBe(sequenceSvg(all, { id: 'a', fit: 100_000 }));
  });
});

describe('graphSvg', () => {
  const g = componentGraph(apply.trace, { mergeNodes: true });
  const svg = graphSvg(g, { id: 'g' });

  it('is an accessible SVG', () => expectAccessibleSvg(svg, 'g'));

  it('draws every component and one arrow per edge, styled by kind', () => {
    expect(count(svg, /class="kal-fig__node"/g)).toBe(g.nodes.length);
    expect(count(svg, /class="kal-fig__link /g)).toBe(g.edges.length);
    for (const kind of ['requests', 'watches', 'stores', 'calls'] as const) {
      const n = g.edges.filter((e) => e.kind === kind).length;
      expect(count(svg, new RegExp(`class="kal-fig__link kal-fig__link--${kind}"`, 'g'))).toBe(n);
    }
    expect(svg).toContain('Worker node');
    expect(svg).toContain('Control plane');
  });

  it('puts kube-apiserver between the control plane and the worker node', () => {
    const xOf = (label: string) => {
      const node = g.nodes.find((n) => n.label === label)!;
      const m = new RegExp(`data-id="${node.id}"><rect x="([\\d.]+)"`).exec(svg);
      return Number(m![1]);
    };
    expect(xOf('kube-scheduler')).toBeLessThan(xOf('kube-apiserver'));
    expect(xOf('kubelet')).toBeGreaterThan(xOf('kube-apiserver'));
  });

  it('fits the desktop column with the worker node below the control plane, in both languages', () => {
    for (const lang of ['en', 'ja'] as const) {
      const narrow = graphSvg(g, { id: 'n', lang });
      const box = (label: string) => {
        const node = g.nodes.find((n) => n.label === label)!;
        const m = new RegExp(
          `data-id="${node.id}"><rect x="([\\d.]+)" y="([\\d.]+)" width="([\\d.]+)" height="([\\d.]+)"`,
        ).exec(narrow)!;
        return { x: Number(m[1]), y: Number(m[2]), w: Number(m[3]), h: Number(m[4]) };
      };
      expect(Number(/ width="(\d+)"/.exec(narrow)![1])).toBeLessThanOrEqual(COLUMN_WIDTHS.desktop);
      const api = box('kube-apiserver');
      // etcd in the left column, level with kube-apiserver; the agents below it, under it.
      expect(box('etcd').x + box('etcd').w).toBeLessThan(api.x);
      for (const agent of ['kubelet', 'kube-proxy']) {
        const b = box(agent);
        expect(b.y).toBeGreaterThan(api.y + api.h);
        expect(b.x).toBeGreaterThanOrEqual(api.x);
        expect(b.x + b.w).toBeLessThanOrEqual(api.x + api.w);
      }
      expect(box('container-runtime').y).toBeGreaterThan(box('kubelet').y);
      // Every edge is still drawn once, and every label is in the figure.
      expect(count(narrow, /class="kal-fig__link /g)).toBe(g.edges.length);
      for (const e of g.edges) expect(narrow).toContain(esc(edgeLabel(e, g.counts, lang)));
    }
  });

  it('lays out one group per machine when nodes are not merged', () => {
    const per = graphSvg(componentGraph(apply.trace), { id: 'p' });
    expect(per).toContain('Worker node node-1');
    expect(per).toContain('Worker node node-3');
  });

  it('is deterministic and escapes labels', () => {
    expect(graphSvg(g, { id: 'g' })).toBe(svg);
    const evil: ComponentGraph = {
      ...g,
      title: XSS,
      nodes: [...g.nodes, { id: XSS, label: XSS, group: 'control-plane', instances: [] }],
    };
    const out = graphSvg(evil, { id: 'x' });
    expect(out).not.toContain('<script');
  });
});

describe('classSvg', () => {
  const d = resourceDiagram(apply.objects, { namespace: 'default' });
  const svg = classSvg(d, { id: 'c' });

  it('is an accessible SVG', () => expectAccessibleSvg(svg, 'c'));

  it('draws a box per class and an arrow with two multiplicities per relation', () => {
    expect(count(svg, /class="kal-fig__class"/g)).toBe(d.classes.length);
    expect(count(svg, /class="kal-fig__relation"/g)).toBe(d.relations.length);
    expect(count(svg, /class="kal-fig__mult"/g)).toBe(2 * d.relations.length);
  });

  it('layers Deployment, ReplicaSet, Pod, Node from top to bottom, two kinds a layer, in the column', () => {
    const at = (kind: string) => {
      const m = new RegExp(
        `data-kind="${kind}"><rect x="([\\d.]+)" y="([\\d.]+)" width="([\\d.]+)"`,
      ).exec(svg)!;
      return { x: Number(m[1]), y: Number(m[2]), w: Number(m[3]) };
    };
    expect(at('Deployment').y).toBeLessThan(at('ReplicaSet').y);
    expect(at('ReplicaSet').y).toBeLessThan(at('Pod').y);
    expect(at('Pod').y).toBeLessThan(at('Node').y);
    expect(at('Service').y).toBeLessThan(at('EndpointSlice').y);
    // Service sits beside Deployment, EndpointSlice beside ReplicaSet, Lease beside Pod.
    expect(at('Service').y).toBe(at('Deployment').y);
    expect(at('Service').x).toBeGreaterThan(at('Deployment').x + at('Deployment').w);
    expect(at('Lease').y).toBe(at('Pod').y);
    // A reference between kinds one above the other runs straight down.
    const rs = /data-from="ReplicaSet" data-to="Pod"><path d="([^"]+)"/.exec(svg)![1]!;
    expect(rs.split(' ')).toHaveLength(2);
    // It fits the desktop column at its own size.
    expect(Number(/ width="(\d+)"/.exec(svg)![1])).toBeLessThanOrEqual(COLUMN_WIDTHS.desktop);
  });

  it('escapes field values', () => {
    const evil: ResourceDiagram = {
      ...d,
      classes: [
        {
          name: 'Pod',
          count: 1,
          objects: [XSS],
          fields: [{ name: 'name', values: [XSS], more: 0 }],
        },
      ],
      relations: [],
    };
    expect(classSvg(evil, { id: 'x' })).not.toContain('<script');
  });
});

describe('timelines', () => {
  it('picks round tick steps', () => {
    expect(niceStep(900, 8)).toBe(200);
    expect(niceStep(180, 8)).toBe(50);
    expect(ticks(180, 50)).toEqual([0, 50, 100, 150]);
  });

  it('charts one line per ReplicaSet, the total and two dashed bounds', () => {
    const tl = replicaSetReplicas(rolling.changes, 'web');
    const series = replicaSetSeries(tl);
    const svg = stepChart(series, {
      id: 't',
      title: 'RS',
      description: 'd',
      end: rolling.until,
      yLabel: 'Pods',
    });
    expectAccessibleSvg(svg, 't');
    expect(count(svg, /kal-fig__series--\d"/g)).toBe(tl.replicaSets.length);
    expect(count(svg, /kal-fig__series--dashed"/g)).toBe(2);
    expect(count(svg, /kal-fig__series--dotted"/g)).toBe(1);
    expect(svg).toContain('replicas + maxSurge = 13');
    expect(svg).toContain('replicas − maxUnavailable = 8');
  });

  it('draws the node band with labels as well as fills', () => {
    const pts = nodeTimeline(failure.changes, 'node-1');
    const svg = nodeBand(pts, {
      id: 'n',
      node: 'node-1',
      title: XSS,
      description: 'd',
      end: failure.until,
      markers: [{ t: 60, label: 'fault: node-down' }],
    });
    expectAccessibleSvg(svg, 'n');
    expect(svg).toContain('>True</text>');
    expect(svg).toContain('>Unknown</text>');
    // Three Unknown points in a row make one segment.
    expect(count(svg, /kal-fig__band--unknown"/g)).toBe(1);
    expect(svg).toContain('kal-fig__band--unknown');
    expect(svg).toContain('fault: node-down');
    expect(svg).not.toContain('<script');
  });
});

describe('runFor', () => {
  it('caches a run per scenario, seed and end', () => {
    expect(runFor({ scenario: 'apply-to-running', seed: 1, page: 'other' })).toBe(apply);
    expect(runFor({ scenario: 'apply-to-running', seed: 2, page: 'other', until: '5s' })).not.toBe(
      apply,
    );
  });

  it('reads scenarios from content/scenarios under the project root', () => {
    expect(SCENARIO_DIR).toBe(join(process.cwd(), 'content', 'scenarios'));
    expect(readFileSync(join(SCENARIO_DIR, 'node-failure.yaml'), 'utf8')).toContain(
      'name: node-failure',
    );
  });

  it('fails with an author error against the scenario, at its line and column', () => {
    const bad = 'name: broken\nseed: 1\nsteps:\n  - at: soon\n    kubectl: get pods\nuntil: 1m\n';
    let err: unknown;
    try {
      runFor({ scenarioYaml: bad, page: 'content/docs/lessons/x.mdx (/lessons/x/)' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AuthorError);
    expect((err as AuthorError).issues).toEqual([
      {
        file: 'content/docs/lessons/x.mdx (inline scenario)',
        line: 4,
        column: 9,
        text: 'step 1 (at soon): at: found "soon", expected a duration such as 90s, 5m or 1h30m',
      },
    ]);
  });

  it('names the page for a wrong scenario name, with a did-you-mean and no stack', () => {
    let err: unknown;
    try {
      runFor({ scenario: 'node-falure', page: '/p/' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AuthorError);
    const msg = (err as Error).message;
    expect(msg).toMatch(
      /^Author error:\n {2}\/p\/: scenario: found "node-falure", expected the name of a file in content\/scenarios\/ \(apply-to-running, .*\); did you mean node-failure\?$/,
    );
    expect(msg).not.toContain('ENOENT');
    expect((err as Error).stack).not.toMatch(/\n\s+at /);
    expect(() => runFor({ scenario: '../etc/passwd', page: '/p/' })).toThrow(
      /found "..\/etc\/passwd"/,
    );
    expect(() => runFor({ page: '/p/' })).toThrow(/scenario=/);
    expect(() => runFor({ scenario: 'node-failure', until: 'later', page: '/p/' })).toThrow(
      /until: found "later", expected a duration/,
    );
  });

  it('gives stable ids', () => {
    expect(figureId('sequence', { a: 1 })).toBe(figureId('sequence', { a: 1 }));
    expect(figureId('sequence', { a: 1 })).not.toBe(figureId('sequence', { a: 2 }));
    expect(figureId('graph', { a: 1 })).toMatch(/^kal-graph-[0-9a-z]+$/);
  });
});

describe('component graph edge labels', () => {
  it("count messages in the figure language, from the projection's kind, count and what", () => {
    const e = (kind: 'requests' | 'stores' | 'watches' | 'calls', count: number, what = '') => ({
      kind,
      count,
      what,
    });
    expect(edgeLabel(e('requests', 6), true, 'en')).toBe('6 requests');
    expect(edgeLabel(e('requests', 1), true, 'en')).toBe('1 request');
    expect(edgeLabel(e('watches', 22), true, 'en')).toBe('22 watch events');
    expect(edgeLabel(e('requests', 6), true, 'ja')).toBe('6 件のリクエスト');
    expect(edgeLabel(e('watches', 22), true, 'ja')).toBe('22 件の watch イベント');
    expect(edgeLabel(e('stores', 74), true, 'ja')).toBe('etcd への書き込み 74 件');
    expect(edgeLabel(e('calls', 15, 'CRI'), true, 'ja')).toBe('CRI ×15');
    expect(edgeLabel(e('watches', 22), false, 'ja')).toBe('watch イベント');
    expect(edgeLabel(e('calls', 15, 'CNI'), false, 'en')).toBe('CNI');
  });
});
