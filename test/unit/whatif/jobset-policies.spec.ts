import { describe, expect, it } from 'vitest';
import { JobSetScenarioSchema } from '../../../cli/scenario/jobset-scenario.ts';
import { playJobSetScenario } from '../../../cli/scenario/play-jobset-scenario.ts';
import { whatIfJobSet } from '../../../shared/whatif/what-if.ts';
import { WhatIfPatchError } from '../../../shared/whatif/patch.ts';

// Given a recorded JobSet history (a JobSet scenario played as `jobfold replay` plays it), when
// it is refolded under a patched failure or success policy, then the what-if names the
// outcome, the reconcile where the two folds first decide differently, and why (the rule and
// the child Job each side acted on). Outcomes and positions below are worked out by hand from
// the log printed in the comments.

const LABEL = { rj: 'jobset.sigs.k8s.io/replicatedjob-name', index: 'jobset.sigs.k8s.io/job-index', attempt: 'jobset.sigs.k8s.io/restart-attempt' };
const at = (s: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + s * 1000).toISOString().replace('.000', '');

function child(replicatedJob: string, index: number, attempt: number, end: 'Complete' | 'Failed', reason: string) {
  return {
    metadata: { name: `train-${replicatedJob}-${index}`, labels: { [LABEL.rj]: replicatedJob, [LABEL.index]: String(index), [LABEL.attempt]: String(attempt) } },
    status: {
      ...(end === 'Complete' ? { succeeded: 1 } : { failed: 1 }),
      conditions: [{ type: end, status: 'True', reason, message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }],
    },
  };
}

function record(spec: Record<string, unknown>, events: unknown[]) {
  const scenario = JobSetScenarioSchema.parse({ id: 'whatif', jobset: { metadata: { namespace: 'default', name: 'train', uid: 'train-uid' }, spec }, events });
  return playJobSetScenario(scenario).log;
}

const WORKERS = { name: 'workers', replicas: 2, template: { spec: { parallelism: 1, completions: 1, completionMode: 'Indexed' } } };

// 1 JobSetObserved, 2-3 CreateJobIssued, 4 workers-0 Failed (BackoffLimitExceeded), 5 JobSetRestarted,
// 6-7 DeleteJobIssued, 8 JobDeleted, 9 CreateJobIssued, 10 JobDeleted, 11 CreateJobIssued,
// 12-13 both attempt-1 Jobs Complete, 14-16 Completed (AllJobsCompleted).
const restartedThenCompleted = (failurePolicy: Record<string, unknown>) =>
  record({ replicatedJobs: [WORKERS], failurePolicy }, [
    { type: 'JobStatus', at: at(5), job: child('workers', 0, 0, 'Failed', 'BackoffLimitExceeded') },
    { type: 'JobDeleted', at: at(10), name: 'train-workers-0' },
    { type: 'JobDeleted', at: at(11), name: 'train-workers-1' },
    { type: 'JobStatusBatch', at: at(60), jobs: [child('workers', 0, 1, 'Complete', 'CompletionsReached'), child('workers', 1, 1, 'Complete', 'CompletionsReached')] },
  ]);

