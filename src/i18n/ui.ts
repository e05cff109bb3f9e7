// UI strings for the site's own components (simulator islands, quizzes, figures), in every
// language the site is published in. Starlight translates its own chrome; lesson text lives in
// content/docs. Placeholders are written {name} and filled by t().

/** languages maps each site language to the name shown for it. Keep in step with astro.config.mjs. */
export const languages = { en: 'English', ja: '日本語' } as const;

/** Lang is a site language code (also the Starlight locale's `lang`). */
export type Lang = keyof typeof languages;

/** defaultLang is the root locale's language. */
export const defaultLang: Lang = 'en';

const en = {
  'sim.play': 'Play',
  'sim.pause': 'Pause',
  'sim.step': 'Step',
  'sim.reset': 'Reset',
  'sim.seed': 'Seed {seed}',
  'sim.time': 'Virtual time {time}',
  'quiz.check': 'Check answer',
  'quiz.correct': 'Correct: the simulator agrees.',
  'quiz.incorrect': 'Not quite. Run the simulator to see what really happens.',
  'figure.caption': 'Generated from a simulator run of {scenario} (seed {seed}).',
} as const;

/** UiKey names one UI string. */
export type UiKey = keyof typeof en;

/** ui holds every UI string in every language; the type makes a missing key a compile error. */
export const ui: Record<Lang, Record<UiKey, string>> = {
  en,
  ja: {
    'sim.play': '再生',
    'sim.pause': '一時停止',
    'sim.step': '1 ステップ進める',
    'sim.reset': 'リセット',
    'sim.seed': 'シード {seed}',
    'sim.time': '仮想時刻 {time}',
    'quiz.check': '答え合わせ',
    'quiz.correct': '正解です。シミュレーターの結果と一致しました。',
    'quiz.incorrect': '惜しい! シミュレーターを動かして、実際に何が起きるか確かめてみましょう。',
    'figure.caption':
      'シナリオ {scenario}(シード {seed})をシミュレーターで実行して生成した図です。',
  },
};

/** isLang reports whether a string is one of the site's language codes. */
export function isLang(value: string | undefined): value is Lang {
  return value !== undefined && Object.hasOwn(languages, value);
}

/** langOf returns the site language for a BCP-47 tag such as Astro's `currentLocale` ("ja", "en-US"). */
export function langOf(tag: string | undefined): Lang {
  const primary = tag?.split('-')[0]?.toLowerCase();
  return isLang(primary) ? primary : defaultLang;
}

/** placeholdersOf lists the {name} placeholders in a string, sorted, for comparing translations. */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '').sort();
}

/**
 * t returns the UI string for key in lang with its {name} placeholders filled from params.
 * A placeholder without a value is an error, so a missing argument cannot ship as "{seed}".
 */
export function t(lang: Lang, key: UiKey, params: Record<string, string | number> = {}): string {
  return ui[lang][key].replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined)
      throw new Error(`ui string ${key} (${lang}) needs a value for {${name}}`);
    return String(value);
  });
}

/**
 * fill replaces {name} placeholders in a UI string from vars, leaving a placeholder without a
 * value as it is. The islands' string tables (quiz, cluster lab, progress) all format with it.
 */
export function fill(text: string, vars: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) =>
    Object.hasOwn(vars, k) ? String(vars[k]) : m,
  );
}
