import { defineConfig } from 'vitest/config';

// One config for every kind of test; folders under test/ say the kind (unit, property,
// conformance, integration, cdk). The summary reporter prints the plain closing line
// "N passed, M failed" that CI reads.
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.spec.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
