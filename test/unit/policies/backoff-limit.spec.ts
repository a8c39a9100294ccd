import { describe, expect, it } from 'vitest';
import { exceedsBackoffLimit } from '../../../shared/policies/backoff-limit.ts';

describe('exceedsBackoffLimit', () => {
  it.each([
    { name: 'failures equal to the limit are tolerated', backoffLimit: 6, failed: 6, onFailure: false, restarts: 0, want: false },
    { name: 'one failure more than the limit exceeds it', backoffLimit: 6, failed: 7, onFailure: false, restarts: 0, want: true },
    { name: 'limit 0 is exceeded by the first failure', backoffLimit: 0, failed: 1, onFailure: false, restarts: 0, want: true },
    { name: 'restarts do not count with restartPolicy Never', backoffLimit: 1, failed: 0, onFailure: false, restarts: 5, want: false },
    { name: 'OnFailure: restarts below the limit', backoffLimit: 3, failed: 0, onFailure: true, restarts: 2, want: false },
    { name: 'OnFailure: restarts reaching the limit exceed it', backoffLimit: 3, failed: 0, onFailure: true, restarts: 3, want: true },
    { name: 'OnFailure with limit 0: no restart', backoffLimit: 0, failed: 0, onFailure: true, restarts: 0, want: false },
    { name: 'OnFailure with limit 0: any restart exceeds it', backoffLimit: 0, failed: 0, onFailure: true, restarts: 1, want: true },
  ])('$name', ({ backoffLimit, failed, onFailure, restarts, want }) => {
    expect(exceedsBackoffLimit({ backoffLimit, failed, restartPolicyOnFailure: onFailure, restartsOfRunningPods: restarts })).toBe(want);
  });
});
