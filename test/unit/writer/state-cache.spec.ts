import { describe, expect, it } from 'vitest';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { snapshotDue } from '../../../shared/job/snapshot-cadence.ts';
import { EventIdIndex } from '../../../shared/log/event-id-index.ts';
import { StateCache, type CachedState } from '../../../shared/decide/state-cache.ts';
import { initialState, type JobState } from '../../../shared/job/state.ts';
import { anIndexedJob, aPod, at, CLUSTER, jobObserved, podObserved } from '../../support/builders.ts';
import { NoMarkersStore, statusOf, writeDeps, writeJob } from './write-support.ts';

function cached(pods: number): CachedState<JobState> {
  const state = initialState();
  for (let i = 0; i < pods; i++) state.pods.set(`p${i}`, {} as never);
  return { state, head: 0, headHash: undefined, snapshotSeq: 0, partial: false, size: state.pods.size, eventIds: new EventIdIndex() };
}

describe('the warm state cache', () => {
  it('keeps at most maxStreams states: at twice the cap the least recently used go first', () => {
    const cache = new StateCache({ maxStreams: 4 });
    for (let i = 0; i < 8; i++) cache.put(`s${i}`, cached(1));
    expect(cache.size).toBe(4);
    expect(cache.take('s3')).toBeUndefined();
    expect(cache.take('s4')).toBeDefined();
  });

  it('keeps at most maxPods pod records, and never a state bigger than that', () => {
    const cache = new StateCache({ maxPods: 100 });
    cache.put('a', cached(60));
    cache.put('b', cached(60));
    expect(cache.take('a')).toBeUndefined();
    cache.put('huge', cached(200));
    expect(cache.take('huge')).toBeUndefined();
    expect(cache.take('b')).toBeDefined();
  });

  it('hands a state out once: taken, it is no longer there', () => {
    const cache = new StateCache();
    cache.put('a', cached(1));
    expect(cache.take('a')).toBeDefined();
    expect(cache.take('a')).toBeUndefined();
  });

  it('loses nothing when Jobs outnumber it twice over: evicted Jobs are reloaded from the store', async () => {
    // given a cache of 3 streams and 6 Jobs written in turns
    const store = new NoMarkersStore();
    const cache = new StateCache({ maxStreams: 3 });
    const streams: StreamId[] = Array.from({ length: 6 }, (_, i) => ({ kind: 'Job', clusterId: CLUSTER, namespace: 'default', uid: `job-${i}` }));
    for (const stream of streams) {
      await writeJob(writeDeps(store, { cache }), stream, [jobObserved(anIndexedJob(2, {}, { uid: stream.uid }), at(0))]);
    }
    // when each gets its pods, one succeeded
    for (const stream of streams) {
      const pods = [0, 1].map((index) => podObserved(aPod({ index, uid: `${stream.uid}-${index}`, phase: index === 0 ? 'Succeeded' : 'Running' }), at(1)));
      await writeJob(writeDeps(store, { cache }), stream, pods);
    }
    // then every Job counts its success once
    for (const stream of streams) expect((await statusOf(store, stream)).succeeded).toBe(1);
    expect(cache.size).toBe(3);
  });
});

describe('the snapshot cadence', () => {
  it('waits max(every, pods / 2) entries, so a big Job snapshots in proportion to its size', () => {
    const small = cached(10).state;
    expect(snapshotDue(small, 49, 0)).toBe(false);
    expect(snapshotDue(small, 50, 0)).toBe(true);
    const big = cached(10_000).state;
    expect(snapshotDue(big, 4_999, 0)).toBe(false);
    expect(snapshotDue(big, 5_000, 0)).toBe(true);
    expect(snapshotDue(big, 9_999, 5_000)).toBe(false);
  });

  it('waits at most 5,000 entries once most pod records are settled, unless the live pods need longer', () => {
    // 100,000 pod records in memory (a warm writer keeps settled pods), 1,000 of them running.
    const settled = cached(100_000).state;
    settled.counts.active = 1000;
    expect(snapshotDue(settled, 4_999, 0)).toBe(false);
    expect(snapshotDue(settled, 5_000, 0)).toBe(true);
    // 30,000 running: a snapshot holds them all, so it waits for half the live pods.
    settled.counts.active = 30_000;
    expect(snapshotDue(settled, 14_999, 0)).toBe(false);
    expect(snapshotDue(settled, 15_000, 0)).toBe(true);
  });
});

describe('the fleet summary', () => {
  it('is committed when it changes, not with every batch of a warm writer, on its own after the batch\'s steps', async () => {
    const store = new NoMarkersStore();
    const commits: { summary: boolean; writes: boolean }[] = [];
    const commit = store.commit.bind(store);
    store.commit = async (stream, input) => {
      commits.push({ summary: input.summary !== undefined, writes: input.entries.length > 0 || input.outbox.length > 0 });
      return commit(stream, input);
    };
    const deps = writeDeps(store, { cache: new StateCache() });
    const stream: StreamId = { kind: 'Job', clusterId: CLUSTER, namespace: 'default', uid: 'job-s' };
    const summaryCommitted: boolean[] = [];
    const write = async (observations: Parameters<typeof writeJob>[2]) => {
      commits.length = 0;
      await writeJob(deps, stream, observations);
      summaryCommitted.push(commits.some((c) => c.summary));
      // The summary is the batch's last commit, with nothing else in it.
      expect(commits.filter((c) => c.summary)).toEqual(commits.at(-1)?.summary ? [{ summary: true, writes: false }] : []);
    };
    // the Job, then its pods running (nothing the fleet shows changes), then one succeeds
    await write([jobObserved(anIndexedJob(2, {}, { uid: 'job-s' }), at(0))]);
    await write([0, 1].map((index) => podObserved(aPod({ index, uid: `s-${index}` }), at(1))));
    await write([0, 1].map((index) => podObserved(aPod({ index, uid: `s-${index}`, ready: true }), at(2))));
    await write([0, 1].map((index) => podObserved(aPod({ index, uid: `s-${index}`, phase: 'Succeeded' }), at(3))));
    expect(summaryCommitted).toEqual([true, false, false, true]);
    const summary = await store.findJob({ kind: 'Job', clusterId: CLUSTER, namespace: 'default', name: 'myjob', uid: 'job-s' });
    expect(summary?.latestCondition?.type).toBe('Complete');
  });
});
