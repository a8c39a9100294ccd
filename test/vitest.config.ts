import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Folders under test/ say the kind of test. Two projects: everything that needs no database
// (unit, property, conformance, cdk, forwarder), and the integration tests, whose globalSetup
// starts one DynamoDB Local per worker slot. `npm test` runs both; `--project unit` skips Java.
// The summary reporter prints the plain closing line "N passed, M failed" that CI reads.
//
// Workers: vitest's default is one fewer than the cores, so on a 2-core CI machine one file at a
// time, and half the machine idles: an integration file spends its time waiting for DynamoDB
// Local (another process), a unit file uses one core. Two at least, then, and files of both
// projects side by side; each integration file has a DynamoDB Local of its own slot.
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    reporters: ['default', './test/support/summary-reporter.ts'],
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    // Handlers log and emit metrics through Powertools; tests assert on outcomes, not on logs.
    env: { POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true' },
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          setupFiles: ['./test/support/property-seed.ts'],
          include: [
            'test/unit/**/*.spec.ts',
            'test/property/**/*.spec.ts',
            'test/conformance/**/*.spec.ts',
            'test/cdk/**/*.spec.ts',
            'test/forwarder/**/*.spec.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.spec.ts'],
          globalSetup: ['./test/support/dynamodb-local-setup.ts'],
          // The integration properties (hostile input, the kube API) draw from the fixed seed too.
          setupFiles: ['./test/support/property-seed.ts', './test/support/empty-dynamodb-local.ts'],
        },
      },
    ],
  },
});
