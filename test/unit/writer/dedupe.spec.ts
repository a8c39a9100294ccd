import { describe, expect, it } from 'vitest';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { StateCache } from '../../../shared/decide/state-cache.ts';
import type { Observation, PodObserved } from '../../../shared/job/events.ts';
import { anIndexedJob, aPod, at, CLUSTER, JOB_UID, jobObserved, podDeleted, podObserved, tick } from '../../support/builders.ts';
import { NoMarkersStore, observationsOf, sampleEvents, statusOf, writeDeps, writeJob } from './write-support.ts';

// Dedupe without markers: the writer drops what the fold already holds, so the same event
// delivered again (in one batch, a Kinesis redelivery, a relist, a late event of an archived
// pod) is logged once; an older version after a newer one is dropped when stamped, and when
// unstamped changes nothing.

const stream: StreamId = { kind: 'Job', clusterId: CLUSTER, namespace: 'default', uid: JOB_UID };
const job = jobObserved(anIndexedJob(3), at(0));
const running = [0, 1, 2].map((index) => podObserved(aPod({ index }), at(1)));
const stamped = (event: PodObserved, epoch: number, seq: number): PodObserved => ({ ...event, sequence: { epoch, seq } });

async function logOf(store: NoMarkersStore) {
  return (await store.read(stream)).entries;
}

const observationIds = (entries: { type: string; eventId: string; body: unknown }[]) =>
  entries.filter((e) => !('read' in (e.body as object))).map((e) => e.eventId);

