// Golden files for the lesson 8 figures (ElectionTimeline, CommitSequence), as golden.test.ts
// keeps them for the other figure kinds: one element per line, UPDATE_GOLDEN=1 rewrites them.
import { describe, expect, it } from 'vitest';
import { commitSequence, electionTimeline } from '../../../sim/index.ts';
import { golden as goldenFile } from '../../../sim/testing.ts';
import { electionSvg, segmentLabels } from './election-svg.ts';
import { runFor } from './run.ts';
import { sequenceSvg } from './sequence-svg.ts';
import { COLUMN_WIDTHS, MIN_FONT, svgMetrics } from './svg.ts';

const ha = runFor({ scenario: 'ha-quorum', seed: 7, page: 'test' });

function golden(file: string, svg: string): void {
  goldenFile(new URL(`./testdata/${file}`, import.meta.url), `${svg.replace(/></g, '>\n<')}\n`);
}

describe('election timeline SVG', () => {
  it('golden: the failover window, in English and Japanese', () => {
    for (const lang of ['en', 'ja'] as const) {
      const tl = electionTimeline(ha, { from: 15, to: 45, end: ha.until, lang });
      golden(
        `ha-quorum.election${lang === 'ja' ? '.ja' : ''}.svg`,
        electionSvg(tl, { id: 'g', lang }),
      );
    }
  });

  it('golden: the whole run', () => {
    golden(
      'ha-quorum.election-all.svg',
      electionSvg(electionTimeline(ha, { end: ha.until }), { id: 'g' }),
    );
  });

  it('fits the desktop column, draws no text below 12 px, one band per segment', () => {
    const tl = electionTimeline(ha, { end: ha.until });
    const svg = electionSvg(tl, { id: 'g' });
    const m = svgMetrics(svg);
    expect(m.width).toBeLessThanOrEqual(COLUMN_WIDTHS.desktop);
    expect(m.minFont).toBe(MIN_FONT);
    const n = tl.lanes.reduce((a, l) => a + l.segments.length, 0);
    expect(svg.match(/<g class="kal-fig__segment"/g)!.length).toBe(n);
    // Each handover after a fault is labelled with its delay.
    expect(svg).toContain('>+1.273 s<');
    expect(svg).toContain('>+15.526 s<');
  });

  it('labels a segment by role and term, or by holder', () => {
    expect(segmentLabels({ from: 0, to: 1, state: 'leader', term: 3 }, 'en')).toEqual([
      'leader, term 3',
      'leader',
    ]);
    expect(
      segmentLabels({ from: 0, to: 1, state: 'holds', holder: 'control-plane-2' }, 'ja')[0],
    ).toBe('保持: control-plane-2');
  });
});

describe('commit sequence SVG', () => {
  it('golden: a write with one member stopped, in English; with all three, in Japanese', () => {
    const opts = { numbers: true, times: false, legend: 'messages' } as const;
    golden(
      'ha-quorum.commit.svg',
      sequenceSvg(commitSequence(ha, { from: 170 }), { id: 'g', ...opts }),
    );
    golden(
      'ha-quorum.commit.ja.svg',
      sequenceSvg(commitSequence(ha, { from: 0, to: 1, lang: 'ja' }), {
        id: 'g',
        lang: 'ja',
        ...opts,
      }),
    );
  });
});
