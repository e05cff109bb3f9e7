import { defineConfig } from 'vitest/config';

// Unit and property tests sit next to the code they test (STYLE.md §7). Browser tests live in
// e2e/ and run under Playwright instead.
export default defineConfig({
  test: {
    include: ['sim/**/*.test.ts', 'src/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
    // Property tests run hundreds of simulations; on a loaded 2-core machine one can take far
    // longer than vitest's 5 s default. The timeout only stops a hung test: no test asserts on time.
    testTimeout: 120_000,
  },
});
