import { describe, expect, it } from 'vitest';
import { updateCondition, type JobSetCondition } from '../../../shared/jobset/conditions.ts';

const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T00:01:00Z';
const restarting = (status: 'True' | 'False', reason: string): JobSetCondition => ({
  type: 'RestartingJobSet', status, reason, message: reason, lastTransitionTime: T0,
});

describe('updateCondition', () => {
  it('never adds a condition with status False', () => {
    const none: JobSetCondition[] = [];
    expect(updateCondition(none, { type: 'Suspended', status: 'False', reason: 'ResumeJobs', message: 'jobset is resumed' }, T1)).toBe(none);
  });

  it('replaces a condition whose status changes, with a new transition time', () => {
    const next = updateCondition([restarting('True', 'DefaultFailurePolicy')], { type: 'RestartingJobSet', status: 'False', reason: 'JobsReady', message: 'all jobs are ready' }, T1);
    expect(next).toEqual([{ type: 'RestartingJobSet', status: 'False', reason: 'JobsReady', message: 'all jobs are ready', lastTransitionTime: T1 }]);
  });

  it('updates reason and message in place when only they change, keeping the transition time', () => {
    const next = updateCondition([restarting('False', 'JobsReady')], { type: 'RestartingJobSet', status: 'False', reason: 'JobSetCompleted', message: 'jobset completed successfully' }, T1);
    expect(next).toEqual([{ type: 'RestartingJobSet', status: 'False', reason: 'JobSetCompleted', message: 'jobset completed successfully', lastTransitionTime: T0 }]);
  });

  it('changes nothing on an identical write', () => {
    const current = [restarting('False', 'JobsReady')];
    expect(updateCondition(current, { type: 'RestartingJobSet', status: 'False', reason: 'JobsReady', message: 'JobsReady' }, T1)).toBe(current);
  });

  it('sets the other startup condition False without touching its reason, message or time', () => {
    const inProgress: JobSetCondition = {
      type: 'StartupPolicyInProgress', status: 'True', reason: 'InOrderStartupPolicyInProgress', message: 'in order startup policy is in progress', lastTransitionTime: T0,
    };
    const next = updateCondition([inProgress], { type: 'StartupPolicyCompleted', status: 'True', reason: 'InOrderStartupPolicyCompleted', message: 'in order startup policy has completed' }, T1);
    expect(next[0]).toEqual({ ...inProgress, status: 'False' });
    expect(next[1]?.type).toBe('StartupPolicyCompleted');
  });
});
