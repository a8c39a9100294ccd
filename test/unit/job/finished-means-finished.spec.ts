import { describe, expect, it } from 'vitest';
import type { JobEvent } from '../../../shared/job/evolve.ts';
import { cloneState } from '../../../shared/job/snapshot.ts';
import { aJob, aPod, at, jobObserved, podDeleted, podObserved, tick } from '../../support/builders.ts';
import { conditionsOf, given, terminatedPods } from '../../support/job-spec.ts';

// Upstream stops syncing a Job once it is Complete or Failed (`IsJobFinished`), so the status it
// reports never changes again. jobfold still logs what arrives later, counts it as arriving
// after the end, and still terminates pods that linger.

const job = aJob({ completions: 1, parallelism: 1, backoffLimit: 0 });
const succeeded = (name: string, when: string) => podObserved(aPod({ name, phase: 'Succeeded' }), when);
const failed = (name: string, when: string) => podObserved(aPod({ name, phase: 'Failed' }), when);
const running = (name: string, when: string, ready = false) => podObserved(aPod({ name, ready }), when);

/** The Job completes at 1 s: pod `a` succeeded, and the reconcile at 2 s writes Complete. */
const COMPLETED: JobEvent[] = [running('a', at(0.5)), succeeded('a', at(1)), tick(at(2))];

describe('Finished means finished', () => {
  it('given a completed Job, late observations are logged but its status does not move', () => {
    const before = given(job, ...COMPLETED).when({ now: at(2) });
    expect(conditionsOf(before.status)).toEqual(['SuccessCriteriaMet=True:CompletionsReached', 'Complete=True:CompletionsReached']);

    // when a pod the Job never knew shows up running, another one fails, and a pod is deleted
    const after = given(job, ...COMPLETED, running('late', at(3), true), failed('other', at(4)), podDeleted('a', at(5)), tick(at(6))).when({ now: at(6) });

    // then the reported status is the one written when the Job completed
    expect(after.status).toEqual(before.status);
    // and the later observations are in the log, counted as arriving after the end
    expect(after.log.filter((e) => e.type === 'PodObserved' || e.type === 'PodDeleted')).toHaveLength(5);
    expect(after.state.finishedAt).toBeDefined();
    expect(after.state.observedAfterFinish).toBe(3);
    // while the fold's own bookkeeping still knows what happened
    expect([...after.state.pods.keys()].sort()).toEqual(['a', 'late', 'other']);
  });

  it('a pod that lingers after the end is still terminated', () => {
    const outcome = given(job, ...COMPLETED, running('late', at(3))).when({ now: at(3) });
    expect(terminatedPods(outcome)).toEqual(['late']);
    expect(outcome.commands).toMatchObject([{ type: 'TerminatePod', cause: 'JobFinished' }]);
  });

  it('a failed Job keeps its failed count when more failures arrive late', () => {
    const before = given(job, failed('a', at(1)), tick(at(2))).when({ now: at(2) });
    expect(conditionsOf(before.status)).toEqual(['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded']);
    const after = given(job, failed('a', at(1)), tick(at(2)), failed('b', at(3)), failed('c', at(3)), tick(at(4))).when({ now: at(4) });
    expect(after.status).toEqual(before.status);
    expect(after.status.failed).toBe(1);
  });

  it('a Job adopted already finished reports what the cluster reported, whatever pods arrive', () => {
    const finished = aJob(
      { completions: 1 },
      {
        status: {
          startTime: at(0),
          completionTime: at(1),
          succeeded: 1,
          conditions: [
            { type: 'SuccessCriteriaMet', status: 'True', reason: 'CompletionsReached', lastTransitionTime: at(1) },
            { type: 'Complete', status: 'True', reason: 'CompletionsReached', lastTransitionTime: at(1) },
          ],
        },
      },
    );
    const outcome = given(finished, running('straggler', at(2), true), succeeded('extra', at(3))).when({ now: at(3) });
    expect(outcome.status).toMatchObject({ active: 0, ready: 0, terminating: 0, succeeded: 1, completionTime: at(1) });
  });

  it('the final status survives a snapshot', () => {
    const outcome = given(job, ...COMPLETED, running('late', at(3), true)).when({ now: at(3) });
    const copy = cloneState(outcome.state);
    expect(copy.finalStatus).toEqual(outcome.state.finalStatus);
    expect(copy.finishedAt).toBe(outcome.state.finishedAt);
    expect(copy.observedAfterFinish).toBe(outcome.state.observedAfterFinish);
  });

  it('a Job re-observed with a changed spec after the end keeps its status', () => {
    const before = given(job, ...COMPLETED).when({ now: at(2) });
    const after = given(job, ...COMPLETED, jobObserved(aJob({ completions: 1, parallelism: 1, backoffLimit: 3 }), at(3))).when({ now: at(3) });
    expect(after.status).toEqual(before.status);
  });
});

describe('Finished means finished, explained', () => {
  it('the explanation says how many observations arrived after the end', async () => {
    const { explainJob } = await import('../../../shared/job/index.ts');
    const { explain } = await import('../../../cli/print/index.ts');
    const outcome = given(job, ...COMPLETED, running('late', at(3)), podDeleted('late', at(4))).when({ now: at(4) });
    const explanation = explainJob(outcome.state, outcome.log);
    expect(explanation.afterFinish).toEqual({ finishedAt: outcome.state.finishedAt, observations: 2 });
    expect(explain(explanation)).toContain(`After the end: 2 observation(s) arrived after event #${outcome.state.finishedAt}`);
  });
});
