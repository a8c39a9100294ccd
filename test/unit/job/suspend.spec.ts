import { describe, expect, it } from 'vitest';
import { aJob, aPod, at, jobObserved, podDeleted, podObserved, tick, withSpec } from '../../support/builders.ts';
import { createdIndexes, given, terminatedPods } from '../../support/job-spec.ts';

const job = aJob({ completions: 4, parallelism: 2 });
const running = [tick(at(0)), podObserved(aPod({ name: 'a', ready: true }), at(1)), podObserved(aPod({ name: 'b' }), at(1))];
const suspend = jobObserved(withSpec(job, { suspend: true }), at(5));
const resume = jobObserved(withSpec(job, { suspend: false }), at(100));

describe('suspend', () => {
  describe('When a Job is created suspended', () => {
    it('sets Suspended, creates no pod and sets no startTime', () => {
      given(aJob({ suspend: true }))
        .when({ now: at(0) })
        .then({
          decisions: [
            { type: 'JobConditionChanged', condition: { type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended' } },
          ],
          commands: [],
          status: { startTime: null, active: 0 },
        });
    });

    it('adds Suspended only once', () => {
      given(aJob({ suspend: true }), tick(at(0)), tick(at(10))).when({ now: at(20) }).thenNothingHappened();
    });
  });

  describe('When a Job is suspended while the pods it asked for are still expected', () => {
    // generated-orders property, cluster histories 0 and 57: had the suspension arrived before the
    // Job's creation, no pod would have been asked for and `active` would be 0 for good.
    it('sets Suspended once the expectation times out, and counts the pods it asked for and never saw as not active', () => {
      given(job, tick(at(0)), suspend, tick(at(100)))
        .when({ now: at(301) })
        .then({
          decisions: [{ type: 'JobConditionChanged', condition: { type: 'Suspended', status: 'True', reason: 'JobSuspended' } }],
          commands: [],
          status: { active: 0 },
        });
    });
  });

  describe('When a running Job is suspended', () => {
    it('deletes every active pod, finalizers removed first, and sets Suspended', () => {
      const outcome = given(job, ...running, suspend)
        .when({ now: at(5) })
        .then({
          decisions: [
            { type: 'PodsTerminationRequested', cause: 'JobSuspended', finalizersRemoved: true },
            { type: 'JobConditionChanged', condition: { type: 'Suspended', status: 'True' } },
          ],
          status: { active: 0, ready: 0, terminating: 2 },
        });
      expect(terminatedPods(outcome).sort()).toEqual(['a', 'b']);
    });

    it('never counts the deleted pods as failed', () => {
      const failedPods = [
        podObserved(aPod({ name: 'a', phase: 'Failed', deletionTimestamp: at(5), finalizer: false }), at(6)),
        podObserved(aPod({ name: 'b', phase: 'Failed', deletionTimestamp: at(5), finalizer: false }), at(6)),
      ];
      given(job, ...running, suspend, ...failedPods).when({ now: at(6) }).thenStatus({ failed: 0, terminating: 0 });
    });
  });

  describe('When a suspended Job is resumed', () => {
    const history = [...running, suspend, podDeleted('a', at(6)), podDeleted('b', at(6)), resume];

    it('flips Suspended to False, resets startTime and creates pods', () => {
      const outcome = given(job, ...history)
        .when({ now: at(100) })
        .then({
          decisions: [
            { type: 'PodCreationsRequested', count: 2 },
            { type: 'JobConditionChanged', condition: { type: 'Suspended', status: 'False', reason: 'JobResumed', message: 'Job resumed' } },
            { type: 'StartTimeSet', startTime: at(100) },
          ],
          status: { startTime: at(100), active: 2 },
        });
      expect(createdIndexes(outcome)).toHaveLength(2);
    });

    it('keeps one Suspended condition however often it flips', () => {
      const again = jobObserved(withSpec(job, { suspend: true }), at(200));
      const recreated = [podObserved(aPod({ name: 'c' }), at(101)), podObserved(aPod({ name: 'd' }), at(101))];
      given(job, ...history, ...recreated, again)
        .when({ now: at(200) })
        .then(({ status }) => {
          expect(status.conditions.filter((c) => c.type === 'Suspended')).toHaveLength(1);
          expect(status.conditions[0]).toMatchObject({ type: 'Suspended', status: 'True', lastTransitionTime: at(200) });
        });
    });
  });

  describe('When the Job is suspended before the pods it asked for show up', () => {
    it('waits for them (or for the expectations to expire) before acting on the suspension', () => {
      const again = jobObserved(withSpec(job, { suspend: true }), at(200));
      const history = [...running, suspend, podDeleted('a', at(6)), podDeleted('b', at(6)), resume];
      given(job, ...history, again).when({ now: at(200) }).thenNothingHappened();
    });
  });

  describe('When a suspended Job has all its completions', () => {
    it('completes without adding Suspended', () => {
      const done = [0, 1, 2, 3].map((i) => podObserved(aPod({ name: `p${i}`, phase: 'Succeeded' }), at(1)));
      given(aJob({ completions: 4, parallelism: 2, suspend: true }), ...done)
        .when({ now: at(1) })
        .thenStatus({ conditions: [{ type: 'SuccessCriteriaMet' }, { type: 'Complete' }] });
    });
  });
});
