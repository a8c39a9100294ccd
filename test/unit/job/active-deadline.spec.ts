import { describe, expect, it } from 'vitest';
import { aJob, aPod, at, jobObserved, podDeleted, podObserved, tick, withSpec } from '../../support/builders.ts';
import { given, newConditions, terminatedPods } from '../../support/job-spec.ts';

const job = aJob({ activeDeadlineSeconds: 10 });
const started = [tick(at(0)), podObserved(aPod({ name: 'a' }), at(1))];

describe('activeDeadlineSeconds', () => {
  describe('When the deadline has not passed', () => {
    it('asks to be woken up when it will', () => {
      given(job, ...started)
        .when({ now: at(9) })
        .thenNothingHappened()
        .then({ wakeAt: at(10) });
    });
  });

  describe('When the deadline is reached', () => {
    it('fails the Job with DeadlineExceeded at exactly startTime + activeDeadlineSeconds, deleting its pods', () => {
      const outcome = given(job, ...started)
        .when({ now: at(10) })
        .then({
          decisions: [
            { type: 'PodsTerminationRequested', cause: 'JobFinishing', reason: 'DeadlineExceeded' },
            {
              type: 'JobConditionChanged',
              condition: { type: 'FailureTarget', reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' },
              evidence: { startTime: at(0), activeDeadlineSeconds: 10 },
            },
          ],
          wakeAt: undefined,
        });
      expect(terminatedPods(outcome)).toEqual(['a']);
    });

    it('writes Failed with the same reason once the pods are gone', () => {
      given(job, ...started, tick(at(10)), podDeleted('a', at(11)))
        .when({ now: at(11) })
        .then((outcome) => expect(newConditions(outcome)).toEqual(['Failed=True:DeadlineExceeded']));
    });
  });

  describe('When backoffLimit is exceeded in the same sync', () => {
    it('reports BackoffLimitExceeded, which is checked first', () => {
      given(aJob({ activeDeadlineSeconds: 10, backoffLimit: 0 }), tick(at(0)), podObserved(aPod({ name: 'a', phase: 'Failed' }), at(20)))
        .when({ now: at(20) })
        .then((outcome) => expect(newConditions(outcome)).toEqual(['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded']));
    });
  });

  describe('When the Job is suspended', () => {
    it('never passes the deadline and asks for no wake-up', () => {
      const suspended = aJob({ activeDeadlineSeconds: 10, suspend: true });
      given(suspended, tick(at(0)), tick(at(50)))
        .when({ now: at(100) })
        .thenNothingHappened()
        .then({ wakeAt: undefined, status: { startTime: null } });
    });

    it('counts the deadline again from the resume', () => {
      given(
        job,
        ...started,
        jobObserved(withSpec(job, { suspend: true }), at(5)),
        podDeleted('a', at(6)),
        jobObserved(withSpec(job, { suspend: false }), at(8)),
        podObserved(aPod({ name: 'b' }), at(9)),
      )
        .when({ now: at(12) })
        .thenNothingHappened()
        .then({ wakeAt: at(18), status: { startTime: at(8) } });
    });

    // Upstream syncJob (at the reference commit) checks pastActiveDeadline before the Suspended
    // flip resets startTime, so the resume sync still sees the first startTime. Kubernetes 1.35+
    // with MutableSchedulingDirectivesForSuspendedJobs clears startTime on suspension instead,
    // which would give the resumed Job a fresh window. This pins the reference behaviour.
    it('fails a Job resumed after its first window ran out, as the reference controller does', () => {
      given(
        job,
        ...started,
        jobObserved(withSpec(job, { suspend: true }), at(5)),
        podDeleted('a', at(6)),
        jobObserved(withSpec(job, { suspend: false }), at(100)),
      )
        .when({ now: at(100) })
        .then((outcome) => expect(newConditions(outcome)).toEqual(['FailureTarget=True:DeadlineExceeded', 'Failed=True:DeadlineExceeded']));
    });
  });
});
