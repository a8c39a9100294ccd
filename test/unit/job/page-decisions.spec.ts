import { describe, expect, it } from 'vitest';
import type { DecisionOf } from '../../../shared/job/decisions.ts';
import { evolve, type JobEvent } from '../../../shared/job/evolve.ts';
import { DEFAULT_FOLD_CONFIG, initialState } from '../../../shared/job/state.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { pageDecisions } from '../../../shared/job/page-decisions.ts';
import { anIndexedJob, aPod, at, jobObserved, podObserved } from '../../support/builders.ts';

// Given a termination decision over many pods, when it is logged in pages, then the pages fold
// exactly as the whole decision would, and every pod is in exactly one page.

const PODS = 300;
const job = anIndexedJob(PODS);
const observations: JobEvent[] = [jobObserved(job, at(0)), ...Array.from({ length: PODS }, (_, i) => podObserved(aPod({ index: i }), at(1)))];
const whole: DecisionOf<'PodsTerminationRequested'> = {
  type: 'PodsTerminationRequested',
  eventId: 'job-uid/301/0',
  at: at(2),
  cause: 'JobFinishing',
  reason: 'SuccessPolicy',
  message: 'Matched rules at index 0',
  finalizersRemoved: false,
  pods: Array.from({ length: PODS }, (_, i) => ({ uid: `pod-${i}`, name: `pod-${i}`, index: i, seq: i + 2 })),
};

function foldAll(events: readonly JobEvent[]) {
  const state = initialState(DEFAULT_FOLD_CONFIG);
  events.forEach((event, i) => evolve(state, { ...event, seq: i + 1 } as JobEvent));
  return state;
}

describe('pageDecisions', () => {
  it('splits a large termination into pages of at most the page size, each pod once', () => {
    const pages = pageDecisions([whole], 1024) as DecisionOf<'PodsTerminationRequested'>[];
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.flatMap((p) => p.pods)).toEqual(whole.pods);
    expect(pages.map((p) => p.page)).toEqual([undefined, ...pages.slice(1).map((_, i) => i + 1)]);
    expect(pages[1]?.eventId).toBe('job-uid/301/0/page/1');
    for (const page of pages) expect(JSON.stringify(page.pods).length).toBeLessThanOrEqual(1024 + 200);
  });

  it('leaves small decisions and other decisions as they are', () => {
    expect(pageDecisions([whole])).toEqual([whole]);
  });

  it('folds pages exactly as the whole decision: status, and the deletions expected of every page', () => {
    const paged = foldAll([...observations, ...pageDecisions([whole], 1024)]);
    const single = foldAll([...observations, whole]);
    expect(jobStatus(paged)).toEqual(jobStatus(single));
    expect([...paged.expectations.deletions].sort()).toEqual([...single.expectations.deletions].sort());
    expect(paged.expectations.deletions.size).toBe(PODS);
  });
});
