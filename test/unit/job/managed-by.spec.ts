import { describe, expect, it } from 'vitest';
import { JOBFOLD_CONTROLLER_NAME, JOB_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import { aJob, aPod, at, podObserved, tick } from '../../support/builders.ts';
import { given } from '../../support/job-spec.ts';

describe('managedBy', () => {
  describe('When another controller manages the Job', () => {
    it('decides nothing, whatever its pods do', () => {
      given(aJob({ managedBy: 'example.com/other', backoffLimit: 0 }), podObserved(aPod({ name: 'a', phase: 'Failed' }), at(1)))
        .when({ now: at(1) })
        .thenNothingHappened();
    });
  });

  describe('When managedBy is unset or names the built-in controller', () => {
    it.each([undefined, JOB_CONTROLLER_NAME])('reconciles the Job (managedBy %s) without writing its status', (managedBy) => {
      const outcome = given(aJob({ managedBy })).when({ now: at(0) });
      expect(outcome.commands.map((c) => c.type)).toEqual(['CreatePod']);
    });
  });

  describe('When jobfold manages the Job', () => {
    const job = aJob({ managedBy: JOBFOLD_CONTROLLER_NAME, completions: 2, parallelism: 2 });

    it('sends the status it computed with an UpdateJobStatus command', () => {
      given(job)
        .when({ now: at(0) })
        .then({
          decisions: [{ type: 'StartTimeSet' }, { type: 'PodCreationsRequested', count: 2 }, { type: 'JobStatusSent' }],
          commands: [
            { type: 'CreatePod' },
            { type: 'CreatePod' },
            {
              type: 'UpdateJobStatus',
              jobName: 'myjob',
              jobUid: 'job-uid',
              status: { active: 2, ready: 0, terminating: 0, succeeded: 0, failed: 0, startTime: at(0), conditions: [] },
            },
          ],
        });
    });

    it('does not send the same status twice', () => {
      given(job, tick(at(0)), podObserved(aPod({ name: 'a' }), at(1)), podObserved(aPod({ name: 'b' }), at(1)), tick(at(2)))
        .when({ now: at(3) })
        .thenNothingHappened();
    });

    it('sends the status again when it changes', () => {
      const outcome = given(job, tick(at(0)), podObserved(aPod({ name: 'a' }), at(1)), podObserved(aPod({ name: 'b', phase: 'Succeeded' }), at(2)))
        .when({ now: at(2) });
      const update = outcome.commands.find((c) => c.type === 'UpdateJobStatus');
      expect(update).toMatchObject({ status: { succeeded: 1 } });
    });
  });
});
