import { beforeEach, describe, expect, it } from 'vitest';
import type { EventStore } from '../../../../shared/app/event-store.ts';
import type { PodArchive } from '../../../../shared/app/pod-archive.ts';
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

    it('stores and loads more pods than one batch request holds', async () => {
      const stream = aStream();
      const pods = Array.from({ length: 130 }, (_, i) => anArchivedPod(i));
      await store.saveArchivedPods(stream, pods);

      const found = await store.loadArchivedPods(stream, pods.map((p) => p.uid));

      expect(found.sort((a, b) => a.index - b.index)).toEqual(pods);
    });
  });
}
