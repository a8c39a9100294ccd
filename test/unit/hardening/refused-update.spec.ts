import { describe, expect, it } from 'vitest';
import { aJob, aPod, at, jobObserved, podObserved, tick, withSpec } from '../../support/builders.ts';
import { given, newConditions } from '../../support/job-spec.ts';
import { jobOutcome } from '../../../shared/job/explain.ts';
import { restoreSnapshot, takeSnapshot } from '../../../shared/job/snapshot.ts';

// Issue 14 §2: upstream refuses an invalid *update* and keeps the Job as it was. jobfold records
// the refusal with upstream's field error and goes on folding under the last valid spec.

const job = aJob({ backoffLimit: 0, parallelism: 1, completions: 1 });
const indexed = withSpec(job, { completionMode: 'Indexed' });
const running = [tick(at(0)), podObserved(aPod({ name: 'a' }), at(1))];
const refused = { ...jobObserved(indexed, at(2)), eventId: 'job/indexed' };

describe('Given a running Job, when an update changes the immutable completionMode', () => {
  it('records the refusal once, with the field path, type and message', () => {
    const outcome = given(job, ...running, refused).when({ now: at(2) });
    expect(outcome.decisions).toMatchObject([
      {
        type: 'JobUpdateRefused',
        refusedEventId: 'job/indexed',
        errors: [{ field: 'spec.completionMode', type: 'FieldValueInvalid', message: expect.stringMatching(/field is immutable/) }],
      },
    ]);
    expect(outcome.state.refusedUpdate?.errors[0]?.field).toBe('spec.completionMode');
    expect(outcome.state.settings?.indexed).toBe(false);
    expect(jobOutcome(outcome.state)).toBe('Running');
  });

  it('does not record the same refused spec again', () => {
    const again = { ...jobObserved(indexed, at(3)), eventId: 'job/indexed-again' };
    given(job, ...running, refused, again).when({ now: at(3) }).thenNothingHappened();
  });

  it('keeps deciding under the last valid spec: a failed pod still fails the Job', () => {
    const outcome = given(job, ...running, refused, podObserved(aPod({ name: 'a', phase: 'Failed' }), at(3))).when({ now: at(3) });
    expect(newConditions(outcome)).toEqual(['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded']);
  });

  it('keeps the deadline of the last valid spec', () => {
    const deadline = aJob({ activeDeadlineSeconds: 10 });
    const change = { ...jobObserved(withSpec(deadline, { completionMode: 'Indexed', completions: 1 }), at(2)), eventId: 'job/bad' };
    const outcome = given(deadline, ...running, change, tick(at(10))).when({ now: at(10) });
    expect(newConditions(outcome)).toContain('FailureTarget=True:DeadlineExceeded');
  });

  it('clears the refusal when the original spec is sent again', () => {
    const original = { ...jobObserved(job, at(3)), eventId: 'job/original' };
    const outcome = given(job, ...running, refused, original).when({ now: at(3) });
    expect(outcome.state.refusedUpdate).toBeUndefined();
  });

  it('applies a later valid change and clears the refusal', () => {
    const wider = { ...jobObserved(withSpec(job, { parallelism: 2 }), at(3)), eventId: 'job/wider' };
    const outcome = given(job, ...running, refused, wider).when({ now: at(3) });
    expect(outcome.state.refusedUpdate).toBeUndefined();
    expect(outcome.state.settings?.parallelism).toBe(2);
    expect(outcome.commands.filter((c) => c.type === 'CreatePod')).toHaveLength(0); // not managed by jobfold
  });

  it('keeps a pending refusal across a snapshot', () => {
    const { state } = given(job, ...running, refused).fold();
    const restored = restoreSnapshot(JSON.parse(JSON.stringify(takeSnapshot(state).snapshot)));
    expect(restored.refusedUpdate).toEqual(state.refusedUpdate);
    expect(restored.refusedUpdateRecorded).toBe(state.refusedUpdateRecorded);
  });
});

describe('Given a Job whose creation was refused, when a valid spec arrives', () => {
  it('folds it as the first spec and reconciles the Job from then on', () => {
    const invalid = aJob({ completions: 2, parallelism: 1, completionMode: 'Indexed', backoffLimitPerIndex: 1, maxFailedIndexes: 5 });
    const valid = { ...jobObserved(aJob({ completions: 1 }), at(1)), eventId: 'job/valid' };
    const outcome = given(invalid, valid, tick(at(2))).expectingRejection().when({ now: at(2) });
    expect(outcome.state.rejected).toBeUndefined();
    expect(jobOutcome(outcome.state)).not.toBe('Rejected');
  });
});
