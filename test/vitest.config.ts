import { defineConfig } from 'vitest/config';

// Folders under test/ say the kind of test. Two projects: everything that needs no database
// (unit, property, conformance, cdk, forwarder), and the integration tests, whose globalSetup
// starts one DynamoDB Local for the whole run. `npm test` runs both; `--project unit` skips Java.
// The summary reporter prints the plain closing line "N passed, M failed" that CI reads.
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 30_000,
    // Handlers log and emit metrics through Powertools; tests assert on outcomes, not on logs.
    env: { POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true' },
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
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
        },
      },
    ],
  },
});
