import { describe, expect, it } from 'vitest';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { EventIdIndex, FINGERPRINT_BYTES, contentFingerprint as fingerprint, type EventIdSegment } from '../../../shared/log/event-id-index.ts';
import { StateCache } from '../../../shared/decide/state-cache.ts';
import { observationContent } from '../../../shared/job/known-observation.ts';
import type { DecisionOf } from '../../../shared/job/decisions.ts';
import type { Observation } from '../../../shared/job/events.ts';
import { aJob, anIndexedJob, aPod, at, CLUSTER, JOB_UID, jobObserved, podObserved, withSpec } from '../../support/builders.ts';
import { NoMarkersStore, statusOf, writeDeps, writeJob } from './write-support.ts';

const contentFingerprint = (observation: Observation) => fingerprint(observationContent(observation));

// Issue 24: an eventId is stored once against the whole log (event-id-index.ts), not a window
// of it or a set that dies with the process; the same eventId with another content is a
// conflicting duplicate: the first stays, the other is refused with the reason and recorded.

const stream: StreamId = { kind: 'Job', clusterId: CLUSTER, namespace: 'default', uid: JOB_UID };
const PODS = 40;
const withId = <O extends Observation>(observation: O, eventId: string): O => ({ ...observation, eventId });

/** A finished Job's events as an older forwarder sends them (unstamped): every pod Running, then Succeeded. */
function finishedJob(): Observation[] {
  const job = jobObserved(anIndexedJob(PODS, { parallelism: PODS }), at(0));
  const running = Array.from({ length: PODS }, (_, index) => podObserved(aPod({ index }), at(1 + index / 100)));
  const done = Array.from({ length: PODS }, (_, index) => podObserved(aPod({ index, phase: 'Succeeded' }), at(2 + index / 100)));
  return [job, ...running, ...done];
}

const logOf = async (store: NoMarkersStore) => (await store.read(stream)).entries;
const refusals = async (store: NoMarkersStore) =>
  (await logOf(store)).filter((e) => e.type === 'ObservationRefused').map((e) => e.body as DecisionOf<'ObservationRefused'>);

