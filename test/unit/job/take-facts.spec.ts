import { describe, expect, it } from 'vitest';
import { podFacts } from '../../../shared/job/pod-facts.ts';
import { newPodRecord, takeFacts, type PodRecord } from '../../../shared/job/pod-record.ts';
import { aPod, at } from '../../support/builders.ts';

// observePod builds a pod's record (newPodRecord) and puts a merged observation on it (takeFacts)
// field by field, not by spread or Object.assign: a fact podFacts gains that they do not copy
// would silently be missing or stay old.
describe('newPodRecord', () => {
  it('holds every fact of the first observation, and the record\'s own bookkeeping unset', () => {
    const facts = podFacts(aPod({ name: 'a', index: 2, phase: 'Failed', exitCode: 3, conditions: [{ type: 'DisruptionTarget' }] }), new Set());
    const record = newPodRecord(facts, { seq: 4, lastSeq: 9, order: { epoch: 1, seq: 2 }, version: '17', gone: false });
    for (const [key, value] of Object.entries(facts)) expect(record[key as keyof PodRecord], key).toBe(value);
    expect(record).toMatchObject({ seq: 4, lastSeq: 9, order: { epoch: 1, seq: 2 }, version: '17', gone: false, counted: 'none' });
    expect(record.strippedAt).toBeUndefined();
  });
});

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
