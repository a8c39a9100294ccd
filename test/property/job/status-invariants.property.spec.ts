import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JobCondition } from '../../../shared/job/conditions.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import { jobStatus, type JobStatusView } from '../../../shared/job/status.ts';
import { historyArb, jobArb } from './arbitraries.ts';
import { drive, startJob } from './drive.ts';

// The status rules the API server enforces on a Job (validateJobStatus / ValidateJobStatusUpdate):
// the rules on one status after every event the fold takes in and after every reconcile; the
// rules on an update (counters never decrease, final conditions never revert) from one reconcile
// to the next, since the controller writes its status once per sync. Inside one run of
// observations (one observedAt, what one sync reads) a later observation of a pod may take back
// a count an earlier one made (shared/job/run.ts), so `failed` may dip between two syncs.
// The one exception is jobfold's own model of a Job it does not run: a JobOutcomeCorrected entry
// takes back an outcome decided on the evidence that arrived first (outcome-correction.ts), with
// what finishing counted; it is checked to happen only for such Jobs, and to leave one outcome.
// Not checked: completedIndexes and failedIndexes never overlapping. Like upstream
// (calculateSucceededIndexes / calculateFailedIndexes), the fold can mark an index both succeeded
// and failed when pods of one index both succeed and fail at the limit, which random histories
// produce but a cluster running one pod per index at a time does not.

const caseArb = jobArb.chain((job) => fc.record({ job: fc.constant(job), batches: historyArb(job) }));
const FINAL_TYPES = ['Complete', 'Failed', 'FailureTarget', 'SuccessCriteriaMet'];

const isTrue = (status: JobStatusView, type: string) => status.conditions.some((c) => c.type === type && c.status === 'True');
const trueCondition = (status: JobStatusView, type: string): JobCondition | undefined =>
  status.conditions.find((c) => c.type === type && c.status === 'True');

/** The rules that hold for any one status. */
function checkStatus(status: JobStatusView): void {
  expect(isTrue(status, 'Complete') && isTrue(status, 'Failed'), 'Complete with Failed').toBe(false);
  expect(isTrue(status, 'SuccessCriteriaMet') && isTrue(status, 'FailureTarget'), 'SuccessCriteriaMet with FailureTarget').toBe(false);
  expect(isTrue(status, 'Complete') && isTrue(status, 'FailureTarget'), 'Complete with FailureTarget').toBe(false);
  expect(isTrue(status, 'Failed') && isTrue(status, 'SuccessCriteriaMet'), 'Failed with SuccessCriteriaMet').toBe(false);
  if (isTrue(status, 'Complete')) expect(isTrue(status, 'SuccessCriteriaMet'), 'Complete without SuccessCriteriaMet').toBe(true);
  if (isTrue(status, 'Failed')) expect(isTrue(status, 'FailureTarget'), 'Failed without FailureTarget').toBe(true);
  expect(status.completionTime !== null, 'completionTime only with Complete').toBe(isTrue(status, 'Complete'));
  expect(status.ready, 'ready <= active').toBeLessThanOrEqual(status.active);
  expect(Math.min(status.active, status.ready, status.terminating, status.succeeded, status.failed)).toBeGreaterThanOrEqual(0);
}

/** The rules that compare a status with the one before it. */
function checkTransition(before: JobStatusView, after: JobStatusView): void {
  for (const type of FINAL_TYPES) {
    const was = trueCondition(before, type);
    if (was) expect(trueCondition(after, type), `${type} reverted`).toMatchObject({ reason: was.reason, message: was.message });
  }
  expect(after.succeeded, 'succeeded decreased').toBeGreaterThanOrEqual(before.succeeded);
  expect(after.failed, 'failed decreased').toBeGreaterThanOrEqual(before.failed);
}

describe('Status invariants (property)', () => {
  it('hold after every event and every reconcile', () => {
    fc.assert(
      fc.property(caseArb, ({ job, batches }) => {
        const state = startJob(job);
        let synced = jobStatus(state);
        drive(state, batches, {
          afterEvent: (s) => checkStatus(jobStatus(s)),
          afterReconcile: (s, { status, decisions }) => {
            checkStatus(status);
            const corrected = decisions.some((d) => d.type === 'JobOutcomeCorrected');
            if (corrected) expect(s.settings?.managedBy, 'a Job jobfold runs corrected').not.toBe(JOBFOLD_CONTROLLER_NAME);
            else checkTransition(synced, status);
            synced = status;
            // Finished: nothing active, counting the pods asked for and not seen yet.
            if (isTrue(status, 'Complete') || isTrue(status, 'Failed')) expect(status.active, 'active pods of a finished Job').toBe(0);
          },
        });
      }),
      { numRuns: 200 },
    );
  });
});
