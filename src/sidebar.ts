// Builds the sidebar's lesson groups from the files in content/docs/lessons/.
//
// Starlight's `autogenerate` sidebar groups assume the docs live in src/content/docs; with the
// course in top-level content/docs they come out empty. So astro.config.mjs lists lessons itself,
// by slug, using this module: one group per course module that has lessons, lessons in file-name
// order (`01-…`, `02-…`). Starlight takes each link's label from the page title, per language.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MODULES } from './course.ts';

/** SidebarGroup is the subset of Starlight's sidebar group config this module produces. */
export type SidebarGroup = {
  label: string;
  translations: Record<string, string>;
  items: { slug: string }[];
};

/** isPage reports whether a file name is a published page (Markdown or MDX, not a `_` draft). */
function isPage(name: string): boolean {
  return /\.mdx?$/.test(name) && !name.startsWith('_');
}

/**
 * lessonSidebar returns a sidebar group for each module with at least one lesson under
 * `<docsRoot>/lessons/<nn>-<slug>/`, where nn is the module number with two digits. A module's
 * index page, if any, comes first. Japanese pages share the English slugs, so the English tree
 * decides what is listed.
 */
export function lessonSidebar(docsRoot: string): SidebarGroup[] {
  const lessonsDir = join(docsRoot, 'lessons');
  if (!existsSync(lessonsDir)) return [];
  const dirs = readdirSync(lessonsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const groups: SidebarGroup[] = [];
  for (const module of MODULES) {
    const prefix = `${String(module.number).padStart(2, '0')}-`;
    const dir = dirs.find((name) => name.startsWith(prefix));
    if (dir === undefined) continue;
    const names = readdirSync(join(lessonsDir, dir))
      .filter(isPage)
      .map((file) => file.replace(/\.mdx?$/, ''))
      .sort();
    const lessons = names
      .filter((name) => name !== 'index')
      .map((name) => `lessons/${dir}/${name}`);
    const slugs = names.includes('index') ? [`lessons/${dir}`, ...lessons] : lessons;
    if (slugs.length === 0) continue;
    groups.push({
      label: `${module.number}. ${module.title.en}`,
      translations: { ja: `${module.number}. ${module.title.ja}` },
      items: slugs.map((slug) => ({ slug })),
    });
  }
  return groups;
}
