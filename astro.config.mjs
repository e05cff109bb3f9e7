// @ts-check
import mdx from '@astrojs/mdx';
import starlight from '@astrojs/starlight';
import { defineConfig } from 'astro/config';
import { fileURLToPath } from 'node:url';
import { courseSidebar } from './src/sidebar.ts';
import { quizAudit } from './src/integrations/quiz-audit.ts';
import { authoring } from './src/integrations/authoring.ts';
import { figureLegibility } from './src/lib/figures/legibility-check.ts';

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
      // The lesson path first (outline, then the lessons by module), the reference pages after it
      // in their own groups; src/route-data.ts keeps Previous/Next on the lesson path.
      sidebar: courseSidebar(fileURLToPath(new URL('./content/docs', import.meta.url))),
      routeMiddleware: './src/route-data.ts',
      components: { LanguageSelect: './src/components/LanguageSelect.astro' },
    }),
    mdx(),
    // Before quizAudit: a broken scenario or question file is reported once, not per variant.
    authoring(),
    quizAudit(),
    figureLegibility(),
  ],
});
