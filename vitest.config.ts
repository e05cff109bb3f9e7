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
    // One module graph for all files in a worker: each file no longer imports the simulator
    // afresh, which was most of the suite's CPU time (BENCHMARKS.md, `npm test`). No test mocks
    // modules, stubs globals or fakes timers, so files cannot leak into one another that way.
    isolate: false,
  },
});
