import { describe, expect, it } from 'vitest';
import { childJobStatusEntry } from '../../../shared/job/child-job-status.ts';
import { evolve, type JobEvent } from '../../../shared/job/evolve.ts';
import { initialState } from '../../../shared/job/state.ts';
import { knownObservation } from '../../../shared/job/known-observation.ts';
import { cloneState } from '../../../shared/job/snapshot.ts';
import { JobSchema } from '../../../shared/k8s/job.ts';
import { aPod, at, jobObserved, podObserved } from '../../support/builders.ts';

// A child Job's status goes to its JobSet's log named by its content and its version: an
// unchanged status is stored once, and a status that comes back to an earlier value (ready
// 1 → 0 → 1) is a new entry, so the JobSet hears of it each time.

const child = JobSchema.parse({
  metadata: {
    name: 'js-a-0',
    namespace: 'default',
    uid: 'child-uid',
    creationTimestamp: at(0),
    labels: { 'jobset.sigs.k8s.io/replicatedjob-name': 'a', 'jobset.sigs.k8s.io/restart-attempt': '0' },
    ownerReferences: [{ apiVersion: 'jobset.x-k8s.io/v1alpha2', kind: 'JobSet', name: 'js', uid: 'js-uid', controller: true }],
  },
  spec: { completions: 1, parallelism: 1, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main' }] } } },
});

const readiness = (ready: boolean, seconds: number) =>
  podObserved(aPod({ name: 'p', ...(ready ? { ready: at(seconds) } : { conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: at(seconds) }] }) }), at(seconds));

describe('a child Job status reported to its JobSet', () => {
  it('is a new entry each time it changes, also back to an earlier value; the same entry while unchanged', () => {
    const state = initialState();
    const ids: string[] = [];
    const report = (event: JobEvent) => {
      evolve(state, event);
      const entry = childJobStatusEntry(state, event.type === 'Tick' ? event.observedAt : at(9));
      ids.push(entry?.entry.eventId ?? 'none');
    };
    report(jobObserved(child, at(0)));
    report(readiness(true, 1)); // ready 1
    report(readiness(false, 2)); // ready 0
    report(readiness(true, 3)); // ready 1 again
    const [, ready1, ready0, readyAgain] = ids;
    expect(new Set([ready1, ready0, readyAgain]).size).toBe(3);
    // the same status again (a replayed observation) keeps its name: stored once
    evolve(state, { ...readiness(true, 3), eventId: 'replayed' });
    expect(childJobStatusEntry(state, at(9))?.entry.eventId).toBe(readyAgain);
    // and the name survives a snapshot
    expect(childJobStatusEntry(cloneState(state), at(9))?.entry.eventId).toBe(readyAgain);
  });

  it('carries the Job log position as its order stamp', () => {
    const state = initialState();
    evolve(state, jobObserved(child, at(0)));
    evolve(state, readiness(true, 1));
    const body = childJobStatusEntry(state, at(1))?.entry.body as { sequence: { epoch: number; seq: number } };
    expect(body.sequence).toEqual({ epoch: 0, seq: state.position });
  });
});

// Issue 21 for JobSets jobfold runs: the JobSet's log waits for each `jobSetSeq` the forwarder
// stamped on its Jobs' events (shared/jobset/child-counts.ts), and learns them from these entries.
describe("a child Job status reported after a sync that folded counted Job events", () => {
  const counted = (observedAt: string, jobSetSeq: number, seq: number) => ({ ...jobObserved(child, observedAt), eventId: `job/${jobSetSeq}`, sequence: { epoch: 7, seq, jobSetSeq } });
  const bodyOf = (entry: ReturnType<typeof childJobStatusEntry>) => entry?.entry.body as { jobSetSeq?: { epoch: number; counts: number[] } };

  it('carries their counts and is a new entry even when the status did not change; a sync without one carries none', () => {
    const state = initialState();
    evolve(state, counted(at(0), 1, 1));
    const first = childJobStatusEntry(state, at(0));
    expect(bodyOf(first)?.jobSetSeq).toEqual({ epoch: 7, counts: [1] });
    evolve(state, counted(at(2), 4, 2)); // the same Job, unchanged status, a later count
    const second = childJobStatusEntry(state, at(2));
    expect(bodyOf(second)?.jobSetSeq).toEqual({ epoch: 7, counts: [4] });
    expect(second?.entry.eventId).not.toBe(first?.entry.eventId);
    evolve(state, readiness(true, 3));
    expect(bodyOf(childJobStatusEntry(state, at(3)))?.jobSetSeq).toBeUndefined();
  });

  it('carries every count folded at its instant, and keeps them across a snapshot', () => {
    const state = initialState();
    evolve(state, counted(at(1), 2, 1));
    evolve(state, counted(at(1), 5, 2));
    expect(bodyOf(childJobStatusEntry(state, at(1)))?.jobSetSeq).toEqual({ epoch: 7, counts: [2, 5] });
    expect(bodyOf(childJobStatusEntry(cloneState(state), at(1)))?.jobSetSeq).toEqual({ epoch: 7, counts: [2, 5] });
  });

  it('is logged though older than the Job observation folded (its count is awaited), and not when replayed by eventId', () => {
    const state = initialState();
    evolve(state, counted(at(2), 5, 2));
    expect(knownObservation(state, counted(at(1), 3, 1))).toBeUndefined();
    expect(knownObservation(state, counted(at(2), 5, 2))).toBe('same-event');
  });
});
