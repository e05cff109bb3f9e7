import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { docsSchema } from '@astrojs/starlight/schema';
import { LessonFrontmatterSchema } from './schemas/lesson.ts';

// The docs collection is read from top-level content/docs, not src/content/docs, so course
// content sits apart from site code. Files whose names begin with `_` are drafts and are skipped.
export const collections = {
  docs: defineCollection({
    loader: glob({ base: './content/docs', pattern: '**/[^_]*.{md,mdx}' }),
    schema: docsSchema({ extend: LessonFrontmatterSchema }),
  }),
};
