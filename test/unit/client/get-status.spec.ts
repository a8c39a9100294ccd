import { describe, expect, it } from 'vitest';
import type { JobSummary } from '../../../shared/log/event-store.ts';
import { GET_HELP, statusColumn } from '../../../cli/client/get-command.ts';

// `jobfold get jobs` shows what needs an operator in STATUS, comma-separated after the
// condition, as kubectl writes `Ready,SchedulingDisabled`.

const job: JobSummary = {
  kind: 'Job', clusterId: 'c1', namespace: 'default', name: 'j', uid: 'u',
  createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
};

describe('the STATUS column', () => {
  it('is the true condition, or Running', () => {
    expect(statusColumn(job)).toBe('Running');
    expect(statusColumn({ ...job, latestCondition: { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' } })).toBe('Failed');
  });

  it('adds Stalled and UpdateRefused', () => {
    const stalled = { error: 'StoreLimitError: …', since: '2026-01-01T00:00:01Z' };
    const refusedUpdate = { eventId: 'e', errors: ['spec.completionMode: Invalid value: "Indexed": field is immutable'] };
    expect(statusColumn({ ...job, stalled })).toBe('Running,Stalled');
    expect(statusColumn({ ...job, refusedUpdate })).toBe('Running,UpdateRefused');
    expect(statusColumn({ ...job, latestCondition: { type: 'Complete', status: 'True' }, stalled, refusedUpdate })).toBe('Complete,Stalled,UpdateRefused');
  });

  it('is explained in --help', () => {
    expect(GET_HELP).toContain('Stalled');
    expect(GET_HELP).toContain('UpdateRefused');
  });
});
