import { describe, expect, it } from 'vitest';
import { podFacts } from '../../../shared/job/pod-facts.ts';
import { takeFacts, type PodRecord } from '../../../shared/job/pod-record.ts';
import { aPod, at } from '../../support/builders.ts';

// observePod puts a merged observation on the pod's record field by field (takeFacts), not by
// Object.assign: a fact podFacts gains and takeFacts does not copy would silently stay old.
describe('takeFacts', () => {
  it('puts every fact of an observation on the record, and keeps the record\'s own bookkeeping', () => {
    const first = podFacts(aPod({ name: 'a', index: 0, phase: 'Running', ready: true }), new Set());
    const record: PodRecord = {
      ...first,
      seq: 3,
      lastSeq: 7,
      order: undefined,
      counted: 'none',
      failureMatch: undefined,
      terminationRequestedAt: undefined,
      gone: false,
      strippedAt: 5,
    };
    const seen = podFacts(
      aPod({
        name: 'a', uid: 'a', index: 0, phase: 'Failed', exitCode: 3, restartCount: 2, failureCount: 1, ignoredFailureCount: 1,
        deletionTimestamp: at(4), conditions: [{ type: 'DisruptionTarget' }],
      }),
      new Set(),
    );
    takeFacts(record, seen);
    for (const [key, value] of Object.entries(seen)) expect(record[key as keyof PodRecord], key).toBe(value);
    expect(record).toMatchObject({ seq: 3, lastSeq: 7, counted: 'none', strippedAt: 5, gone: false });
  });
});
