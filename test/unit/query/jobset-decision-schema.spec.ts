import { describe, expect, it } from 'vitest';
import { JobSetDecisionSchema } from '../../../functions/query/jobsets/jobset-explanation-schemas.ts';
import type { JobSetDecisionEvent } from '../../../shared/jobset/index.ts';

// Given one decision of every type the JobSet fold logs (typed against
// shared/jobset/decision-events.ts, so a new field there breaks this file), when it is served as
// JSON, then the documented schema accepts it as it is: the OpenAPI document cannot drift from
// the decisions.

const at = '2026-01-01T00:02:00Z';
const condition = { type: 'Failed', status: 'True', reason: 'FailJobSetFailurePolicyAction', message: 'm' } as const;
const failedJob = { name: 'x-simulations-2', replicatedJob: 'simulations', reason: 'PodFailurePolicy_ExitCode2', message: 'm', failedAt: at, observedAt: 14 };
const rule = { index: 0, name: 'failurePolicyRule0', action: 'FailJobSet' };

const DECISIONS: readonly JobSetDecisionEvent[] = [
  { type: 'JobSetConditionChanged', at, condition: { ...condition, type: 'RestartingJobSet', status: 'False' }, tippedBy: 35 },
  { type: 'JobSetRestarted', at, action: 'RestartJobSet', rule, failedJob, restarts: 1, restartsCountTowardsMax: 1, condition, tippedBy: 14 },
  { type: 'JobSetRestarted', at, action: 'RestartJobSetAndIgnoreMaxRestarts', rule: null, failedJob: { ...failedJob, replicatedJob: undefined, failedAt: undefined }, restarts: 2, restartsCountTowardsMax: 1, condition, tippedBy: 20 },
  { type: 'JobSetFailed', at, rule, failedJob, condition, tippedBy: 14 },
  { type: 'JobSetCompleted', at, operator: 'All', targetReplicatedJobs: [], succeededJobs: ['x-simulations-0'], required: 1, condition, tippedBy: 9 },
  { type: 'JobSetRejected', at, errors: [{ field: 'spec.replicatedJobs', type: 'FieldValueRequired', detail: 'Required value' }], tippedBy: 1 },
  { type: 'CreateJobIssued', at, commandId: 'c/0', name: 'x-simulations-0', replicatedJob: 'simulations', jobIndex: 0, restartAttempt: 0, suspend: false, parallelism: 1, completions: undefined },
  { type: 'DeleteJobIssued', at, commandId: 'c/1', name: 'x-simulations-0' },
  { type: 'SuspendJobIssued', at, commandId: 'c/2', name: 'x-simulations-0' },
  { type: 'ResumeJobIssued', at, commandId: 'c/3', name: 'x-simulations-0' },
];

describe('JobSetDecisionSchema', () => {
  it.each(DECISIONS.map((d) => [d.type, d] as const))('accepts a logged %s as served', (_type, decision) => {
    const served: unknown = JSON.parse(JSON.stringify(decision));
    expect(JobSetDecisionSchema.parse(served)).toEqual(served);
  });

  it('refuses a field the decision does not have', () => {
    expect(JobSetDecisionSchema.safeParse({ ...DECISIONS[7], extra: 1 }).success).toBe(false);
  });
});
