import { describe, expect, it } from 'vitest';
import { EXPECTATIONS_TIMEOUT_MS } from '../../../shared/k8s/job-controller.ts';
import { aJob, anIndexedJob, aPod, at, jobObserved, podObserved, tick } from '../../support/builders.ts';
import { createdIndexes, given, terminatedPods } from '../../support/job-spec.ts';

describe('Completions and parallelism, NonIndexed', () => {
  describe('When the Job starts', () => {
    it('sets startTime and creates as many pods as parallelism allows', () => {
      given(aJob({ completions: 5, parallelism: 2 }))
        .when({ now: at(0) })
        .then({
          decisions: [
            { type: 'StartTimeSet', startTime: at(0) },
            { type: 'PodCreationsRequested', count: 2 },
          ],
          commands: [
            { type: 'CreatePod', jobName: 'myjob', jobUid: 'job-uid', namespace: 'default', index: undefined },
            { type: 'CreatePod', index: undefined },
          ],
          status: { active: 2, startTime: at(0), conditions: [] },
        });
    });

    it('creates one pod when neither completions nor parallelism is set', () => {
      const outcome = given(aJob()).when({ now: at(0) });
      expect(createdIndexes(outcome)).toHaveLength(1);
    });

    it('gives every created pod its own command id', () => {
      const outcome = given(aJob({ completions: 3, parallelism: 3 })).when({ now: at(0) });
      const ids = outcome.commands.map((c) => c.commandId);
      expect(new Set(ids).size).toBe(3);
    });
  });

  describe('When fewer pods run than wanted', () => {
    it('creates only the missing pods', () => {
      given(aJob({ completions: 5, parallelism: 3 }), podObserved(aPod({ name: 'a' }), at(1)))
        .when({ now: at(1) })
        .then({ decisions: [{ type: 'StartTimeSet' }, { type: 'PodCreationsRequested', count: 2 }] });
    });

    it('creates no more pods than completions remain', () => {
      given(
        aJob({ completions: 3, parallelism: 5 }),
        podObserved(aPod({ name: 'a', phase: 'Succeeded' }), at(1)),
        podObserved(aPod({ name: 'b', phase: 'Succeeded' }), at(1)),
      )
        .when({ now: at(1) })
        .then({ decisions: [{ type: 'StartTimeSet' }, { type: 'PodCreationsRequested', count: 1 }] });
    });

    it('counts pending pods as active', () => {
      given(aJob({ completions: 2, parallelism: 2 }), podObserved(aPod({ name: 'a', phase: 'Pending' }), at(1)))
        .when({ now: at(1) })
        .then({ decisions: [{ type: 'StartTimeSet' }, { type: 'PodCreationsRequested', count: 1 }], status: { active: 2 } });
    });
  });

  describe('When more pods run than parallelism', () => {
    const job = aJob({ completions: 5, parallelism: 1 });

    it('deletes the least advanced pod, removing its finalizer first', () => {
      const outcome = given(
        job,
        podObserved(aPod({ name: 'running', ready: true }), at(1)),
        podObserved(aPod({ name: 'unscheduled', phase: 'Pending', nodeName: null }), at(1)),
      )
        .when({ now: at(1) })
        .then({
          decisions: [
            { type: 'StartTimeSet' },
            { type: 'PodsTerminationRequested', cause: 'ExcessPods', finalizersRemoved: true },
          ],
          status: { active: 1, terminating: 1 },
        });
      expect(terminatedPods(outcome)).toEqual(['unscheduled']);
    });

    it('creates nothing in the sync that deletes', () => {
      const outcome = given(
        aJob({ completions: 5, parallelism: 1 }),
        podObserved(aPod({ name: 'a' }), at(1)),
        podObserved(aPod({ name: 'b' }), at(1)),
      ).when({ now: at(1) });
      expect(createdIndexes(outcome)).toEqual([]);
    });
  });

  describe('When the pods it asked for never show up (a creation the cluster refused)', () => {
    // jobfold never hears that a command failed (upstream does, and retries): its expectations
    // expire after EXPECTATIONS_TIMEOUT_MS, as upstream's do, and the reconcile that set them
    // asks to be woken up then, since a pod never created sends no event to wake the Job.
    const job = aJob({ completions: 2, parallelism: 2 });
    const expiry = (from: string) => new Date(Date.parse(from) + EXPECTATIONS_TIMEOUT_MS + 1).toISOString();

    it('asks to be woken up when the expectations of the pods it asks for expire', () => {
      given(job).when({ now: at(0) }).then({ decisions: [{ type: 'StartTimeSet' }, { type: 'PodCreationsRequested', count: 2 }], wakeAt: expiry(at(0)) });
    });

    it('woken up then, with no pod seen, asks for them again, and to be woken up at their expiry', () => {
      given(job, tick(at(0)), tick(expiry(at(0))))
        .when()
        .then({ decisions: [{ type: 'PodCreationsRequested', count: 2 }], wakeAt: expiry(expiry(at(0))) });
    });

    it('asks to be woken up when the expectation of a pod it deletes expires', () => {
      const outcome = given(aJob({ completions: 5, parallelism: 1 }), podObserved(aPod({ name: 'a' }), at(1)), podObserved(aPod({ name: 'b' }), at(1))).when({ now: at(1) });
      expect(terminatedPods(outcome)).toHaveLength(1);
      expect(outcome.wakeAt).toBe(expiry(at(1)));
    });

    it('does not ask to be woken up for them while it folds history long past (a trace replayed a day later)', () => {
      // Each wake-up would be due at once and ask for the next: the Job asks again at its next event.
      const replayed = { ...jobObserved(job, at(0)), arrivedAt: at(86_400) };
      given(null, replayed).when({ now: at(0) }).then({ decisions: [{ type: 'StartTimeSet' }, { type: 'PodCreationsRequested', count: 2 }], wakeAt: undefined });
    });
  });

  describe('When every completion succeeded', () => {
    it('sets SuccessCriteriaMet then Complete with CompletionsReached and a completionTime', () => {
      given(
        aJob({ completions: 2, parallelism: 2 }),
        podObserved(aPod({ name: 'a', phase: 'Succeeded' }), at(5)),
        podObserved(aPod({ name: 'b', phase: 'Succeeded' }), at(5)),
      )
        .when({ now: at(5) })
        .thenStatus({
          succeeded: 2,
          active: 0,
          completionTime: at(5),
          conditions: [
            { type: 'SuccessCriteriaMet', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
            { type: 'Complete', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
          ],
        });
    });

    it('deletes a pod still running and waits for it before Complete', () => {
      const outcome = given(
        aJob({ completions: 1, parallelism: 2 }),
        podObserved(aPod({ name: 'a', phase: 'Succeeded' }), at(5)),
        podObserved(aPod({ name: 'b' }), at(5)),
      )
        .when({ now: at(5) })
        .thenStatus({
          succeeded: 1,
          active: 0,
          terminating: 1,
          completionTime: null,
          conditions: [{ type: 'SuccessCriteriaMet', reason: 'CompletionsReached' }],
        });
      expect(terminatedPods(outcome)).toEqual(['b']);
    });
  });

  describe('When a work-queue Job (no completions) runs', () => {
    const job = aJob({ parallelism: 2 });

    it('creates pods up to parallelism before any success', () => {
      given(job).when({ now: at(0) }).then({ decisions: [{ type: 'StartTimeSet' }, { type: 'PodCreationsRequested', count: 2 }] });
    });

    it('creates no more pods once one succeeded, and keeps the running ones', () => {
      given(job, podObserved(aPod({ name: 'a', phase: 'Succeeded' }), at(1)), podObserved(aPod({ name: 'b' }), at(1)))
        .when({ now: at(1) })
        .then({ decisions: [{ type: 'StartTimeSet' }], commands: [], status: { active: 1, succeeded: 1 } });
    });

    it('completes once a pod succeeded and none is active', () => {
      given(job, podObserved(aPod({ name: 'a', phase: 'Succeeded' }), at(1)), podObserved(aPod({ name: 'b', phase: 'Succeeded' }), at(1)))
        .when({ now: at(1) })
        .thenStatus({ succeeded: 2, conditions: [{ type: 'SuccessCriteriaMet' }, { type: 'Complete' }] });
    });
  });
});

describe('Completions and parallelism, Indexed', () => {
  describe('When the Job starts', () => {
    it('creates the lowest indexes up to parallelism', () => {
      const outcome = given(anIndexedJob(5, { parallelism: 3 })).when({ now: at(0) });
      expect(createdIndexes(outcome)).toEqual([0, 1, 2]);
      expect(outcome.decisions[1]).toMatchObject({ type: 'PodCreationsRequested', count: 3, indexes: [0, 1, 2] });
    });
  });

  describe('When some indexes succeeded or run', () => {
    it('creates the lowest indexes that are neither succeeded nor active', () => {
      const outcome = given(
        anIndexedJob(5, { parallelism: 3 }),
        podObserved(aPod({ index: 0, phase: 'Succeeded' }), at(1)),
        podObserved(aPod({ index: 1 }), at(1)),
      ).when({ now: at(1) });
      expect(createdIndexes(outcome)).toEqual([2, 3]);
    });
  });

  describe('When two pods run the same index', () => {
    it('deletes all but the most advanced one', () => {
      const outcome = given(
        anIndexedJob(3),
        podObserved(aPod({ name: 'ready', index: 0, ready: true }), at(1)),
        podObserved(aPod({ name: 'pending', index: 0, phase: 'Pending' }), at(1)),
        podObserved(aPod({ index: 1 }), at(1)),
        podObserved(aPod({ index: 2 }), at(1)),
      )
        .when({ now: at(1) })
        .then({ decisions: [{ type: 'StartTimeSet' }, { type: 'PodsTerminationRequested', cause: 'DuplicateIndex' }] });
      expect(terminatedPods(outcome)).toEqual(['pending']);
    });
  });

  describe('When a pod has no valid completion index', () => {
    it('deletes the pods without an index and those at or past completions', () => {
      const outcome = given(
        anIndexedJob(2),
        podObserved(aPod({ name: 'no-index' }), at(1)),
        podObserved(aPod({ name: 'too-high', index: 2 }), at(1)),
        podObserved(aPod({ index: 0 }), at(1)),
        podObserved(aPod({ index: 1 }), at(1)),
      )
        .when({ now: at(1) })
        .then({ decisions: [{ type: 'StartTimeSet' }, { type: 'PodsTerminationRequested', cause: 'InvalidIndex' }] });
      expect(terminatedPods(outcome).sort()).toEqual(['no-index', 'too-high']);
    });
  });

  describe('When every index succeeded', () => {
    it('completes, counting each index once however many pods succeeded for it', () => {
      given(
        anIndexedJob(2),
        podObserved(aPod({ name: 'a', index: 0, phase: 'Succeeded' }), at(1)),
        podObserved(aPod({ name: 'b', index: 0, phase: 'Succeeded' }), at(1)),
        podObserved(aPod({ name: 'c', index: 1, phase: 'Succeeded' }), at(1)),
      )
        .when({ now: at(1) })
        .thenStatus({
          succeeded: 2,
          completedIndexes: '0,1',
          conditions: [{ type: 'SuccessCriteriaMet', reason: 'CompletionsReached' }, { type: 'Complete', reason: 'CompletionsReached' }],
        });
    });
  });

  describe('When created pods have not been observed yet', () => {
    it('creates nothing more until they show up', () => {
      given(anIndexedJob(3), tick(at(0)), tick(at(10)))
        .when({ now: at(10) })
        .thenNothingHappened()
        .thenStatus({ active: 3 });
    });
  });
});
