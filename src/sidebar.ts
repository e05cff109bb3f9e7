// The site's sidebar, and the lesson path that Previous/Next follows.
//
// Starlight derives Previous/Next from the sidebar's order, so the sidebar puts the lesson path
// first: the course outline, then one group per course module with its lessons. The pages a
// learner consults rather than reads in order (progress, review, what the simulator models, the
// demos) come after it in their own groups, and src/route-data.ts keeps Previous/Next from
// crossing between the two.
//
// Starlight's `autogenerate` sidebar groups assume the docs live in src/content/docs; with the
// course in top-level content/docs they come out empty. So this module lists lessons itself, by
// slug, from the files: one group per course module that has lessons, lessons in file-name order
// (`01-…`, `02-…`). Starlight takes each link's label from the page title, per language.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MODULES } from './course.ts';

/** SidebarLink is a link to a page by its slug; Starlight labels it with the page's title. */
export type SidebarLink = { slug: string };

/** SidebarGroup is the subset of Starlight's sidebar group config this module produces. */
export type SidebarGroup = {
  label: string;
  translations: Record<string, string>;
  items: SidebarLink[];
};

/** SidebarItem is one top-level entry of the sidebar. */
export type SidebarItem = SidebarLink | SidebarGroup;

/** Lesson is one published lesson page (or a module's index page), in course order. */
export type Lesson = {
  /** module is the course module's number (src/course.ts). */
  module: number;
  /** slug is the page's slug without a language prefix, e.g. `lessons/01-architecture/01-x`. */
  slug: string;
};

/** OUTLINE is the slug of the course outline, where the lesson path starts. */
export const OUTLINE = 'course/outline';

/**
 * REFERENCE_GROUPS are the sidebar groups of pages that sit apart from the lesson path. A page
 * added here is reached from the sidebar, never by Previous/Next from a lesson.
 */
export const REFERENCE_GROUPS: readonly SidebarGroup[] = [
  {
    label: 'Progress and review',
    translations: { ja: '進み具合と復習' },
    items: [{ slug: 'course/progress' }, { slug: 'review' }],
  },
  {
    label: 'Reference',
    translations: { ja: 'リファレンス' },
    items: [{ slug: 'course/fidelity' }],
  },
  {
    label: 'Demos',
    translations: { ja: 'デモ' },
    items: [
      { slug: 'demo/figures' },
      { slug: 'demo/cluster-lab' },
      { slug: 'demo/quiz' },
      { slug: 'demo/interview' },
    ],
  },
];

/** isPage reports whether a file name is a published page (Markdown or MDX, not a `_` draft). */
function isPage(name: string): boolean {
  return /\.mdx?$/.test(name) && !name.startsWith('_');
}

/**
 * courseLessons lists the published lessons under `<docsRoot>/lessons/<nn>-<slug>/`, where nn is
 * the module number with two digits, in course order: by module, a module's index page first,
 * then its lessons in file-name order. Japanese pages share the English slugs, so the English
 * tree decides what is listed.
 */
export function courseLessons(docsRoot: string): Lesson[] {
  const lessonsDir = join(docsRoot, 'lessons');
  if (!existsSync(lessonsDir)) return [];
  const dirs = readdirSync(lessonsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const lessons: Lesson[] = [];
  for (const module of MODULES) {
    const prefix = `${String(module.number).padStart(2, '0')}-`;
    const dir = dirs.find((name) => name.startsWith(prefix));
    if (dir === undefined) continue;
    const names = readdirSync(join(lessonsDir, dir))
      .filter(isPage)
      .map((file) => file.replace(/\.mdx?$/, ''))
      .sort();
    if (names.includes('index')) lessons.push({ module: module.number, slug: `lessons/${dir}` });
    for (const name of names) {
      if (name !== 'index') lessons.push({ module: module.number, slug: `lessons/${dir}/${name}` });
    }
  }
  return lessons;
}

/** lessonSidebar returns a sidebar group for each module with at least one lesson. */
export function lessonSidebar(docsRoot: string): SidebarGroup[] {
  const lessons = courseLessons(docsRoot);
  return MODULES.flatMap((module) => {
    const items = lessons.filter((l) => l.module === module.number).map(({ slug }) => ({ slug }));
    if (items.length === 0) return [];
    return [
      {
        label: `${module.number}. ${module.title.en}`,
        translations: { ja: `${module.number}. ${module.title.ja}` },
        items,
      },
    ];
  });
}

/**
 * lessonPath is the sequence Previous/Next walks: the outline, then every lesson in course order.
 */
export function lessonPath(docsRoot: string): string[] {
  return [OUTLINE, ...courseLessons(docsRoot).map((l) => l.slug)];
}

/**
 * courseSidebar is the whole sidebar: the outline, the lessons by module, then the reference
 * groups.
 */
export function courseSidebar(docsRoot: string): SidebarItem[] {
  return [{ slug: OUTLINE }, ...lessonSidebar(docsRoot), ...REFERENCE_GROUPS];
}
