import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JobEvent } from '../../../shared/job/evolve.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { historyArb, jobArb, settledHistoryArb, type Batch } from './arbitraries.ts';
import { drive, startJob } from './drive.ts';

const RUNS = { numRuns: 150 };

const finalStatus = (job: Job, batches: readonly Batch[]) => {
  const state = startJob(job);
  drive(state, batches);
  return jobStatus(state);
};

const pickArb = fc.record({ slot: fc.nat(), delay: fc.nat({ max: 5 }) });
const caseArb = jobArb.chain((job) => fc.record({ job: fc.constant(job), batches: historyArb(job) }));
/** Histories in which a finished pod stays finished: what reordering its later observations assumes. */
const settledCaseArb = jobArb.chain((job) => fc.record({ job: fc.constant(job), batches: settledHistoryArb(job) }));

/** Where an event sits: batch and position in it. */
type Slot = readonly [batch: number, index: number];

const slots = (batches: readonly Batch[]): Slot[] => batches.flatMap((b, i) => b.events.map((_, j): Slot => [i, j]));
const eventAt = (batches: readonly Batch[], [i, j]: Slot) => batches[i]?.events[j] as JobEvent;
const podOf = (event: JobEvent): string | undefined =>
  event.type === 'PodObserved' ? event.pod.metadata.uid : event.type === 'PodDeleted' ? event.uid : undefined;
const isTerminal = (event: JobEvent) =>
  event.type === 'PodObserved' && (event.pod.status?.phase === 'Succeeded' || event.pod.status?.phase === 'Failed');

/** The batches with extra copies of events, each copy delivered `delay` batches after its original. */
function withDuplicates(batches: readonly Batch[], picks: readonly { slot: number; delay: number }[]): Batch[] {
  const all = slots(batches);
  const after = new Map<string, JobEvent[]>(); // copies right after the original, by slot
  const extra = new Map<number, JobEvent[]>(); // copies at the start of a later batch
  for (const { slot, delay } of picks) {
    const where = all[slot % all.length] as Slot;
    const event = eventAt(batches, where);
    const target = Math.min(where[0] + delay, batches.length - 1);
    if (target === where[0]) after.set(String(where), [...(after.get(String(where)) ?? []), event]);
    else extra.set(target, [...(extra.get(target) ?? []), event]);
  }
  return batches.map((b, i) => ({
    at: b.at,
    events: [...(extra.get(i) ?? []), ...b.events.flatMap((e, j) => [e, ...(after.get(String([i, j])) ?? [])])],
  }));
}

/** Shuffles `items` with the random numbers given (Fisher-Yates). */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = random() % (i + 1);
    [result[i], result[j]] = [result[j] as T, result[i] as T];
  }
  return result;
}

/**
 * Moves the events at `from` (in order) to the slots `to`, in `copy`. An event moved to another
 * batch is observed at that batch's time: the fold reads the cluster's clock from observedAt
 * (shared/job/cluster-clock.ts), and nothing arrives before it was observed.
 */
function permute(batches: readonly Batch[], copy: { at: string; events: JobEvent[] }[], from: readonly Slot[], to: readonly Slot[]) {
  const events = from.map((slot) => eventAt(batches, slot));
  to.forEach(([i, j], k) => {
    const target = copy[i];
    const event = events[k] as JobEvent;
    if (target) target.events[j] = 'observedAt' in event ? ({ ...event, observedAt: target.at } as JobEvent) : event;
  });
}

/**
 * The batches with what is reported about pods already terminal reordered: a pod's observations
 * after its first terminal one are shuffled among their own slots, across batches; and within a
 * batch, every event about pods terminal before that batch (PodDeleted included) is shuffled.
 * A PodDeleted does not move across batches: its time matters (it releases a held pod).
 */
function withTerminalReordered(batches: readonly Batch[], randoms: readonly number[]): Batch[] {
  let r = 0;
  const random = () => randoms[r++ % randoms.length] ?? 0;
  const terminalSince = new Map<string, number>();
  const laterObservations = new Map<string, Slot[]>();
  const perBatch = new Map<number, Slot[]>();
  for (const slot of slots(batches)) {
    const event = eventAt(batches, slot);
    const pod = podOf(event);
    if (pod === undefined) continue;
    const since = terminalSince.get(pod);
    if (since !== undefined && event.type === 'PodObserved') {
      laterObservations.set(pod, [...(laterObservations.get(pod) ?? []), slot]);
    }
    if (since === undefined && isTerminal(event)) terminalSince.set(pod, slot[0]);
  }
  const first = batches.map((b) => ({ at: b.at, events: [...b.events] }));
  for (const podSlots of laterObservations.values()) permute(batches, first, podSlots, shuffled(podSlots, random));
  for (const slot of slots(first)) {
    const since = terminalSince.get(podOf(eventAt(first, slot)) ?? '');
    if (since !== undefined && since < slot[0]) perBatch.set(slot[0], [...(perBatch.get(slot[0]) ?? []), slot]);
  }
  const second = first.map((b) => ({ at: b.at, events: [...b.events] }));
  for (const batchSlots of perBatch.values()) permute(first, second, batchSlots, shuffled(batchSlots, random));
  return second;
}

describe('Arrival order (property)', () => {
  it('a replay delivered right after the original changes nothing', () => {
    fc.assert(
      fc.property(caseArb, fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), ({ job, batches }, picks) => {
        const replayed = withDuplicates(batches, picks.map((slot) => ({ slot, delay: 0 })));
        expect(finalStatus(job, replayed)).toEqual(finalStatus(job, batches));
      }),
      RUNS,
    );
  });

  it('a replay of a terminal observation or of a PodDeleted delivered later changes nothing', () => {
    fc.assert(
      fc.property(caseArb, fc.array(pickArb, { minLength: 1, maxLength: 5 }), ({ job, batches }, picks) => {
        const all = slots(batches);
        const settled = picks.filter(({ slot }) => {
          const event = eventAt(batches, all[slot % all.length] as Slot);
          return isTerminal(event) || event.type === 'PodDeleted' || event.type === 'Tick';
        });
        const replayed = withDuplicates(batches, settled);
        expect(finalStatus(job, replayed)).toEqual(finalStatus(job, batches));
      }),
      RUNS,
    );
  });

  it('reordering what is observed of pods already terminal changes nothing', () => {
    fc.assert(
      fc.property(settledCaseArb, fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), ({ job, batches }, randoms) => {
        const reordered = withTerminalReordered(batches, randoms);
        expect(reordered.flatMap((b) => b.events)).toHaveLength(batches.flatMap((b) => b.events).length);
        expect(finalStatus(job, reordered)).toEqual(finalStatus(job, batches));
      }),
      RUNS,
    );
  });
});