describe('the writer stores an eventId once against the whole log', () => {
  it('a finished Job re-sent whole after a restart (cold writer, snapshots between) stores nothing twice', async () => {
    const store = new NoMarkersStore(); // fails the commit that would log an eventId twice
    const events = finishedJob();
    for (let i = 0; i < events.length; i += 7) await writeJob(writeDeps(store, { snapshotEvery: 10 }), stream, events.slice(i, i + 7));
    const before = await logOf(store);
    expect((await store.loadEventIds(stream)).length).toBeGreaterThan(0);
    // a new process (no warm state) gets every event again, in batches that start anywhere
    for (const size of [1, 5, events.length]) {
      for (let i = 0; i < events.length; i += size) {
        const outcome = await writeJob(writeDeps(store, { snapshotEvery: 10 }), stream, events.slice(i, i + size));
        expect(outcome.logged).toBe(0);
      }
    }
    expect(await logOf(store)).toEqual(before);
  });

  it('holds for a warm writer, and for a log written before the index (no segments: the log is read once)', async () => {
    const events = finishedJob();
    const cache = new StateCache();
    const store = new NoMarkersStore();
    await writeJob(writeDeps(store, { cache, snapshotEvery: 10 }), stream, events);
    const before = await logOf(store);
    await writeJob(writeDeps(store, { cache, snapshotEvery: 10 }), stream, [...events].reverse());
    expect(await logOf(store)).toEqual(before);
    // the same log with its segments gone (as a store written before them): read from the log
    const older = new (class extends NoMarkersStore {
      override async loadEventIds(): Promise<EventIdSegment[]> {
        return [];
      }
    })();
    for (const entry of before) await older.commit(stream, { expectedHead: entry.seq - 1, recordedAt: entry.recordedAt, entries: [entry], outbox: [], ...(entry.seq === before.length ? { snapshot: await store.loadSnapshot(stream) } : {}) });
    await writeJob(writeDeps(older), stream, events.slice(1, 20));
    expect((await older.read(stream)).entries.map((e) => e.eventId)).toEqual(before.map((e) => e.eventId));
  });

  it('asks the store for segments only when the log has a snapshot (they cover positions up to one: a cold load of a new log skips the read)', async () => {
    const counting = new (class extends NoMarkersStore {
      segmentReads = 0;
      override async loadEventIds(id: StreamId): Promise<EventIdSegment[]> {
        this.segmentReads++;
        return super.loadEventIds(id);
      }
    })();
    const events = finishedJob();
    // given a log with no snapshot, written and re-sent by cold writers
    await writeJob(writeDeps(counting), stream, events.slice(0, 10));
    await writeJob(writeDeps(counting), stream, events.slice(0, 20));
    // then the copies are dropped without a segment read
    const ids = (await logOf(counting)).map((e) => e.eventId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(events.slice(0, 20).map((e) => e.eventId)));
    expect(counting.segmentReads).toBe(0);
    // given a snapshot, a cold writer reads the segments
    await writeJob(writeDeps(counting, { snapshotEvery: 10 }), stream, events.slice(20, 35));
    const snapshotted = await logOf(counting);
    await writeJob(writeDeps(counting), stream, events.slice(0, 35));
    expect(counting.segmentReads).toBeGreaterThan(0);
    expect(await logOf(counting)).toEqual(snapshotted);
  });

  it('refuses a pod eventId again with another content (Failed under a Running eventId): the first stays, recorded with both hashes', async () => {
    const store = new NoMarkersStore();
    const job = jobObserved(aJob({ backoffLimit: 0 }), at(0));
    const running = withId(podObserved(aPod({ name: 'p0' }), at(1)), 'p0/rv-1');
    await writeJob(writeDeps(store), stream, [job, running]);
    const status = await statusOf(store, stream);
    const conflicting = withId(podObserved(aPod({ name: 'p0', phase: 'Failed' }), at(2)), 'p0/rv-1');
    const outcome = await writeJob(writeDeps(store), stream, [conflicting]);
    // the Job is not failed by the copy: it changed nothing but the record of it
    expect(await statusOf(store, stream)).toEqual(status);
    expect(outcome.logged).toBe(0);
    expect(outcome.refused).toHaveLength(1);
    const [record] = await refusals(store);
    const firstSeq = (await logOf(store)).find((e) => e.eventId === 'p0/rv-1')?.seq;
    expect(record).toMatchObject({ reason: 'ConflictingDuplicate', refusedEventId: 'p0/rv-1', refusedType: 'PodObserved', conflict: { firstSeq } });
    expect(record?.conflict?.firstHash).toMatch(/^[0-9a-f]{64}$/);
    expect(record?.conflict?.refusedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(record?.conflict?.refusedHash).not.toBe(record?.conflict?.firstHash);
    expect(record?.message).toMatch(/the first stays/);
    // the same copy again, and the same in another order within one batch: refused each time, recorded once
    const again = await writeJob(writeDeps(store), stream, [conflicting, running, conflicting]);
    expect(again.refused).toHaveLength(2);
    expect(await refusals(store)).toHaveLength(1);
    expect((await logOf(store)).filter((e) => e.eventId === 'p0/rv-1')).toHaveLength(1);
  });

  it('takes the same content in another key order for a duplicate, not a conflict', async () => {
    const store = new NoMarkersStore();
    const running = withId(podObserved(aPod({ name: 'p0' }), at(1)), 'p0/rv-1');
    await writeJob(writeDeps(store), stream, [jobObserved(aJob(), at(0)), running]);
    const reversed = (value: unknown): unknown => (value === null || typeof value !== 'object' || Array.isArray(value)
      ? value : Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)])));
    const reordered = { ...running, pod: reversed(running.pod) as typeof running.pod };
    expect(contentFingerprint(reordered)).not.toBe(contentFingerprint(running));
    const outcome = await writeJob(writeDeps(store), stream, [reordered]);
    expect(outcome).toMatchObject({ logged: 0, refused: [], dropped: { 'same-event': 1 } });
  });

  it('refuses the later of two contents under one eventId within a batch, in either order', async () => {
    for (const order of [['Running', 'Failed'], ['Failed', 'Running']] as const) {
      const store = new NoMarkersStore();
      const events = order.map((phase, i) => withId(podObserved(aPod({ name: 'p0', phase }), at(1 + i)), 'p0/rv-1'));
      const outcome = await writeJob(writeDeps(store), stream, [jobObserved(aJob({ backoffLimit: 0 }), at(0)), ...events]);
      expect(outcome.refused.map((r) => r.observation)).toEqual([events[1]]);
      const kept = (await logOf(store)).filter((e) => e.eventId === 'p0/rv-1');
      expect(kept).toHaveLength(1);
      expect((kept[0]!.body as { pod: { status: { phase: string } } }).pod.status.phase).toBe(order[0]);
    }
  });

  it('refuses a Job Observed that reuses an eventId with an older spec: it does not become the spec', async () => {
    const store = new NoMarkersStore();
    const job = aJob({ completions: 2, parallelism: 2 });
    await writeJob(writeDeps(store), stream, [withId(jobObserved(job, at(0)), `${JOB_UID}/rv-9`)]);
    const outcome = await writeJob(writeDeps(store), stream, [withId(jobObserved(withSpec(job, { suspend: true }), at(1)), `${JOB_UID}/rv-9`)]);
    expect(outcome.refused[0]?.reason).toBe('ConflictingDuplicate');
    expect((await statusOf(store, stream)).conditions ?? []).not.toContainEqual(expect.objectContaining({ type: 'Suspended' }));
  });

  it('refuses a Job observation naming the log\'s uid under another name (UidReused), with the reason', async () => {
    const store = new NoMarkersStore();
    await writeJob(writeDeps(store), stream, [jobObserved(aJob({ completions: 2, parallelism: 2 }), at(0))]);
    const renamed = withId(jobObserved(aJob({ suspend: true }, { name: 'other-name' }), at(1)), `${JOB_UID}/rv-2`);
    const outcome = await writeJob(writeDeps(store), stream, [renamed]);
    expect(outcome.refused[0]).toMatchObject({ reason: 'UidReused' });
    expect(outcome.refused[0]?.message).toMatch(/other-name/);
    expect((await refusals(store))[0]).toMatchObject({ reason: 'UidReused', refusedEventId: `${JOB_UID}/rv-2` });
    expect((await statusOf(store, stream)).conditions ?? []).not.toContainEqual(expect.objectContaining({ type: 'Suspended' }));
  });

  it('refuses every event of a uid another namespace\'s log holds (UidReused), and starts no second log', async () => {
    const store = new NoMarkersStore();
    await writeJob(writeDeps(store), stream, [jobObserved(aJob({ completions: 2, parallelism: 2 }), at(0))]);
    const elsewhere: StreamId = { ...stream, namespace: 'team-b' };
    const job = aJob({ suspend: true });
    const moved = { ...job, metadata: { ...job.metadata, namespace: 'team-b' } };
    const events = [withId(jobObserved(moved, at(1)), `${JOB_UID}/rv-2`), withId(podObserved(aPod({ name: 'p0' }), at(2)), 'p0/rv-3')];
    const outcome = await writeJob(writeDeps(store), elsewhere, events);
    expect(outcome.logged).toBe(0);
    expect(outcome.refused.map((r) => [r.observation.eventId, r.reason, r.field])).toEqual([
      [`${JOB_UID}/rv-2`, 'UidReused', 'detail.object.metadata.namespace'],
      ['p0/rv-3', 'UidReused', 'detail.object.metadata.namespace'],
    ]);
    expect(outcome.refused[0]?.message).toMatch(/namespace default.*team-b/);
    expect((await store.read(elsewhere)).entries).toEqual([]);
    // the object's own namespace goes on being written
    expect((await writeJob(writeDeps(store), stream, [withId(podObserved(aPod({ name: 'p0' }), at(3)), 'p0/rv-4')])).logged).toBe(1);
  });

  it('does not take a fingerprint collision for a conflict: the stored entry is read back first', async () => {
    // given a log whose saved index claims position 1 holds the fingerprint of "p0/rv-2" with another content
    const probe = new EventIdIndex();
    probe.add('p0/rv-2', 7);
    const forged = probe.segment(0, 1);
    const store = new (class extends NoMarkersStore {
      forge = false;
      override async loadEventIds(id: StreamId): Promise<EventIdSegment[]> {
        return this.forge ? [forged] : super.loadEventIds(id);
      }
    })();
    await writeJob(writeDeps(store, { snapshotEvery: 1 }), stream, [jobObserved(aJob(), at(0)), withId(podObserved(aPod({ name: 'p0' }), at(1)), 'p0/rv-1')]);
    store.forge = true;
    const next = withId(podObserved(aPod({ name: 'p0', phase: 'Succeeded' }), at(2)), 'p0/rv-2');
    const outcome = await writeJob(writeDeps(store), stream, [next]);
    // then it is news: logged, not refused
    expect(outcome.refused).toEqual([]);
    expect(outcome.logged).toBe(1);
  });
});

