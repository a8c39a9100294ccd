import { describe, expect, it } from 'vitest';
import { matchFailedIndexes } from '../../../shared/policies/failed-indexes.ts';

describe('matchFailedIndexes', () => {
  it.each([
    { name: 'no failed index', failedIndexes: 0, succeededIndexes: 5, maxFailedIndexes: undefined, want: undefined },
    { name: 'failed indexes within maxFailedIndexes while others run', failedIndexes: 1, succeededIndexes: 0, maxFailedIndexes: 1, want: undefined },
    { name: 'more failed indexes than maxFailedIndexes', failedIndexes: 2, succeededIndexes: 0, maxFailedIndexes: 1, want: 'MaxFailedIndexesExceeded' },
    { name: 'maxFailedIndexes 0 and one failed index', failedIndexes: 1, succeededIndexes: 0, maxFailedIndexes: 0, want: 'MaxFailedIndexesExceeded' },
    { name: 'every index settled, one failed', failedIndexes: 1, succeededIndexes: 4, maxFailedIndexes: undefined, want: 'FailedIndexes' },
    { name: 'every index settled within maxFailedIndexes', failedIndexes: 1, succeededIndexes: 4, maxFailedIndexes: 2, want: 'FailedIndexes' },
    { name: 'one index still open', failedIndexes: 1, succeededIndexes: 3, maxFailedIndexes: undefined, want: undefined },
  ])('$name', ({ failedIndexes, succeededIndexes, maxFailedIndexes, want }) => {
    expect(matchFailedIndexes({ failedIndexes, succeededIndexes, maxFailedIndexes, completions: 5 })?.reason).toBe(want);
  });

  it('uses upstream’s messages', () => {
    expect(matchFailedIndexes({ failedIndexes: 2, succeededIndexes: 0, maxFailedIndexes: 1, completions: 5 })?.message).toBe(
      'Job has exceeded the specified maximal number of failed indexes',
    );
    expect(matchFailedIndexes({ failedIndexes: 1, succeededIndexes: 4, maxFailedIndexes: undefined, completions: 5 })?.message).toBe(
      'Job has failed indexes',
    );
  });
});
