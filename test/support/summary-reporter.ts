import type { Reporter, TestModule } from 'vitest/node';
import type { SerializedError } from 'vitest';

/**
 * Prints "N passed, M failed[, K skipped]" alone on the last line, the closing line CI reads.
 * A file that failed outside its tests (it did not load, or a beforeAll or afterAll threw, which
 * leaves its tests skipped or passed) counts as one failure, and so does each unhandled error:
 * the line never says "0 failed" for a run that failed.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError> = []): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      if (module.state() === 'failed' && failedHere === 0) failedHere = 1;
      failed += failedHere;
    }
    const tail = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(`\n${passed} passed, ${failed} failed${tail}\n`);
  }
}