describe('the writer logs each observation once', () => {
  it('drops an event repeated in the same batch', async () => {
    const store = new NoMarkersStore();
    const outcome = await writeJob(writeDeps(store), stream, [job, running[0]!, running[0]!, job]);
    expect(observationIds(await logOf(store))).toEqual([job.eventId, running[0]!.eventId]);
    expect(outcome.logged).toBe(2);
  });

  it('drops a whole batch delivered again (Kinesis retries from the first record)', async () => {
    // given the named-failure sample written once (unstamped events: pod 3 has two versions)
    const sample = observationsOf(sampleEvents('samples/named-failure.jsonl'));
    const named = sample[0]!.stream;
    const events = sample.map((s) => s.observation);
    for (const cache of [undefined, new StateCache()]) {
      const store = new NoMarkersStore();
      await writeJob(writeDeps(store, { cache }), named, events);
      const before = (await store.read(named)).entries;

      // when the same batch arrives again, and then each half of it
      const again = await writeJob(writeDeps(store, { cache }), named, events);
      await writeJob(writeDeps(store, { cache }), named, events.slice(0, 6));
      await writeJob(writeDeps(store, { cache }), named, events.slice(6));

      // then nothing more is logged or decided
      expect((await store.read(named)).entries).toEqual(before);
      expect(again.logged).toBe(0);
      expect(again.decisions).toEqual([]);
      expect((await statusOf(store, named)).failed).toBe(5);
    }
  });

  it('drops a relist of unchanged pods (same resourceVersion, a new epoch)', async () => {
    const store = new NoMarkersStore();
    await writeJob(writeDeps(store), stream, [job, ...running.map((e, i) => stamped(e, 1, i + 1))]);
    const before = await logOf(store);
    const relisted = running.map((e) => stamped({ ...e, observedAt: at(30) }, 2, 1));
    const outcome = await writeJob(writeDeps(store), stream, relisted);
    expect(await logOf(store)).toEqual(before);
    expect(outcome.dropped).toEqual({ 'same-event': 3 });
  });

  it('drops an event of an archived pod sent again after a snapshot', async () => {
    // given pod 0 succeeded, and enough entries after it for a snapshot that archives it
    for (const cache of [undefined, new StateCache()]) {
    const store = new NoMarkersStore();
    const deps = writeDeps(store, { snapshotEvery: 2, cache });
    const succeeded = podObserved(aPod({ index: 0, phase: 'Succeeded' }), at(5));
    await writeJob(deps, stream, [job, ...running]);
    await writeJob(deps, stream, [succeeded, tick(at(6)), tick(at(7))]);
    expect((await store.loadArchivedPods(stream, ['pod-0']))[0]?.lastEventId).toBe(succeeded.eventId);
    const before = await logOf(store);

    // when its last event is delivered again (to a cold writer, and to a warm one)
    const outcome = await writeJob(deps, stream, [succeeded]);
    // then it is not logged
    expect(outcome.dropped).toEqual({ 'same-event': 1 });
    expect(await logOf(store)).toEqual(before);
    }
  });

  it('drops a stamped older version that arrives after a newer one', async () => {
    const store = new NoMarkersStore();
    const failed = stamped(podObserved(aPod({ index: 1, phase: 'Failed' }), at(5)), 1, 2);
    await writeJob(writeDeps(store), stream, [job, stamped(running[1]!, 1, 1), failed]);
    const before = await statusOf(store, stream);
    const late = stamped({ ...running[1]!, eventId: 'pod-1/rv-older' }, 1, 1);
    const outcome = await writeJob(writeDeps(store), stream, [late]);
    expect(outcome.dropped).toEqual({ stale: 1 });
    expect(await statusOf(store, stream)).toEqual(before);
  });

  it('logs a Job version older than the one it holds when it tells what the fold lacks: the Job suspended before', async () => {
    // given a Job created suspended (resourceVersion 1) and resumed (2), the resumption first
    const versioned = (suspend: boolean, rv: string, when: string) => {
      const observed = jobObserved(anIndexedJob(3, { suspend }), when);
      return { ...observed, eventId: `job/rv-${rv}`, job: { ...observed.job, metadata: { ...observed.job.metadata, resourceVersion: rv } } };
    };
    const store = new NoMarkersStore();
    await writeJob(writeDeps(store), stream, [versioned(false, '2', at(1)), ...running]);
    // when the suspended version arrives after it
    const outcome = await writeJob(writeDeps(store), stream, [versioned(true, '1', at(0))]);
    // then it is logged, as the pure fold folds it: the controller wrote Suspended=True then, and
    // flipped it on the resumption (reordered-deliveries.spec.ts); and a copy of it adds nothing
    expect(outcome.dropped).toEqual({});
    expect((await statusOf(store, stream)).conditions.map((c) => `${c.type}=${c.status}:${c.reason}`)).toEqual(['Suspended=False:JobResumed']);
    const again = await writeJob(writeDeps(store), stream, [{ ...versioned(true, '1', at(0)), eventId: 'job/rv-1/copy' }]);
    expect(again.dropped).toEqual({ stale: 1 });
  });

  it('logs a Job version older than the one it holds when it tells what the fold lacks: the suspension earlier than the one held', async () => {
    // given a Job jobfold runs, created at 0:00 (1), completed on index 0's success at 7:30, read
    // with a suspended version (4) of 7:40: the parallelism at 6:40 is known, only the suspension is news
    const managed = anIndexedJob(2, { managedBy: 'jobfold.io/job-controller', successPolicy: { rules: [{ succeededIndexes: '0' }] } });
    const versioned = (suspend: boolean, rv: string, when: string) => {
      const observed = jobObserved({ ...managed, spec: { ...managed.spec, suspend } }, when);
      return { ...observed, eventId: `job/rv-${rv}`, job: { ...observed.job, metadata: { ...observed.job.metadata, resourceVersion: rv } } };
    };
    const success = podObserved(aPod({ index: 0, phase: 'Succeeded', finishedAt: at(440), resourceVersion: '3' }), at(450));
    const store = new NoMarkersStore();
    await writeJob(writeDeps(store), stream, [versioned(false, '1', at(0)), success, versioned(true, '4', at(460))]);
    // when the version suspended at 6:40 (2) arrives, and a copy of it again
    const outcome = await writeJob(writeDeps(store), stream, [versioned(true, '2', at(400))]);
    const again = await writeJob(writeDeps(store), stream, [{ ...versioned(true, '2', at(400)), eventId: 'job/rv-2/copy' }]);
    // then it is logged once, as the pure fold folds it: the controller wrote Suspended=True then,
    // before the success (suspension-order.ts, reordered-deliveries.spec.ts)
    expect(outcome.dropped).toEqual({});
    expect(again.dropped).toEqual({ stale: 1 });
    expect((await statusOf(store, stream)).conditions.map((c) => `${c.type}=${c.status}:${c.reason}`)).toEqual([
      'Suspended=True:JobSuspended', 'SuccessCriteriaMet=True:SuccessPolicy', 'Complete=True:SuccessPolicy',
    ]);
  });

  it('logs a Job version older than the one it holds when it tells what the fold lacks: the parallelism then', async () => {
    // given a Job whose parallelism was lowered 3 -> 1 at 2 s (resourceVersion 2), seen first at 6 s (3)
    const versioned = (parallelism: number, rv: string, when: string) => {
      const observed = jobObserved(anIndexedJob(3, { parallelism }), when);
      return { ...observed, eventId: `job/rv-${rv}`, job: { ...observed.job, metadata: { ...observed.job.metadata, resourceVersion: rv } } };
    };
    const store = new NoMarkersStore();
    await writeJob(writeDeps(store), stream, [versioned(3, '1', at(0)), ...running, versioned(1, '3', at(6))]);
    // when the lowering itself arrives late, and a copy of it again
    const outcome = await writeJob(writeDeps(store), stream, [versioned(1, '2', at(2))]);
    const again = await writeJob(writeDeps(store), stream, [{ ...versioned(1, '2', at(2)), eventId: 'job/rv-2/copy' }]);
    // then it is logged once: the lowering's instant decides which deletions it made (excess-deletions.ts)
    expect(outcome.dropped).toEqual({});
    expect(again.dropped).toEqual({ stale: 1 });
    expect(observationIds(await logOf(store))).toContain('job/rv-2');
  });

  it('logs a Job version older than the one it holds when it tells what the fold lacks: the completions then', async () => {
    // given an elastic Indexed Job lowered 3 -> 1 at 60 s (resourceVersion 10), seen first so, and index 2 failed at 2 s
    const elastic = (completions: number, rv: string, when: string) => {
      const observed = jobObserved(anIndexedJob(completions, { parallelism: completions }), when);
      return { ...observed, eventId: `job/rv-${rv}`, job: { ...observed.job, metadata: { ...observed.job.metadata, resourceVersion: rv } } };
    };
    const store = new NoMarkersStore();
    await writeJob(writeDeps(store), stream, [elastic(1, '10', at(60)), podObserved(aPod({ name: 'c', index: 2, phase: 'Failed' }), at(2))]);
    expect((await statusOf(store, stream)).failed).toBe(0);
    // when the Job as it was when the pod failed arrives late
    const outcome = await writeJob(writeDeps(store), stream, [elastic(3, '1', at(0))]);
    // then it is logged, and the failure counts (counting.ts countableIndex), as the cluster counted it
    expect(outcome.dropped).toEqual({});
    expect(observationIds(await logOf(store))).toContain('job/rv-1');
    expect((await statusOf(store, stream)).failed).toBe(1);
  });

  it('lets an unstamped older version change nothing', async () => {
    const store = new NoMarkersStore();
    const failed = podObserved(aPod({ index: 1, phase: 'Failed' }), at(5));
    await writeJob(writeDeps(store), stream, [job, ...running, failed]);
    const before = await statusOf(store, stream);
    const late = { ...running[1]!, eventId: 'pod-1/rv-older', observedAt: at(6) };
    await writeJob(writeDeps(store), stream, [late]);
    expect(await statusOf(store, stream)).toEqual(before);
  });

  it('keeps an unordered Job update stamped right after one stamped beyond the skew (9999), in one batch', async () => {
    // given a Job observed, then observed again stamped 9999-12-31 (its arrival stands in)
    const store = new NoMarkersStore();
    const arrived = <E extends Observation>(event: E, arrivedAt: string): E => ({ ...event, arrivedAt });
    const far = arrived({ ...job, eventId: 'job/far', observedAt: '9999-12-31T23:59:59Z' }, at(10));
    // when the suspension, stamped a second before that arrival, arrives with it
    const suspended = jobObserved(anIndexedJob(3, { suspend: true }), at(9));
    const outcome = await writeJob(writeDeps(store), stream, [arrived(job, at(1)), far, arrived({ ...suspended, eventId: 'job/suspend' }, at(10))]);
    // then it is logged and taken: the far stamp says nothing of when the Job was observed
    expect(outcome.dropped).toEqual({});
    expect(observationIds(await logOf(store))).toContain('job/suspend');
  });

  it('drops a deletion seen before, a Tick at or before the last, and the same Job event', async () => {
    const store = new NoMarkersStore();
    await writeJob(writeDeps(store), stream, [job, ...running, podDeleted('pod-2', at(3)), tick(at(4))]);
    const before = await logOf(store);
    const again: Observation[] = [podDeleted('pod-2', at(5)), tick(at(4)), tick(at(2)), { ...job, observedAt: at(5) }];
    const outcome = await writeJob(writeDeps(store), stream, again);
    expect(await logOf(store)).toEqual(before);
    // The same deletion, Tick and Job event are in the log by eventId (the eventId index judges
    // first); the Tick before the last is an older Tick.
    expect(outcome.dropped).toEqual({ 'same-event': 3, 'old-tick': 1 });
  });
});
