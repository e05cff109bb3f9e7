import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { i18nLoader } from '@astrojs/starlight/loaders';
import { docsSchema, i18nSchema } from '@astrojs/starlight/schema';
import { LessonFrontmatterSchema } from './schemas/lesson.ts';

// The docs collection is read from top-level content/docs, not src/content/docs, so course
// content sits apart from site code. Files whose names begin with `_` are drafts and are skipped.
export const collections = {
  docs: defineCollection({
    loader: glob({ base: './content/docs', pattern: '**/[^_]*.{md,mdx}' }),
    schema: docsSchema({ extend: LessonFrontmatterSchema }),
  }),
  // Starlight's own UI strings, where its Japanese set lacks one (the heading anchors' label).
  i18n: defineCollection({ loader: i18nLoader(), schema: i18nSchema() }),
};
