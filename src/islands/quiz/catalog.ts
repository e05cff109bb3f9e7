// catalog gives Question.astro the questions at build time. Node only: never imported by the
// island or the worker. The question and scenario files are read on every lookup and parsed again
// only when one of them changed, so an edit shows on the next render of `astro dev` without a
// restart, and a build parses them once.

import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { closest } from '../../../sim/index.ts';
import { AuthorError, locateText } from '../../lib/author-error.ts';
import { loadQuestions, untranslatedTexts, type LoadedQuestion } from '../../quiz/load.ts';
import { keyForPage } from '../../quiz/page.ts';
import type { Keyed } from '../../quiz/grade.ts';

let cache: { key: string; byId: Map<string, LoadedQuestion> } | undefined;

/** contentKey is the text of every question and scenario file: when it changes, reload. */
function contentKey(root = process.cwd()): string {
  const parts: string[] = [];
  for (const dir of ['questions', 'scenarios']) {
    const d = join(root, 'content', dir);
    if (!existsSync(d)) continue;
    for (const f of readdirSync(d).sort())
      if (f.endsWith('.yaml')) parts.push(f, readFileSync(join(d, f), 'utf8'));
  }
  return parts.join('\0');
}

function catalog(): Map<string, LoadedQuestion> {
  const key = contentKey();
  if (!cache || cache.key !== key)
    cache = { key, byId: new Map(loadQuestions().map((lq) => [lq.question.id, lq])) };
  return cache.byId;
}

/** questionById returns a loaded question, or undefined if no question file defines the id. */
export function questionById(id: string): LoadedQuestion | undefined {
  return catalog().get(id);
}

/** knownIds lists every question id, for error messages. */
export function knownIds(): string[] {
  return [...catalog().keys()].sort();
}

/**
 * requireQuestion returns the question with this id, or throws an AuthorError against the page
 * (`file`, where `<Question id="…">` is written) naming the ids there are and the closest one.
 */
export function requireQuestion(id: string, file: string): LoadedQuestion {
  const lq = questionById(id);
  if (lq) return lq;
  let pos: { line: number; column: number } | undefined;
  try {
    pos = locateText(readFileSync(join(process.cwd(), file), 'utf8'), `"${id}"`);
  } catch {
    pos = undefined;
  }
  const c = closest(id, knownIds());
  throw new AuthorError([
    {
      file,
      ...pos,
      text: `<Question id>: found "${id}", expected the id of a question in content/questions/ (${knownIds().join(', ') || 'none'})${c ? `; did you mean ${c}?` : ''}`,
    },
  ]);
}

/**
 * untranslatedNotice is the notice a Japanese page shows above a question whose texts are not
 * translated yet (they show in English), or "" when there is nothing to say.
 */
export function untranslatedNotice(lq: LoadedQuestion, lang: string): string {
  if (lang !== 'ja' || untranslatedTexts(lq.question).length === 0) return '';
  return 'この問題はまだ日本語に翻訳されていないため、英語のまま表示しています。';
}

const pageKeys = new Map<string, { yaml: string; keyed: Keyed }>();

/** pageKeyOf is the key of the variant a page renders (0), worked out once per build (ordering items are shuffled away from it). */
export function pageKeyOf(lq: LoadedQuestion): Keyed {
  const yaml = JSON.stringify(lq.question) + (lq.scenarioYaml ?? '');
  const hit = pageKeys.get(lq.question.id);
  if (hit && hit.yaml === yaml) return hit.keyed;
  const keyed = keyForPage(lq);
  pageKeys.set(lq.question.id, { yaml, keyed });
  return keyed;
}
