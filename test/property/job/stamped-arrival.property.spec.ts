import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JobEvent } from '../../../shared/job/evolve.ts';
import { jobStatus, type JobStatusView } from '../../../shared/job/status.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { historyArb, jobArb, type Batch } from './arbitraries.ts';
import { drive, startJob } from './drive.ts';

// With the forwarder's order stamps (docs/events.md, "Ordering") the transport may do two things
// the ordered history does not: deliver any event again, at any later point (at-least-once,
// retries, archive replays), and deliver the observations of one object in any order among
// themselves within what one reconcile reads. Either way the Job ends in the status of the
// ordered history, and the API server's status rules hold after every reconcile on the way.

const RUNS = { numRuns: 150 };

const RANK: Readonly<Record<string, number>> = { Pending: 0, Running: 1, Unknown: 1, Succeeded: 2, Failed: 2 };

/** What one pod observation says that a cluster only ever moves forward. */
function progress(event: JobEvent & { type: 'PodObserved' }) {
  const { metadata, status } = event.pod;
  return {
    rank: RANK[status?.phase ?? 'Pending'] ?? 0,
    deleting: metadata.deletionTimestamp !== undefined,
    finalizer: (metadata.finalizers ?? []).length > 0,
  };
}

/**
 * The history as a cluster can produce it, stamped as the forwarder stamps it. Random steps may
 * report a pod going backwards (Succeeded, then Pending) or seen again after its deletion; a
 * watch never does, so those observations are left out (that they may *arrive* late is what the
 * transforms below add). Each remaining pod observation gets its place among the pod's ones,
 * and each Job observation its place among the Job's.
 */
function stamped(batches: readonly Batch[]): Batch[] {
  const last = new Map<string, ReturnType<typeof progress> & { seq: number }>();
  const gone = new Set<string>();
  let jobSeq = 0;
  return batches.map((batch) => ({
    at: batch.at,
    events: batch.events.flatMap((event): JobEvent[] => {
      if (event.type === 'PodDeleted') gone.add(event.uid);
      // A stamped observation is one watch event, so its eventId names it as the forwarder's
      // `<uid>/<resourceVersion>` does: two different observations never share an id.
      if (event.type === 'JobObserved') {
        jobSeq += 1;
        return [{ ...event, eventId: `${event.job.metadata.uid}/1.${jobSeq}`, sequence: { epoch: 1, seq: jobSeq } }];
      }
      if (event.type !== 'PodObserved') return [event];
      const uid = event.pod.metadata.uid;
      const now = progress(event);
      const before = last.get(uid);
      const backwards =
        before !== undefined &&
        (now.rank < before.rank || before.rank === 2 || (before.deleting && !now.deleting) || (!before.finalizer && now.finalizer));
      if (gone.has(uid) || backwards) return [];
      const seq = (before?.seq ?? 0) + 1;
      last.set(uid, { ...now, seq });
      return [{ ...event, eventId: `${uid}/1.${seq}`, sequence: { epoch: 1, seq } }];
    }),
  }));
}

/** Copies of picked events, each delivered `delay` batches after its original (0: right after it). */
function withLateCopies(batches: readonly Batch[], picks: readonly { slot: number; delay: number }[]): Batch[] {
  const slots = batches.flatMap((batch, i) => batch.events.map((_, j) => [i, j] as const));
  const sameBatch = new Map<string, JobEvent[]>();
  const later = new Map<number, JobEvent[]>();
  for (const { slot, delay } of picks) {
    const [i, j] = slots[slot % slots.length] as readonly [number, number];
    const copy = batches[i]?.events[j] as JobEvent;
    const target = Math.min(i + delay, batches.length - 1);
    const bucket = target === i ? sameBatch : later;
    const key = target === i ? `${i}/${j}` : target;
    const list = (bucket as Map<string | number, JobEvent[]>).get(key) ?? [];
    list.push(copy);
    (bucket as Map<string | number, JobEvent[]>).set(key, list);
  }
  return batches.map((batch, i) => ({
    at: batch.at,
    events: [...batch.events.flatMap((e, j) => [e, ...(sameBatch.get(`${i}/${j}`) ?? [])]), ...(later.get(i) ?? [])],
  }));
}

