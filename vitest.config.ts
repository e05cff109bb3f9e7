import { defineConfig } from 'vitest/config';

// Unit and property tests sit next to the code they test (STYLE.md §7). Browser tests live in
// e2e/ and run under Playwright instead.
export default defineConfig({
  test: {
    include: ['sim/**/*.test.ts', 'src/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
  },
});
