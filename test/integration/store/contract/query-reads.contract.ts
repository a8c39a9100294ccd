import { beforeEach, describe, expect, it } from 'vitest';
import type { CommitInput, EventStore, NewEntry, StreamId } from '../../../../shared/log/event-store.ts';
import { GENESIS_HASH, verifyChain } from '../../../../shared/log/hash-chain.ts';
import { aStream, anEntry, at, noise, T0 } from './builders.ts';
import type { EventStoreFactory } from './builders.ts';
import { logEntries } from '../../../support/log-entries.ts';

const entries = (from: number, count: number): NewEntry[] => Array.from({ length: count }, (_, i) => anEntry(`e-${from + i}`));

const paged = (expectedHead: number, batch: NewEntry[], podFirstSightings: number[]): CommitInput => ({
  expectedHead, recordedAt: at(100 + expectedHead), entries: batch, outbox: [], podFirstSightings,
});

/**
 * What the query routes read beside the entries. First-sighting marks (CommitInput.
 * podFirstSightings): kept beside a paged commit's entries, outside the hash chain, and read
 * back with exactly the entries each read returns. Point reads (`skipHead`).
 */
export function describeQueryReadsContract(factory: EventStoreFactory): void {
  let store: EventStore;
  let stream: StreamId;
  beforeEach(async () => {
    store = await factory();
    stream = aStream();
  });

  describe('first-sighting marks', () => {
    it('reads back the marks of the entries each read returns, in every window', async () => {
      // given: 2 appended (no marks), a page of 6 marking seqs 3, 4 and 8, a page of 4 marking 12
      await logEntries(store, stream, entries(1, 2), T0);
      await store.commit(stream, paged(2, entries(3, 6), [0, 1, 5]));
      await store.commit(stream, paged(8, entries(9, 4), [3]));
      const marked = [3, 4, 8, 12];

      // then: each window (at a page's start or inside one, cut inside one) returns the marks within it
      for (const afterSeq of [0, 2, 3, 5, 8, 10]) {
        for (const limit of [1, 3, undefined]) {
          const read = await store.read(stream, { afterSeq, limit });
          const last = read.entries.at(-1)?.seq ?? afterSeq;
          const want = marked.filter((seq) => seq > afterSeq && seq <= last);
          expect({ afterSeq, limit, marks: read.podFirstSightings ?? [] }).toEqual({ afterSeq, limit, marks: want });
          expect(read.head).toBe(12);
        }
      }
      // and the entries are chained as if there were no marks
      const all = await store.read(stream);
      expect(all.entries.every((entry) => !('podFirstSightings' in entry))).toBe(true);
      expect(verifyChain(GENESIS_HASH, all.entries)).toBeUndefined();
    });

    it('says nothing of entries stored without marks', async () => {
      await logEntries(store, stream, entries(1, 2), T0);
      await store.commit(stream, { expectedHead: 2, recordedAt: at(1), entries: entries(3, 3), outbox: [] });
      await store.commit(stream, { expectedHead: 5, recordedAt: at(2), entries: entries(6, 1), outbox: [] });

      const read = await store.read(stream);

      expect(read.head).toBe(6);
      expect(read).not.toHaveProperty('podFirstSightings');
    });

    it('keeps each mark with its entry when a commit is split into several stored pages', async () => {
      // Bodies that barely compress: ~750 KB compressed, more than two pages of 350 KB.
      const big = [0, 1, 2, 3].map((i) => anEntry(`big-${i}`, { text: noise(250_000, i + 1) }));

      await store.commit(stream, paged(0, big, [1, 3]));

      expect((await store.read(stream)).podFirstSightings).toEqual([2, 4]);
      expect((await store.read(stream, { afterSeq: 2, limit: 1 })).podFirstSightings).toEqual(undefined);
      expect((await store.read(stream, { afterSeq: 2 })).podFirstSightings).toEqual([4]);
    });

    it('drops the mark of a repeated eventId left out of the commit', async () => {
      // given: e-2 twice, the second marked; the entry stored is the first, unmarked
      const batch = [anEntry('e-1'), anEntry('e-2'), anEntry('e-2'), anEntry('e-3')];

      const result = await store.commit(stream, paged(0, batch, [0, 2, 3]));

      expect(result.duplicates).toEqual(['e-2']);
      expect((await store.read(stream)).podFirstSightings).toEqual([1, 3]);
    });

    it('rejects a mark that is not an index of the entries, and writes nothing', async () => {
      for (const bad of [-1, 3, 1.5]) {
        await expect(store.commit(stream, paged(0, entries(1, 3), [bad]))).rejects.toThrow(/podFirstSightings/);
      }
      expect((await store.read(stream)).head).toBe(0);
    });
  });

  describe('point reads', () => {
    it('reads one entry with skipHead, reporting a head between the entry and the real head', async () => {
      await logEntries(store, stream, entries(1, 2), T0);
      await store.commit(stream, paged(2, entries(3, 6), []));

      for (const seq of [1, 3, 5, 8]) {
        const read = await store.read(stream, { afterSeq: seq - 1, limit: 1, skipHead: true });
        expect(read.entries.map((e) => e.eventId)).toEqual([`e-${seq}`]);
        expect(read.head).toBeGreaterThanOrEqual(seq);
        expect(read.head).toBeLessThanOrEqual(8);
      }
      expect(await store.read(stream, { afterSeq: 8, limit: 1, skipHead: true })).toEqual({ entries: [], head: 8 });
    });
  });
}