describe('JobSet what-if: failure policy', () => {
  const log = restartedThenCompleted({ maxRestarts: 2 });

  it('a named FailJobSet rule fails the JobSet at the first failure instead of restarting it', () => {
    const patch = { spec: { failurePolicy: { maxRestarts: 2, rules: [{ name: 'failFast', action: 'FailJobSet', onJobFailureReasons: ['BackoffLimitExceeded'] }] } } };
    const report = whatIfJobSet({ log, patch });
    expect(report.recorded).toEqual({ outcome: 'Succeeded', condition: 'Completed', reason: 'AllJobsCompleted', atEvent: 13, at: at(60), restarts: 1 });
    expect(report.whatIf).toEqual({ outcome: 'Failed', condition: 'Failed', reason: 'FailJobSetFailurePolicyAction', atEvent: 4, at: at(5), restarts: 0, exact: true });
    expect(report.divergesAtEvent).toBe(4);
    expect(report.divergence?.recorded[0]).toEqual({
      kind: 'restarted', rule: 'no rule matched (default action)', action: 'RestartJobSet', failedJob: 'train-workers-0', jobReason: 'BackoffLimitExceeded', restarts: 1,
    });
    expect(report.divergence?.whatIf[0]).toEqual({
      kind: 'failed', rule: 'failFast (rule 0, FailJobSet)', failedJob: 'train-workers-0', jobReason: 'BackoffLimitExceeded', reason: 'FailJobSetFailurePolicyAction',
    });
  });

  it('maxRestarts 0 fails it with ReachedMaxRestarts at the same reconcile', () => {
    const report = whatIfJobSet({ log, patch: { spec: { failurePolicy: { maxRestarts: 0 } } } });
    expect(report.whatIf).toMatchObject({ outcome: 'Failed', reason: 'ReachedMaxRestarts', atEvent: 4, exact: true });
    expect(report.divergesAtEvent).toBe(4);
  });

  it('a rule that does not match the failure, or a restated policy, changes nothing', () => {
    for (const patch of [{}, { spec: {} }, { spec: { failurePolicy: { maxRestarts: 2 } } },
      { spec: { failurePolicy: { maxRestarts: 2, rules: [{ name: 'other', action: 'FailJobSet', onJobFailureReasons: ['DeadlineExceeded'] }] } } }]) {
      const report = whatIfJobSet({ log, patch });
      expect(report.divergesAtEvent).toBeNull();
      expect(report.whatIf).toEqual({ ...report.recorded, exact: true });
    }
  });

  it('a restart where the record failed is exact up to the restart, and unknown past it', () => {
    const failedLog = record({ replicatedJobs: [WORKERS], failurePolicy: { maxRestarts: 0 } }, [
      { type: 'JobStatus', at: at(5), job: child('workers', 0, 0, 'Failed', 'BackoffLimitExceeded') },
    ]);
    const report = whatIfJobSet({ log: failedLog, patch: { spec: { failurePolicy: { maxRestarts: 1 } } } });
    expect(report.recorded).toMatchObject({ outcome: 'Failed', reason: 'ReachedMaxRestarts', atEvent: 4 });
    expect(report.whatIf).toEqual({ outcome: 'Running', condition: null, reason: null, atEvent: null, at: null, restarts: 1, exact: false });
    expect(report.divergence?.whatIf[0]).toMatchObject({ kind: 'restarted', restarts: 1 });
  });
});

describe('JobSet what-if: success policy', () => {
  // 1 JobSetObserved, 2-3 CreateJobIssued, 4 leader-0 Complete (t=10), 5 workers-0 Complete (t=50),
  // 6 Completed (AllJobsCompleted) at t=50.
  const LEADER = { ...WORKERS, name: 'leader', replicas: 1 };
  const log = record({ replicatedJobs: [LEADER, { ...WORKERS, replicas: 1 }] }, [
    { type: 'JobStatus', at: at(10), job: child('leader', 0, 0, 'Complete', 'CompletionsReached') },
    { type: 'JobStatus', at: at(50), job: child('workers', 0, 0, 'Complete', 'CompletionsReached') },
  ]);

  it('Any on the leader completes the JobSet when the leader succeeds, 40 s earlier', () => {
    const report = whatIfJobSet({ log, patch: { spec: { successPolicy: { operator: 'Any', targetReplicatedJobs: ['leader'] } } } });
    expect(report.recorded).toMatchObject({ outcome: 'Succeeded', reason: 'AllJobsCompleted', at: at(50) });
    expect(report.whatIf).toMatchObject({ outcome: 'Succeeded', condition: 'Completed', reason: 'AllJobsCompleted', atEvent: 4, at: at(10), exact: true });
    expect(report.divergesAtEvent).toBe(4);
    expect(report.divergence?.recorded).toEqual([]);
    expect(report.divergence?.whatIf[0]).toEqual({ kind: 'completed', operator: 'Any', succeededJobs: 1, required: 1, reason: 'AllJobsCompleted' });
  });
});

describe('JobSet what-if: the patch', () => {
  const log = restartedThenCompleted({ maxRestarts: 2 });

  it('is validated as admission validates a JobSet: upstream\'s path and message', () => {
    const refused = () => whatIfJobSet({ log, patch: { spec: { failurePolicy: { rules: [{ name: 'x', action: 'Bogus' }] } } } });
    expect(refused).toThrow(WhatIfPatchError);
    expect(refused).toThrow('spec.failurePolicy.rules[0].action: Unsupported value: "Bogus"');
  });

  it('may not change the replicated Jobs, whose recorded statuses are the evidence', () => {
    expect(() => whatIfJobSet({ log, patch: { spec: { replicatedJobs: [] } } })).toThrow('spec.replicatedJobs: Forbidden');
    expect(() => whatIfJobSet({ log, patch: { metadata: { name: 'x' } } })).toThrow('metadata: Forbidden: a what-if patches spec only');
  });
});
