// catalog gives Question.astro the questions at build time, loaded once per build (every page
// with a question shares the load). Node only: never imported by the island or the worker.

import { loadQuestions, type LoadedQuestion } from '../../quiz/load.ts';
import { keyForPage } from '../../quiz/page.ts';
import type { Keyed } from '../../quiz/grade.ts';

let cache: Map<string, LoadedQuestion> | undefined;

/** questionById returns a loaded question, or undefined if no question file defines the id. */
export function questionById(id: string): LoadedQuestion | undefined {
  // The dev server reloads question files on every lookup so edits show up; a build loads once.
  if (!cache || import.meta.env.DEV)
    cache = new Map(loadQuestions().map((lq) => [lq.question.id, lq]));
  return cache.get(id);
}

/** knownIds lists every question id, for error messages. */
export function knownIds(): string[] {
  return [...(cache?.keys() ?? [])].sort();
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
