import { describe, expect, it } from 'vitest';
import { podFacts } from '../../../shared/job/pod-facts.ts';
import { newPodRecord, takeFacts, type PodRecord } from '../../../shared/job/pod-record.ts';
import { restoreArchived, restoreSnapshot, takeSnapshot, type JobSnapshot } from '../../../shared/job/snapshot.ts';
import { aJob, aPod, at, podDeleted, podObserved } from '../../support/builders.ts';
import { given } from '../../support/job-spec.ts';

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

describe('records restored from a snapshot', () => {
  it('have a new record\'s fields in a new record\'s order (one shape), live and archived alike', () => {
    // Live: running, ready, terminating; archived: succeeded, failed and gone, deleted unseen.
    const { state } = given(
      aJob({ completions: 3, parallelism: 3, backoffLimit: 6 }),
      podObserved(aPod({ name: 'run', ready: true }), at(1)),
      podObserved(aPod({ name: 'stop', deletionTimestamp: at(2) }), at(2)),
      podObserved(aPod({ name: 'ok', phase: 'Succeeded' }), at(3)),
      podObserved(aPod({ name: 'bad', phase: 'Failed', finalizer: false }), at(4)),
      podDeleted('bad', at(5)),
      podDeleted('unseen', at(6)),
    ).fold();
    const { snapshot, archived } = takeSnapshot(state);
    expect(archived.length).toBeGreaterThan(0);
    expect(snapshot.livePods.length).toBeGreaterThan(0);
    const restored = restoreSnapshot(JSON.parse(JSON.stringify(snapshot)) as JobSnapshot);
    restoreArchived(restored, JSON.parse(JSON.stringify(archived)) as typeof archived);
    const shape = Object.keys(newPodRecord(podFacts(aPod(), new Set()), { seq: 0, lastSeq: 0, order: undefined, version: undefined, gone: false }));
    expect(restored.pods.size).toBe(state.pods.size);
    for (const pod of restored.pods.values()) expect(Object.keys(pod), pod.uid).toEqual(shape);
  });
});

