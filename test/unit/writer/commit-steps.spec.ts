import { describe, expect, it } from 'vitest';
import type { NewEntry } from '../../../shared/log/event-store.ts';
import { checkCommit, pagedEntryBytes } from '../../../shared/log/event-store-limits.ts';
import { commitSteps, stepOutboxItems, type PlannedEntry } from '../../../shared/outbox/commit-steps.ts';
import type { TerminationPage } from '../../../shared/outbox/outbox-page.ts';

// Commit steps as the log writer cuts them: log pages have no entry cap, only bytes; a run's
// last observation stays in the step of its sync's first decision.

const entry = (i: number, bytes = 100): NewEntry => ({ eventId: `e${String(i).padStart(4, "0")}`, type: 'PodObserved', observedAt: '2026-01-01T00:00:00Z', body: { pad: 'x'.repeat(bytes) } });
const planned = (entries: NewEntry[], withNext: number[] = []): PlannedEntry[] =>
  entries.map((e, i) => ({ entry: e, inline: [], ...(withNext.includes(i) ? { withNext: true } : {}) }));
const recordedAt = '2026-06-01T00:00:00Z';

describe('commit steps of log pages', () => {
  it('take any number of entries while their bytes fit, and cut at twice the bytes into two', () => {
    const many = Array.from({ length: 128 }, (_, i) => entry(i));
    expect(commitSteps(0, planned(many), recordedAt, 1_000_000)).toHaveLength(1);
        const budget = many.reduce((sum, e) => sum + pagedEntryBytes(e, recordedAt), 0);
    const twice = [...many, ...many.map((e, i) => entry(i + many.length))];
    const steps = commitSteps(0, planned(twice), recordedAt, budget);
    expect(steps).toHaveLength(2);
    expect(steps.flatMap((s) => s.entries)).toEqual(twice);
    expect(steps.map((s) => [s.fromSeq, s.toSeq])).toEqual([[1, many.length], [many.length + 1, twice.length]]);
  });

  it('never splits an entry from the one it is kept with', () => {
    const entries = Array.from({ length: 10 }, (_, i) => entry(i));
    const one = pagedEntryBytes(entries[0]!, recordedAt);
    // a budget of 3 entries, with entry 2 kept with entry 3: the first step stops before entry 2
    const steps = commitSteps(0, planned(entries, [2]), recordedAt, one * 3);
    expect(steps.map((s) => s.entries.map((e) => e.eventId))).toEqual([['e0000', 'e0001'], ['e0002', 'e0003', 'e0004'], ['e0005', 'e0006', 'e0007'], ['e0008', 'e0009']]);
  });

  it('keeps a step within the commit bytes when entries follow a termination whose pages fill several outbox items', () => {
    // Found by the service-path bench with realistic pods: a leader's success terminating
    // thousands of pods, then the rest of the batch's observations, made one commit of 3.08 MB
    // (StoreLimitError on every retry: the Job stalled).
    const page = (n: number): TerminationPage => ({
      cause: 'JobFinishing', reason: 'SuccessPolicy', message: 'Matched rules at index 0',
      names: Array.from({ length: 1000 }, (_, i) => `worker-${n}-${i}-${'n'.repeat(60)}`),
      uids: Array.from({ length: 1000 }, (_, i) => `0b6f3c2e-8d1a-4f7e-9a55-${String(n * 1000 + i).padStart(12, '0')}`),
    });
    const decision: PlannedEntry[] = Array.from({ length: 18 }, (_, n) => ({ entry: entry(10_000 + n), inline: [], terminations: page(n) }));
    const after = planned(Array.from({ length: 2_000 }, (_, i) => entry(i, 1_200)));
    const steps = commitSteps(0, [...decision, ...after], recordedAt);
    expect(steps.flatMap((s) => s.entries)).toHaveLength(decision.length + after.length);
    const job = { clusterId: 'c1', namespace: 'default', name: 'train', uid: 'u1' };
    for (const step of steps) {
      expect(() => checkCommit({ expectedHead: step.fromSeq - 1, recordedAt, entries: step.entries, outbox: stepOutboxItems(job, undefined, step, recordedAt) })).not.toThrow();
    }
  });
});

