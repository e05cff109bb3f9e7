import { describe, expect, it } from 'vitest';
import { languages, langOf, placeholdersOf, t, ui, type Lang } from './ui.ts';

const langs = Object.keys(languages) as Lang[];

describe('ui string table', () => {
  it('has a table for every language and no other', () => {
    expect(Object.keys(ui).sort()).toEqual([...langs].sort());
  });

  it.each(langs)('%s has exactly the English keys, each non-empty', (lang) => {
    expect(Object.keys(ui[lang]).sort()).toEqual(Object.keys(ui.en).sort());
    for (const [key, text] of Object.entries(ui[lang])) {
      expect(text.trim(), `${lang} ${key}`).not.toBe('');
    }
  });

  it.each(langs)('%s uses the same placeholders as English', (lang) => {
    for (const key of Object.keys(ui.en) as (keyof typeof ui.en)[]) {
      expect(placeholdersOf(ui[lang][key]), `${lang} ${key}`).toEqual(placeholdersOf(ui.en[key]));
    }
  });
});

describe('t', () => {
  it('fills placeholders', () => {
    expect(t('en', 'sim.seed', { seed: 42 })).toBe('Seed 42');
    expect(t('ja', 'sim.seed', { seed: 42 })).toBe('シード 42');
  });

  it('refuses to leave a placeholder unfilled', () => {
    expect(() => t('en', 'figure.caption', { seed: 1 })).toThrow(/needs a value for \{scenario\}/);
  });
});

describe('langOf', () => {
  it('maps locale tags to site languages, defaulting to English', () => {
    expect(langOf('ja')).toBe('ja');
    expect(langOf('ja-JP')).toBe('ja');
    expect(langOf('en-US')).toBe('en');
    expect(langOf('fr')).toBe('en');
    expect(langOf(undefined)).toBe('en');
  });
});
