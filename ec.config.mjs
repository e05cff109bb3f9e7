// @ts-check
// Expressive Code options for Starlight's code blocks (Markdown fences and <Code>).
import { defineEcConfig, definePlugin } from '@astrojs/starlight/expressive-code';
import { showsAnswers } from './src/search-ignore.ts';

// pagefindIgnoreAnswers keeps code blocks that show answers (question files with fixtures,
// explanations or model answers) out of the search index; see src/search-ignore.ts.
const pagefindIgnoreAnswers = definePlugin({
  name: 'pagefind-ignore-answers',
  hooks: {
    postprocessRenderedBlock: ({ codeBlock, renderData }) => {
      if (showsAnswers(codeBlock.code)) {
        renderData.blockAst.properties['data-pagefind-ignore'] = 'all';
      }
    },
  },
});

export default defineEcConfig({ plugins: [pagefindIgnoreAnswers] });
