import { describe, expect, it } from 'vitest';
import type { JobObserved, PodObserved } from '../../../shared/job/events.ts';
import type { PodPhase } from '../../../shared/k8s/pod.ts';
import { aJob, aPod, at, jobObserved, podDeleted, podObserved } from '../../support/builders.ts';
import { conditionsOf, given } from '../../support/job-spec.ts';

// Issue 21: a spec change (completions, parallelism) the cluster made before the Job finished
// can arrive after jobfold finished it on the pods that arrived first. The cluster's finishing
// sync held the new spec, so the final status is counted by it; and an index completed stays
// completed only while every completions in force since its success covers it. The
// counterexamples are the corpus property's (test/property/job/corpus-orders.property.spec.ts).

const COMPLETE = ['SuccessCriteriaMet=True:CompletionsReached', 'Complete=True:CompletionsReached'];

/** An elastic Indexed Job with `completions` (as many in parallel), as the cluster reported it at `rv`, observed at `when`. */
function elastic(completions: number, rv: number, when: string): JobObserved {
  const observed = jobObserved(aJob({ completionMode: 'Indexed', completions, parallelism: completions }), when);
  return { ...observed, eventId: `job/${rv}`, job: { ...observed.job, metadata: { ...observed.job.metadata, resourceVersion: String(rv) } } };
}

/** Pod `name` of index `index` as the cluster reported it at `rv`, observed at `when`. */
const pod = (name: string, index: number | undefined, rv: number, when: string, phase: PodPhase = 'Pending'): PodObserved => ({
  ...podObserved(aPod({ name, ...(index === undefined ? {} : { index }), phase, resourceVersion: String(rv) }), when),
  eventId: `${name}/${rv}`,
});

describe('elastic-indexed__scale-up: completions 3 -> 4 at :02, index 3 created at :03, every index succeeds at :04', () => {
  it("in the cluster's order: four indexes completed", () => {
    given(null, elastic(3, 1, at(0)), pod('p0', 0, 2, at(1)), pod('p1', 1, 3, at(1)), pod('p2', 2, 4, at(1)), elastic(4, 5, at(2)), pod('p3', 3, 6, at(3)),
      pod('p0', 0, 7, at(4), 'Succeeded'), pod('p1', 1, 8, at(4), 'Succeeded'), pod('p2', 2, 9, at(4), 'Succeeded'), pod('p3', 3, 10, at(4), 'Succeeded'))
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(COMPLETE);
        expect(status).toMatchObject({ succeeded: 4, completedIndexes: '0-3' });
      });
  });

  it('the pods first, then the Job as created (index 3 looks excess, three indexes complete it), the raise last: still four', () => {
    given(null, pod('p1', 1, 3, at(1)), pod('p1', 1, 8, at(4), 'Succeeded'), pod('p2', 2, 4, at(1)), pod('p0', 0, 7, at(4), 'Succeeded'), pod('p0', 0, 2, at(1)),
      pod('p3', 3, 6, at(3)), elastic(3, 1, at(0)), pod('p2', 2, 9, at(4), 'Succeeded'), pod('p3', 3, 10, at(4), 'Succeeded'), elastic(4, 5, at(2)))
      .when({ now: at(4) })
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(COMPLETE);
        expect(status).toMatchObject({ succeeded: 4, completedIndexes: '0-3', active: 0, terminating: 0 });
      });
  });
});

describe('elastic-indexed__scale-down-then-up: index 2 succeeds at :02, completions 3 -> 2 at :03 (drops it), 2 -> 3 at :04, its new pod succeeds at :06', () => {
  const created = elastic(3, 1, at(0));
  const lowered = elastic(2, 6, at(3));
  const raised = elastic(3, 7, at(4));
  const first = [pod('p0', 0, 2, at(1)), pod('p1', 1, 3, at(1)), pod('p2', 2, 4, at(1)), pod('p2', 2, 5, at(2), 'Succeeded')];
  const again = pod('p2b', 2, 8, at(5));
  const done = [pod('p0', 0, 9, at(6), 'Succeeded'), pod('p1', 1, 10, at(6), 'Succeeded'), pod('p2b', 2, 11, at(6), 'Succeeded')];

  it("in the cluster's order: indexes 0-2 completed", () => {
    given(null, created, ...first, lowered, raised, again, ...done)
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(COMPLETE);
        expect(status).toMatchObject({ succeeded: 3, completedIndexes: '0-2' });
      });
  });

  it('the lowered Job first, the Job completed on two indexes, the raise after: index 2 counts in the final status', () => {
    const [p0, p1, p2, p2done] = first;
    given(null, lowered, p1!, done[0]!, done[2]!, p2done!, done[1]!, p0!, again, p2!, raised, created)
      .when({ now: at(6) })
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(COMPLETE);
        expect(status).toMatchObject({ succeeded: 3, completedIndexes: '0-2' });
      });
  });

  it('the raise first, the Job as created next, the lowering last: the success of index 2 after the raise stays counted', () => {
    const [p0, p1, p2, p2done] = first;
    given(null, raised, p1!, p0!, p2done!, created, done[2]!, lowered, p2!, done[1]!, again, done[0]!)
      .when({ now: at(6) })
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(COMPLETE);
        expect(status).toMatchObject({ succeeded: 3, completedIndexes: '0-2', active: 0 });
      });
  });

  it('an index completed before the lowering does not come back with the raise, whichever arrives first', () => {
    const [p0, p1, p2, p2done] = first;
    for (const events of [[created, p0!, p1!, p2!, p2done!, lowered, raised], [raised, p0!, p1!, p2!, p2done!, created, lowered]]) {
      given(null, ...events).when({ now: at(4) }).thenStatus({ completedIndexes: '' });
    }
  });
});

describe('basics__parallelism-down-and-up: parallelism 5 -> 2 at :06 deletes three pods as excess at :07, 2 -> 4 at :08, the work queue succeeds at :10', () => {
  const job = (parallelism: number, rv: number, when: string): JobObserved => {
    const observed = jobObserved(aJob({ parallelism, backoffLimit: 2 }), when);
    return { ...observed, eventId: `job/${rv}`, job: { ...observed.job, metadata: { ...observed.job.metadata, resourceVersion: String(rv) } } };
  };
  const [p0, p1, p2, p3, p4] = ['p0', 'p1', 'p2', 'p3', 'p4'].map((name, i) => pod(name, undefined, i + 2, at(1 + i)));
  const [d2, d3, d4] = ['p2', 'p3', 'p4'].map((name) => podDeleted(name, at(7)));
  const [p5, p6] = [pod('p5', undefined, 9, at(9)), pod('p6', undefined, 10, at(9))];
  const [s0, s1, s5, s6] = ['p0', 'p1', 'p5', 'p6'].map((name, i) => pod(name, undefined, 11 + i, at(10), 'Succeeded'));

  it('the lowering arriving after the Job completed, its deletions counted failed meanwhile: the final status counts none', () => {
    given(null, s5!, p6!, job(4, 8, at(8)), s6!, s0!, p4!, p2!, job(5, 1, at(0)), d2!, d4!, p3!, p5!, p1!, d3!, p0!, s1!, job(2, 7, at(6)))
      .when({ now: at(10) })
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(COMPLETE);
        expect(status).toMatchObject({ succeeded: 4, failed: 0 });
      });
  });
});
