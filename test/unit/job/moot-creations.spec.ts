import { describe, expect, it } from 'vitest';
import type { JobObserved, PodObserved } from '../../../shared/job/events.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { anIndexedJob, aPod, at, jobObserved, podObserved, tick, withSpec, type PodOptions } from '../../support/builders.ts';
import { given } from '../../support/job-spec.ts';
import { evolve } from '../../../shared/job/evolve.ts';
import { expectedCreations } from '../../../shared/job/expectations.ts';

// Issue 21, found by the elastic generated histories (history-59): a creation jobfold computed for
// an index, on a view that lacked an older pod's events, is moot once those events complete the
// index. Upstream's informer delivers the pod events in order, so its controller never asked for
// it: the Job's `active` and its expectations end as in the cluster's order (expectations.ts).

/** The pod as the cluster reported it at `rv`, observed at `when`. */
const pod = (name: string, rv: number, when: string, options: PodOptions): PodObserved =>
  ({ ...podObserved(aPod({ name, resourceVersion: String(rv), ...options }), when), eventId: `${name}/${rv}` });

/** The Job with `spec` applied, as the cluster reported it at `rv`, observed at `when`. */
function jobAt(job: Job, spec: { parallelism: number }, rv: number, when: string): JobObserved {
  const observed = jobObserved(withSpec(job, spec), when);
  return { ...observed, eventId: `job/${rv}`, job: { ...observed.job, metadata: { ...observed.job.metadata, resourceVersion: String(rv) } } };
}

describe('A creation asked for an index that an older pod completed, its events arriving late', () => {
  const job = anIndexedJob(2, { parallelism: 1 });
  // On the cluster: index 0's pod a runs; the Job is scaled to 2 at 0:05 and index 1's pod b is
  // created, succeeds at 0:10 (counted, its finalizer removed) and is deleted at 0:15.
  const scaled = jobAt(job, { parallelism: 2 }, 3, at(5));
  const a = pod('a', 2, at(1), { index: 0, phase: 'Running' });
  const bSucceeded = pod('b', 5, at(10), { index: 1, phase: 'Succeeded', finishedAt: at(9) });
  const bDeleted = pod('b', 6, at(15), { index: 1, phase: 'Succeeded', finishedAt: at(9), finalizer: false, deletionTimestamp: at(15) });

  it('in the cluster\'s order: one pod active, index 1 completed', () => {
    given(job, a, scaled, bSucceeded, bDeleted, tick(at(20)))
      .when()
      .thenStatus({ active: 1, succeeded: 1, completedIndexes: '1' });
  });

  it('b\'s events after the scaling and in reverse: the creation asked again for index 1 is moot once b\'s success arrives', () => {
    // Given b first seen deleted without its finalizer (not counted: nothing says how it was),
    // jobfold asks for index 1 again; b's older observation then completes the index.
    given(job, a, scaled, bDeleted, bSucceeded, tick(at(20)))
      .when()
      .then(({ status, commands }) => {
        expect(status).toMatchObject({ active: 1, succeeded: 1, completedIndexes: '1' });
        expect(commands.filter((c) => c.type === 'CreatePod')).toEqual([]);
      });
  });
});

describe('The creations still expected, remembered between events (expectations.ts), count as a fresh walk does', () => {
  // The count of moot indexes is kept while the expectation's indexes and the completed and
  // failed indexes stay as they were; a pod first seen takes its index out of the expectation
  // and the count with it. Here pods b and f (indexes 1, 2) are first seen deleted, not counted,
  // so jobfold asks for both indexes again; b's older success then makes index 1's creation moot,
  // and a pod of index 1 is first seen: the expectation loses the moot index, and the creation
  // still expected (index 2) must count, not be taken for moot.
  const job = anIndexedJob(3, { parallelism: 1 });
  const a = pod('a', 2, at(1), { index: 0, phase: 'Running' });
  const scaled = jobAt(job, { parallelism: 3 }, 3, at(5));
  const gone = (name: string, rv: number, index: number): PodObserved =>
    pod(name, rv, at(15), { index, phase: 'Succeeded', finishedAt: at(9), finalizer: false, deletionTimestamp: at(15) });
  const bSucceeded = pod('b', 5, at(10), { index: 1, phase: 'Succeeded', finishedAt: at(9) });
  const d = pod('d', 9, at(17), { index: 1, phase: 'Running' });

  it('given creations asked again for indexes 1 and 2, index 1 then completed, when a pod of index 1 is first seen, then one creation is still expected', () => {
    const { state } = given(job, a, scaled, gone('b', 6, 1), gone('f', 7, 2), tick(at(15.5)), bSucceeded, tick(at(16.5))).fold();
    expect(state.expectations).toMatchObject({ creations: 2, indexes: [1, 2] });
    expect(state.status.completedIndexes.toString()).toBe('1');
    expect(expectedCreations(state)).toBe(1);
    evolve(state, { ...d, seq: state.position + 1 });
    expect(state.expectations).toMatchObject({ creations: 1, indexes: [2] });
    expect(expectedCreations(state)).toBe(1);
  });

  it('the count is the state\'s own memo: two Jobs\' states keep theirs apart, and a state holding other indexes counts afresh', () => {
    const { state } = given(job, a, scaled, gone('b', 6, 1), gone('f', 7, 2), tick(at(15.5)), bSucceeded, tick(at(16.5))).fold();
    expect(expectedCreations(state)).toBe(1);
    expect(state.mootMemo).toMatchObject({ length: 2, moot: 1 });
    expect(state.mootMemo?.indexes).toBe(state.expectations.indexes);
    const other = given(job, a, scaled, gone('b', 6, 1), gone('f', 7, 2), tick(at(15.5))).fold().state;
    expect(expectedCreations(other)).toBe(2);
    expect(state.mootMemo).toMatchObject({ moot: 1 });
    const copy = { ...state, expectations: { ...state.expectations, indexes: [...(state.expectations.indexes ?? [])] } };
    expect(expectedCreations(copy)).toBe(1);
    expect(copy.mootMemo?.indexes).toBe(copy.expectations.indexes);
  });
});
