import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { showsAnswers } from './search-ignore.ts';

describe('showsAnswers', () => {
  it('finds an answer field in a question file, at any depth and in a list item', () => {
    expect(showsAnswers('- id: q\n  kind: task\n  fixtures:\n    correct: [[x]]\n')).toBe(true);
    expect(showsAnswers('questions:\n  - modelAnswer: { en: a, ja: b }\n')).toBe(true);
    expect(showsAnswers('- explanation: { en: "{{answer}}" }')).toBe(true);
  });

  it('leaves other code alone: a scenario, a component call, prose that names a field', () => {
    expect(showsAnswers('name: demo\nseed: 1\nsteps:\n  - at: 1s\n    kubectl: get pods\n')).toBe(
      false,
    );
    expect(showsAnswers('<Question id="demo-who-binds" />')).toBe(false);
    expect(showsAnswers('# the fixtures: list holds wrong answers')).toBe(false);
  });

  it('marks the question file the authoring guide shows', () => {
    const root = resolve(import.meta.dirname, '..');
    expect(
      showsAnswers(readFileSync(resolve(root, 'content/questions/authoring.yaml'), 'utf8')),
    ).toBe(true);
  });
});
