import { describe, expect, it } from 'vitest';
import { aJob, aPod, at, podObserved } from '../../support/builders.ts';
import { createdIndexes, given } from '../../support/job-spec.ts';

/** `count` consecutive failures, the last one finishing at `lastAt` seconds. */
const failures = (count: number, lastAt: number) =>
  Array.from({ length: count }, (_, i) =>
    podObserved(aPod({ name: `f${i}`, phase: 'Failed', finishedAt: at(lastAt - (count - 1 - i)) }), at(lastAt + 1)),
  );
const job = aJob({ backoffLimit: 100, completions: 3, parallelism: 1 });

describe('Pod recreation backoff', () => {
  describe('When a pod failed 10 seconds ago or less', () => {
    it('postpones the replacement and asks to be woken up when the delay is over', () => {
      const outcome = given(job, ...failures(1, 100)).when({ now: at(105) });
      expect(createdIndexes(outcome)).toEqual([]);
      expect(outcome.wakeAt).toBe(at(110));
    });

    it('creates the replacement once 10 seconds have passed', () => {
      const outcome = given(job, ...failures(1, 100)).when({ now: at(110) });
      expect(createdIndexes(outcome)).toHaveLength(1);
    });
  });

  describe('When several failures follow each other', () => {
    it.each([
      { count: 2, delay: 20 },
      { count: 3, delay: 40 },
      { count: 4, delay: 80 },
      { count: 7, delay: 600 },
      { count: 10, delay: 600 },
    ])('doubles the delay per failure, capped at 10 minutes ($count failures: $delay s)', ({ count, delay }) => {
      given(job, ...failures(count, 1000))
        .when({ now: at(1001) })
        .then({ wakeAt: at(1000 + delay) });
    });
  });

  describe('When a pod succeeded after the failures', () => {
    it('resets the count: nothing delays the next pod', () => {
      const success = podObserved(aPod({ name: 's', phase: 'Succeeded', finishedAt: at(1000) }), at(1001));
      const outcome = given(job, ...failures(3, 999), success).when({ now: at(1001) });
      expect(createdIndexes(outcome)).toHaveLength(1);
    });
  });

  describe('When the backoff runs and pods must be deleted', () => {
    it('deletes them anyway: only creations wait', () => {
      const excess = [podObserved(aPod({ name: 'a' }), at(1001)), podObserved(aPod({ name: 'b' }), at(1001))];
      const outcome = given(job, ...failures(1, 1000), ...excess).when({ now: at(1001) });
      expect(outcome.commands.map((c) => c.type)).toEqual(['TerminatePod']);
    });
  });
});
