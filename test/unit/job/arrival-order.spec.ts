import { describe, expect, it } from 'vitest';
import { aJob, aPod, at, podDeleted, podObserved, tick } from '../../support/builders.ts';
import { given } from '../../support/job-spec.ts';

const job = aJob({ completions: 5, parallelism: 2, backoffLimit: 10 });
const running = (name: string, when: string) => podObserved(aPod({ name }), when);
const failed = (name: string, when: string) => podObserved(aPod({ name, phase: 'Failed' }), when);
const succeeded = (name: string, when: string) => podObserved(aPod({ name, phase: 'Succeeded' }), when);

describe('Arrival order', () => {
  describe('When an older state of a pod arrives after a newer one', () => {
    it('never moves the pod’s phase back', () => {
      given(job, running('b', at(1)), succeeded('a', at(1)), running('a', at(2)))
        .when({ now: at(2) })
        .thenStatus({ succeeded: 1, active: 2 });
    });

    it('keeps a terminal phase final, whichever terminal phase comes second', () => {
      given(job, running('b', at(1)), failed('a', at(1)), succeeded('a', at(2)))
        .when({ now: at(2) })
        .thenStatus({ succeeded: 0, failed: 1 });
    });
  });

  describe('When the same observation is replayed', () => {
    it('changes nothing', () => {
      const event = failed('a', at(1));
      const first = given(job, running('b', at(1)), event, tick(at(2))).when({ now: at(2) });
      given(job, running('b', at(1)), event, tick(at(2)), event).when({ now: at(2) }).thenNothingHappened().thenStatus(first.status);
    });

    it('changes nothing when the same pod state is reported again under a new event id', () => {
      const again = { ...failed('a', at(3)), eventId: 'another-id' };
      given(job, running('b', at(1)), failed('a', at(1)), again).when({ now: at(3) }).thenNothingHappened().thenStatus({ failed: 1 });
    });
  });

  describe('When a pod’s terminal observation and its PodDeleted arrive in either order', () => {
    it('counts it once when the terminal state comes first', () => {
      given(job, running('b', at(1)), failed('a', at(1)), podDeleted('a', at(2)))
        .when({ now: at(2) })
        .thenStatus({ failed: 1 });
    });

    it('counts it once when PodDeleted comes first', () => {
      given(job, running('b', at(1)), podDeleted('a', at(1)), failed('a', at(2)))
        .when({ now: at(2) })
        .thenStatus({ failed: 1 });
    });

    it('counts it once when the terminal state comes after it was seen running and gone', () => {
      given(job, running('a', at(1)), running('b', at(1)), podDeleted('a', at(2)), failed('a', at(3)), failed('a', at(4)))
        .when({ now: at(4) })
        .thenStatus({ failed: 1 });
    });
  });

  describe('When the pods a reconcile created are first seen through their PodDeleted', () => {
    it('counts them as seen, as a first observation would, and goes on', () => {
      const job = aJob({ completions: 2, parallelism: 1, backoffLimit: 0 });
      const observedFirst = given(job, tick(at(0)), failed('a', at(1)), podDeleted('a', at(1))).when({ now: at(1) });
      given(job, tick(at(0)), podDeleted('a', at(1)), failed('a', at(1)))
        .when({ now: at(1) })
        .then({ decisions: observedFirst.decisions.map(({ type }) => ({ type })) })
        .thenStatus(observedFirst.status);
      expect(observedFirst.status.conditions.map((c) => c.type)).toEqual(['FailureTarget', 'Failed']);
    });
  });

  describe('When the Job is reconciled many times while a pod refuses to go', () => {
    it('asks to terminate each pod at most once', () => {
      const outcome = given(
        aJob({ backoffLimit: 0, parallelism: 2, completions: 2 }),
        running('stuck', at(1)),
        failed('a', at(1)),
        tick(at(2)),
        running('stuck', at(3)),
        tick(at(60)),
        tick(at(400)),
      ).when({ now: at(1000) });
      const terminations = [...outcome.history.flatMap((h) => h.commands), ...outcome.commands].filter((c) => c.type === 'TerminatePod');
      expect(terminations.map((c) => c.type === 'TerminatePod' && c.podName)).toEqual(['stuck']);
    });
  });
});
