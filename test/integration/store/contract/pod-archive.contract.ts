import { beforeEach, describe, expect, it } from 'vitest';
import type { EventStore } from '../../../../shared/log/event-store.ts';
import type { PodArchive } from '../../../../shared/log/pod-archive.ts';
import { EventIdIndex, FINGERPRINT_BYTES } from '../../../../shared/log/event-id-index.ts';
import { aStream, anArchivedPod } from './builders.ts';
import type { EventStoreFactory } from './builders.ts';

/** The pod archive beside the snapshots: settled pods stored per stream, read back by uid. */
export function describePodArchiveContract(factory: EventStoreFactory): void {
  let store: EventStore & PodArchive;

  describe('pod archive', () => {
    beforeEach(async () => { store = await factory(); });

    it('returns the archived pods among the uids asked for, and nothing for unknown uids', async () => {
      const stream = aStream();
      await store.saveArchivedPods(stream, [anArchivedPod(0), anArchivedPod(1), anArchivedPod(2)]);

      const found = await store.loadArchivedPods(stream, ['pod-uid-2', 'pod-uid-0', 'unknown', 'pod-uid-2']);

      expect(found.sort((a, b) => a.index - b.index)).toEqual([anArchivedPod(0), anArchivedPod(2)]);
    });

    it('replaces a pod stored again and keeps streams apart', async () => {
      const stream = aStream();
      await store.saveArchivedPods(stream, [anArchivedPod(0)]);
      await store.saveArchivedPods(stream, [anArchivedPod(0, { gone: true })]);

      expect(await store.loadArchivedPods(stream, ['pod-uid-0'])).toEqual([anArchivedPod(0, { gone: true })]);
      expect(await store.loadArchivedPods(aStream(), ['pod-uid-0'])).toEqual([]);
    });

    it('loads the whole archive of a stream, the latest save of each pod, and nothing of another stream', async () => {
      const stream = aStream();
      const pods = Array.from({ length: 130 }, (_, i) => anArchivedPod(i));
      await store.saveArchivedPods(stream, pods);
      await store.saveArchivedPods(stream, [anArchivedPod(7, { gone: true })]);
      await store.saveArchivedPods(aStream(), [anArchivedPod(200)]);

      const found = await store.loadAllArchivedPods(stream);

      expect(found.sort((a, b) => a.index - b.index)).toEqual(pods.map((pod) => (pod.index === 7 ? anArchivedPod(7, { gone: true }) : pod)));
      expect(await store.loadAllArchivedPods(aStream())).toEqual([]);
    });

    it('stores and loads more pods than one batch request holds', async () => {
      const stream = aStream();
      const pods = Array.from({ length: 130 }, (_, i) => anArchivedPod(i));
      await store.saveArchivedPods(stream, pods);

      const found = await store.loadArchivedPods(stream, pods.map((p) => p.uid));

      expect(found.sort((a, b) => a.index - b.index)).toEqual(pods);
    });
  });

  describe('eventId segments', () => {
    beforeEach(async () => { store = await factory(); });
    const indexOf = (n: number) => {
      const index = new EventIdIndex();
      for (let i = 1; i <= n; i++) index.add(`event-${i}`, i * 7);
      return index;
    };

    it('returns the segments saved, ordered by their last position, byte for byte, and keeps streams apart', async () => {
      const stream = aStream();
      const index = indexOf(120);
      await store.saveEventIds(stream, index.segment(50, 120));
      await store.saveEventIds(stream, index.segment(0, 50));
      await store.saveEventIds(stream, index.segment(0, 50)); // saved again: the same bytes

      const segments = await store.loadEventIds(stream);

      expect(segments.map((s) => [s.from, s.to])).toEqual([[0, 50], [50, 120]]);
      const copy = new EventIdIndex();
      for (const segment of segments) copy.addSegment(segment);
      expect(copy.segment(0, 120).bytes).toEqual(index.segment(0, 120).bytes);
      expect(await store.loadEventIds(aStream())).toEqual([]);
    });

    it('keeps a segment larger than one item (60,000 positions) whole', async () => {
      const stream = aStream();
      const index = indexOf(60_000);
      await store.saveEventIds(stream, index.segment(0, 60_000));

      const segments = await store.loadEventIds(stream);

      expect(segments.reduce((sum, s) => sum + s.bytes.byteLength, 0)).toBe(60_000 * FINGERPRINT_BYTES);
      const copy = new EventIdIndex();
      for (const segment of segments) copy.addSegment(segment);
      expect(copy.lookup('event-59999')).toEqual([{ seq: 59_999, content: 59_999 * 7 }]);
    });
  });

  describe('uid claims', () => {
    beforeEach(async () => { store = await factory(); });

    it('gives a (kind, cluster, uid) to the first namespace that claims it, under concurrent claims too', async () => {
      const stream = aStream();
      const claims = await Promise.all(['team-a', 'team-b', 'team-c', 'team-a'].map((namespace) => store.claimUid({ ...stream, namespace })));
      const holder = claims[0] as string;
      expect(['team-a', 'team-b', 'team-c']).toContain(holder);
      expect(claims.every((claim) => claim === holder)).toBe(true);
      // claimed again by its holder: still its own; another namespace: the holder
      expect(await store.claimUid({ ...stream, namespace: holder })).toBe(holder);
      expect(await store.claimUid({ ...stream, namespace: 'team-z' })).toBe(holder);
      // the same uid in another cluster or of another kind is another object
      expect(await store.claimUid({ ...stream, namespace: 'team-z', clusterId: 'cluster-b' })).toBe('team-z');
      expect(await store.claimUid({ ...stream, namespace: 'team-y', kind: 'JobSet' })).toBe('team-y');
    });
  });
}
