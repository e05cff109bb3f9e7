// ESLint flat config. Besides the recommended rules, it enforces the simulator's ground rules
// (STYLE.md §3 and §5): inside sim/, time comes only from ctx.clock, randomness only from ctx.rng,
// nothing is asynchronous, and nothing reaches the DOM, the site or the bundler.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const CLOCK = 'sim/ reads time only from ctx.clock (virtual time), so runs are reproducible';
const RNG = 'sim/ takes randomness only from ctx.rng (seeded), so runs are reproducible';
const TIMER =
  'sim/ schedules work on its own event queue (ctx.clock), never on the host event loop, so runs are reproducible';
const ASYNC =
  'sim/ is synchronous: the event queue orders work by (time, seq); promises and async code would leave ordering to the host';
const DOM = 'sim/ is a pure model with no DOM or network; islands in src/ render it (STYLE.md §5)';
const PROCESS = 'sim/ does not read the host process; only the CLI boundary (sim/cli.ts) may';
const IMPORT =
  'sim/ imports nothing from src/, Astro or d3: it is a pure model the site depends on, not the reverse (STYLE.md §5)';

/** simGlobals lists host globals the model must not touch, with the reason for each. */
const simGlobals = [
  { name: 'Date', message: CLOCK },
  { name: 'performance', message: CLOCK },
  ...[
    'setTimeout',
    'setInterval',
    'setImmediate',
    'clearTimeout',
    'clearInterval',
    'clearImmediate',
  ]
    .concat([
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
    ])
    .map((name) => ({ name, message: TIMER })),
  { name: 'Promise', message: ASYNC },
  ...['window', 'document', 'navigator', 'fetch', 'localStorage', 'sessionStorage']
    .concat(['HTMLElement', 'Element', 'Worker', 'XMLHttpRequest', 'WebSocket'])
    .map((name) => ({ name, message: DOM })),
];

const processGlobal = { name: 'process', message: PROCESS };

// V8 allocates a function literal assigned to a property (x.f = () => ..., also x[k] = and
// x.f ??=) directly in the old generation. Until the next full GC such a closure keeps whatever it
// captures alive through every young-generation GC, so each finished grading run outlived itself
// and was copied and promoted (BENCHMARKS.md, "Garbage a run leaves behind").
const PRETENURED =
  'a function literal assigned to a property is allocated in the old generation and keeps what it captures alive until a full GC: bind it to a const first (const f = () => ...; x.f = f)';

const pretenured = {
  selector:
    "AssignmentExpression[left.type='MemberExpression'] > :matches(ArrowFunctionExpression, FunctionExpression).right",
  message: PRETENURED,
};

const simSyntax = [
  { selector: "NewExpression[callee.name='Date']", message: CLOCK },
  pretenured,
  { selector: ':function[async=true]', message: ASYNC },
  { selector: 'AwaitExpression', message: ASYNC },
  { selector: 'ForOfStatement[await=true]', message: ASYNC },
];

const mathRandom = { object: 'Math', property: 'random', message: RNG };

const simImports = {
  patterns: [
    { group: ['astro', 'astro/*', 'astro:*', '@astrojs/*'], message: IMPORT },
    { group: ['d3', 'd3-*'], message: IMPORT },
    { regex: '(^|/)src(/|$)', message: IMPORT },
  ],
};

export default defineConfig(
  globalIgnores([
    'dist/',
    '.astro/',
    'node_modules/',
    'playwright-report/',
    'test-results/',
    'coverage/',
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // A leading underscore marks a binding as deliberately unused.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx,js}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The model proper: no clock, no chance, no event loop, no DOM, no host process.
    files: ['sim/**/*.ts'],
    // testing.ts files hold builders and golden-file helpers used only by tests.
    ignores: ['sim/**/*.test.ts', 'sim/**/testing.ts', 'sim/cli.ts'],
    rules: {
      'no-restricted-globals': ['error', ...simGlobals, processGlobal],
      'no-restricted-syntax': ['error', ...simSyntax],
      'no-restricted-properties': ['error', mathRandom],
      'no-restricted-imports': ['error', simImports],
    },
  },
  {
    // The islands' workers run simulations one after another, as the build's audit does.
    files: ['src/islands/**/worker.ts'],
    rules: { 'no-restricted-syntax': ['error', pretenured] },
  },
  {
    // The CLI boundary may read argv, env and exit codes, and nothing else new.
    files: ['sim/cli.ts'],
    rules: {
      'no-restricted-globals': ['error', ...simGlobals],
      'no-restricted-syntax': ['error', ...simSyntax],
      'no-restricted-properties': ['error', mathRandom],
      'no-restricted-imports': ['error', simImports],
    },
  },
  {
    // Tests may use the host freely, but stay deterministic: seed a ctx.rng instead.
    files: ['sim/**/*.test.ts', 'sim/**/testing.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { ...mathRandom, message: `${RNG}; tests seed their own rng too` },
      ],
    },
  },
);