/** Within each batch, each pod's observations shuffled among their own slots. */
function withinBatchShuffled(batches: readonly Batch[], randoms: readonly number[]): Batch[] {
  let r = 0;
  const random = () => randoms[r++ % randoms.length] ?? 0;
  return batches.map((batch) => {
    const events = [...batch.events];
    const byPod = new Map<string, number[]>();
    events.forEach((event, k) => {
      if (event.type !== 'PodObserved') return;
      const uid = event.pod.metadata.uid;
      byPod.set(uid, [...(byPod.get(uid) ?? []), k]);
    });
    for (const positions of byPod.values()) {
      const picked = positions.map((k) => events[k] as JobEvent);
      for (let i = picked.length - 1; i > 0; i--) {
        const j = random() % (i + 1);
        [picked[i], picked[j]] = [picked[j] as JobEvent, picked[i] as JobEvent];
      }
      positions.forEach((k, n) => (events[k] = picked[n] as JobEvent));
    }
    return { at: batch.at, events };
  });
}

const isTrue = (status: JobStatusView, type: string) => status.conditions.some((c) => c.type === type && c.status === 'True');
const isFinished = (status: JobStatusView) => isTrue(status, 'Complete') || isTrue(status, 'Failed');

/** Plays the history, checking the API server's status rules after every reconcile; returns the final status. */
function playChecked(job: Job, batches: readonly Batch[]): JobStatusView {
  const state = startJob(job);
  let before = jobStatus(state);
  drive(state, batches, {
    afterReconcile: (_, { status }) => {
      expect(isTrue(status, 'Complete') && isTrue(status, 'Failed'), 'Complete with Failed').toBe(false);
      expect(isTrue(status, 'SuccessCriteriaMet') && isTrue(status, 'FailureTarget'), 'SuccessCriteriaMet with FailureTarget').toBe(false);
      if (isTrue(status, 'Complete')) expect(isTrue(status, 'SuccessCriteriaMet'), 'Complete without SuccessCriteriaMet').toBe(true);
      if (isTrue(status, 'Failed')) expect(isTrue(status, 'FailureTarget'), 'Failed without FailureTarget').toBe(true);
      expect(status.completionTime !== null, 'completionTime only with Complete').toBe(isTrue(status, 'Complete'));
      expect(status.ready, 'ready <= active').toBeLessThanOrEqual(status.active);
      expect(status.succeeded, 'succeeded decreased').toBeGreaterThanOrEqual(before.succeeded);
      expect(status.failed, 'failed decreased').toBeGreaterThanOrEqual(before.failed);
      for (const type of ['Complete', 'Failed', 'FailureTarget', 'SuccessCriteriaMet']) {
        if (isTrue(before, type)) expect(isTrue(status, type), `${type} reverted`).toBe(true);
      }
      if (isFinished(status)) {
        expect({ active: status.active, terminating: status.terminating }, 'finished with pods').toEqual({ active: 0, terminating: 0 });
      }
      // Finished means finished: nothing reported moves after the end.
      if (isFinished(before)) expect(status, 'status moved after the Job finished').toEqual(before);
      before = status;
    },
  });
  return jobStatus(state);
}

const caseArb = jobArb.chain((job) =>
  fc.record({
    job: fc.constant(job),
    batches: historyArb(job).map(stamped),
    picks: fc.array(fc.record({ slot: fc.nat(), delay: fc.nat({ max: 6 }) }), { maxLength: 12 }),
    randoms: fc.array(fc.nat(), { minLength: 1, maxLength: 16 }),
  }),
);

describe('Stamped arrival (property)', () => {
  it('late copies of any event, delivered anywhere after the original, end in the ordered history\'s status', () => {
    fc.assert(
      fc.property(caseArb, ({ job, batches, picks }) => {
        expect(playChecked(job, withLateCopies(batches, picks))).toEqual(playChecked(job, batches));
      }),
      RUNS,
    );
  });

  it('one pod\'s observations in any order within a batch end in the ordered history\'s status', () => {
    fc.assert(
      fc.property(caseArb, ({ job, batches, randoms }) => {
        expect(playChecked(job, withinBatchShuffled(batches, randoms))).toEqual(playChecked(job, batches));
      }),
      RUNS,
    );
  });

  it('both at once', () => {
    fc.assert(
      fc.property(caseArb, ({ job, batches, picks, randoms }) => {
        const transported = withLateCopies(withinBatchShuffled(batches, randoms), picks);
        expect(playChecked(job, transported)).toEqual(playChecked(job, batches));
      }),
      RUNS,
    );
  });
});
