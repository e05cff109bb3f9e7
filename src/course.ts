// The course's modules, in order: one place for their numbers and names in both languages. The
// outline pages (content/docs/course/outline.mdx and its ja twin) describe them in prose.
import type { Lang } from './i18n/ui.ts';

/** CourseModule is one module of the course. */
export type CourseModule = {
  /** number is the module's position, 1-based; its lessons live in content/docs/lessons/<nn>-<slug>/. */
  number: number;
  /** title is the module's name in each site language. */
  title: Record<Lang, string>;
};

/** MODULES lists the course's modules in order. */
export const MODULES: readonly CourseModule[] = [
  { number: 1, title: { en: "The cluster's architecture", ja: 'クラスターのアーキテクチャ' } },
  {
    number: 2,
    title: {
      en: 'From kubectl apply to a running Pod',
      ja: 'kubectl apply から Pod が動き出すまで',
    },
  },
  { number: 3, title: { en: 'When a node fails', ja: 'ノードが落ちたとき' } },
  {
    number: 4,
    title: { en: 'Resources, rollouts and scaling', ja: 'リソース、ロールアウト、スケーリング' },
  },
  { number: 5, title: { en: 'Interview drill', ja: '面接対策ドリル' } },
  { number: 6, title: { en: 'For instructors: authoring guide', ja: '講師の方へ：教材の書き方' } },
  {
    number: 7,
    title: {
      en: 'Services, DNS and the path of a packet',
      ja: 'Service、DNS、パケットの経路',
    },
  },
];
