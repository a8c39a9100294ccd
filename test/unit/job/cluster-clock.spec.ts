import { describe, expect, it } from 'vitest';
import type { JobEvent } from '../../../shared/job/evolve.ts';
import { aJob, aPod, at, jobObserved, podObserved, tick } from '../../support/builders.ts';
import { conditionsOf, given } from '../../support/job-spec.ts';

// The fold's clock (shared/job/cluster-clock.ts, docs/data-model.md "Time"): an observedAt counts
// as the cluster's time unless it lies beyond the allowed skew (5 min) after the platform's
// arrival time; a reconcile never runs before the newest instant read. The cases are issue 24's
// reproductions under "Time".

/** The event as the writer logs it: with the platform's arrival time beside its observedAt. */
const arriving = <E extends JobEvent>(event: E, arrivedAt: string): E => ({ ...event, arrivedAt });

const deadlineJob = aJob({ completions: 2, parallelism: 2, activeDeadlineSeconds: 3600 });
const running = (name: string, when: string) => arriving(podObserved(aPod({ name }), when), when);

describe('The cluster clock', () => {
  it('one pod event stamped 9999-12-31 does not fail a one-hour deadline: its arrival stands in', () => {
    given(deadlineJob, running('a', at(1)), running('b', at(1)), arriving(podObserved(aPod({ name: 'a', ready: at(2) }), '9999-12-31T23:59:59Z'), at(2)))
      .when()
      .then(({ status, commands, decisions }) => {
        expect(conditionsOf(status)).toEqual([]);
        expect(commands.filter((c) => c.type === 'TerminatePod')).toEqual([]);
        expect(decisions.every((d) => d.at === at(2))).toBe(true);
      });
  });

  it('a forwarder clock that steps two hours ahead does not fail the deadline either', () => {
    const stepped = new Date(Date.parse(at(120)) + 2 * 3600_000).toISOString();
    given(deadlineJob, running('a', at(1)), running('b', at(1)), arriving(podObserved(aPod({ name: 'b', ready: at(100) }), stepped), at(120)))
      .when()
      .then(({ status }) => expect(conditionsOf(status)).toEqual([]));
  });

  it('a stamp up to the skew ahead of its arrival is the cluster\'s time', () => {
    const ahead = new Date(Date.parse(at(10)) + 4 * 60_000).toISOString();
    given(deadlineJob, arriving(podObserved(aPod({ name: 'a' }), ahead), at(10))).when().then(({ decisions }) => {
      expect(decisions.map((d) => d.at)).toContain(ahead);
    });
  });

  it('a Job first seen stamped 1970 starts at its creation, not in 1970, and its deadline does not pass at once', () => {
    const job = aJob({ activeDeadlineSeconds: 3600 });
    given(null, arriving(jobObserved(job, '1970-01-01T00:00:00Z'), at(5)), running('a', at(6)))
      .when()
      .then(({ state, status }) => {
        expect(state.status.startTime).toBe(at(0));
        expect(conditionsOf(status)).toEqual([]);
      });
  });

  it('a late event stamped before the newest one read does not move the Job\'s time back', () => {
    given(deadlineJob, running('a', at(10)), arriving(podObserved(aPod({ name: 'b' }), at(3)), at(11)))
      .when()
      .then(({ decisions }) => expect(decisions.map((d) => d.at)).not.toContain(at(3)));
  });

  it('a deadline runs on the cluster\'s clock: a cluster three hours ahead fails a 1 s deadline one second after it started', () => {
    const arrival = at(60);
    const clusterNow = new Date(Date.parse(arrival) + 3 * 3600_000).toISOString();
    const job = aJob({ activeDeadlineSeconds: 1 }, { status: { startTime: clusterNow, active: 1 } });
    const started = [arriving(jobObserved(job, clusterNow), arrival), arriving(podObserved(aPod({ name: 'a' }), clusterNow), arrival)];
    const observed = given(null, ...started).when({ now: clusterNow });
    // Beyond the skew, the arrival stands in for the cluster's time, and the start with it.
    expect(observed.state.status.startTime).toBe(arrival);
    expect(observed.wakeAt).toBe(at(61));
    given(null, ...started, arriving(tick(at(61)), at(61)))
      .when()
      .then(({ status, commands }) => {
        expect(conditionsOf(status)).toEqual(['FailureTarget=True:DeadlineExceeded']);
        expect(commands.map((c) => c.type)).toEqual(['TerminatePod']);
      });
  });

  it('times are compared as instants: an offset and a fraction are later than the whole-second UTC time before them', () => {
    const first = arriving(podObserved(aPod({ name: 'a' }), '2026-01-01T00:00:39Z'), at(39));
    const offset = arriving(tick('2025-12-31T19:01:39-05:00'), at(99));
    given(deadlineJob, first, offset).when().then(({ state }) => expect(state.clock.now).toBe(Date.parse(at(99))));
    const fraction = arriving(tick('2026-01-01T00:00:39.5Z'), at(40));
    given(deadlineJob, first, fraction).when().then(({ state }) => expect(state.clock.now).toBe(Date.parse(at(39.5))));
  });
});
