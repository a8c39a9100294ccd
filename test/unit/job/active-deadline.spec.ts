import { describe, expect, it } from 'vitest';
import { aJob, aPod, at, jobObserved, podDeleted, podObserved, tick, withSpec } from '../../support/builders.ts';
import { given, newConditions, terminatedPods } from '../../support/job-spec.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { resumedStart } from '../../../shared/job/resumption-start.ts';

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

// A Job jobfold runs: its own sync on a resumption resets the start time, as upstream's does; a
// resumption it read late (an older observation arriving after newer ones) resets it too, to the
// resumption's instant (shared/job/resumption-start.ts; managed generated histories, seed 21
// history-42, seed 7 history-30, seed 8 history-31, seed 99 history-50 and history-52).
describe('activeDeadlineSeconds of a Job jobfold runs, its suspension and resumption read late', () => {
  const managed = aJob({ activeDeadlineSeconds: 10, managedBy: JOBFOLD_CONTROLLER_NAME, suspend: false });
  const version = (j: Job, resourceVersion: string): Job => ({ ...j, metadata: { ...j.metadata, resourceVersion } });
  const created = version(managed, '1');
  const suspended = version(withSpec(managed, { suspend: true }), '2');
  const resumed = version(withSpec(managed, { suspend: false }), '3');
  // jobfold's first sync starts the Job and asks for its pod, seen at 1.
  const start = [tick(at(0)), podObserved(aPod({ name: 'a' }), at(1))];

  it('given the Job started at 0, its resumption at 8 and then its suspension at 5 arriving, when reconciled at 12, then the deadline runs from 8', () => {
    given(created, ...start, jobObserved(resumed, at(8)), jobObserved(suspended, at(5)))
      .when({ now: at(12) })
      .then({ decisions: [{ type: 'StartTimeSet', startTime: at(8) }, { type: 'JobStatusSent' }], wakeAt: at(18), status: { startTime: at(8) } });
  });

  it('given the same, when reconciled at 18, then the Job fails with DeadlineExceeded from the resumption', () => {
    given(created, ...start, jobObserved(resumed, at(8)), jobObserved(suspended, at(5)), tick(at(12)))
      .when({ now: at(18) })
      .then((outcome) => {
        expect(newConditions(outcome)).toContain('FailureTarget=True:DeadlineExceeded');
        expect(outcome.decisions).toContainEqual(expect.objectContaining({ type: 'JobConditionChanged', evidence: expect.objectContaining({ startTime: at(8) }) }));
      });
  });

  it('given a deadline passed on the first start before the resumption (at 12), when reconciled at 13 after the suspension at 5 arrived, then the Job stays failed, as the resuming sync of the cluster failed it', () => {
    given(created, ...start, jobObserved(resumed, at(12)), jobObserved(suspended, at(5)))
      .when({ now: at(13) })
      .then((outcome) => expect(outcome.status.conditions.map((c) => `${c.type}:${c.reason}`)).toContain('FailureTarget:DeadlineExceeded'));
  });

  it('given a suspension and a resumption of one instant (one sync read both), when reconciled at 10, then the start was not moved: the deadline passes', () => {
    given(created, ...start, jobObserved(resumed, at(5)), jobObserved(suspended, at(5)), tick(at(9)))
      .when({ now: at(10) })
      .then((outcome) => expect(newConditions(outcome)).toContain('FailureTarget=True:DeadlineExceeded'));
  });
});

describe('resumedStart', () => {
  const s = (sec: number) => Date.parse(at(sec));
  const entry = (sec: number, suspend: boolean, version?: string) => ({ at: s(sec), suspend, ...(version === undefined ? {} : { version }) });

  it('moves the start to each later resumption, of each instant the newest observation', () => {
    expect(resumedStart([entry(0, false), entry(5, true), entry(8, false), entry(20, true), entry(25, false)], s(0), 100, s(30))).toBe(s(25));
  });

  it('keeps the start when the deadline passed before the resumption', () => {
    expect(resumedStart([entry(0, false), entry(5, true), entry(12, false)], s(0), 10, s(30))).toBe(s(0));
  });

  it('moves it from a start whose own instant was suspended last', () => {
    expect(resumedStart([entry(0, false, '1'), entry(0, true, '2'), entry(7, false, '3')], s(0), 900, s(30))).toBe(s(7));
  });

  it('ignores what lies after now, and a resumption before the start', () => {
    expect(resumedStart([entry(0, true), entry(2, false), entry(5, true), entry(40, false)], s(3), 100, s(30))).toBe(s(3));
  });
});