describe('the eventId index', () => {
  it('keeps 12 bytes a position, round-trips through segments, and finds every eventId sharing a fingerprint', () => {
    const index = new EventIdIndex(1);
    for (let i = 1; i <= 1000; i++) index.add(`e-${i}`, i);
    expect(index.segment(0, 1000).bytes.byteLength).toBe(1000 * FINGERPRINT_BYTES);
    const copy = new EventIdIndex();
    copy.addSegment(index.segment(0, 400));
    copy.addSegment(index.segment(300, 1000)); // overlapping: only what is new is taken
    expect(copy.through).toBe(1000);
    expect(copy.lookup('e-777')).toEqual([{ seq: 777, content: 777 }]);
    expect(copy.lookup('e-1001')).toEqual([]);
    // two positions with the same eventId fingerprint (a collision, or one eventId logged twice by an older writer)
    copy.addSegment({ from: 1000, to: 1001, bytes: index.segment(776, 777).bytes });
    expect(copy.lookup('e-777').map((hit) => hit.seq)).toEqual([777, 1001]);
    expect(() => copy.addSegment({ from: 1005, to: 1006, bytes: new Uint8Array(FINGERPRINT_BYTES) })).toThrow(/gap/);
  });

  it('fingerprints what an observation says, not its stamps', () => {
    const pod = withId(podObserved(aPod({ name: 'p0' }), at(1)), 'p0/rv-1');
    expect(contentFingerprint({ ...pod, observedAt: at(9), sequence: { epoch: 5, seq: 2 } })).toBe(contentFingerprint(pod));
    expect(contentFingerprint(withId(podObserved(aPod({ name: 'p0', phase: 'Failed' }), at(1)), 'p0/rv-1'))).not.toBe(contentFingerprint(pod));
  });
});
