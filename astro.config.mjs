// @ts-check
import mdx from '@astrojs/mdx';
import starlight from '@astrojs/starlight';
import { defineConfig } from 'astro/config';
import { fileURLToPath } from 'node:url';
import { lessonSidebar } from './src/sidebar.ts';
import { quizAudit } from './src/integrations/quiz-audit.ts';
import { authoring } from './src/integrations/authoring.ts';

// The site: Starlight docs with English at / and Japanese at /ja/.
// Lessons live in top-level content/docs (see src/content.config.ts), outside Starlight's
// default src/content/docs, so `markdown.processedDirs` tells Starlight to run its Markdown
// plugins (asides, heading links) on them too.
export default defineConfig({
  site: 'https://kubernetes-architecture-lab.example',
  integrations: [
    starlight({
      title: 'Kubernetes Architecture Lab',
      description:
        'How Kubernetes works inside, taught with a deterministic cluster simulator that runs in your browser.',
      defaultLocale: 'root',
      locales: {
        root: { label: 'English', lang: 'en' },
        ja: { label: '日本語', lang: 'ja' },
      },
      customCss: ['./src/styles/custom.css'],
      markdown: { processedDirs: ['./content/docs'] },
      sidebar: [
        {
          label: 'Course',
          translations: { ja: 'コース' },
          items: [
            { slug: 'course/outline' },
            { slug: 'course/fidelity' },
            { slug: 'course/progress' },
            { slug: 'review' },
          ],
        },
        {
          label: 'Demos',
          translations: { ja: 'デモ' },
          items: [{ slug: 'demo/figures' }, { slug: 'demo/cluster-lab' }, { slug: 'demo/quiz' }],
        },
        // One group per module with lessons; see src/sidebar.ts for why not `autogenerate`.
        ...lessonSidebar(fileURLToPath(new URL('./content/docs', import.meta.url))),
      ],
    }),
    mdx(),
    // Before quizAudit: a broken scenario or question file is reported once, not per variant.
    authoring(),
    quizAudit(),
  ],
});
