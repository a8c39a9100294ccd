import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_ENTRY_BODY_BYTES } from '../../../../shared/log/event-store-limits.ts';
import { StoreLimitError } from '../../../../shared/log/event-store.ts';
import type { EventStore } from '../../../../shared/log/event-store.ts';
import { aStream, anEntry, at, noise, podEventBody, T0 } from './builders.ts';
import type { EventStoreFactory } from './builders.ts';
import { chainEntries, GENESIS_HASH, verifyChain } from '../../../../shared/log/hash-chain.ts';
import { logEntries } from '../../../support/log-entries.ts';

/** Log and read: order, gap-free seqs, paging, repeats within a commit, concurrent committers. */
export function describeLogContract(factory: EventStoreFactory): void {
  let store: EventStore;

  describe('log and read', () => {
    beforeEach(async () => { store = await factory(); });

    it('reads an empty stream as no entries at head 0', async () => {
      expect(await store.read(aStream())).toEqual({ entries: [], head: 0 });
    });

    it('stores entries at seqs 1..n in the order given, exactly as appended', async () => {
      const stream = aStream();
      const entries = [0, 1, 2].map((i) => ({ eventId: `e${i}`, type: 'PodFailed', observedAt: at(i), body: podEventBody(i) }));

      const { appended, duplicates } = await logEntries(store, stream, entries, at(10));

      // Each entry carries its link in the log's hash chain (shared/log/hash-chain.ts).
      const expected = chainEntries(GENESIS_HASH, entries.map((e, i) => ({ ...e, seq: i + 1, recordedAt: at(10) })));
      expect(appended).toEqual(expected);
      expect(duplicates).toEqual([]);
      expect(await store.read(stream)).toEqual({ entries: expected, head: 3 });
    });

    it('chains every entry to the one before it, across commits', async () => {
      const stream = aStream();
      await logEntries(store, stream, [anEntry('a'), anEntry('b')], T0);
      await logEntries(store, stream, [anEntry('c')], at(1));
      const { entries } = await store.read(stream);
      expect(entries.every((e) => /^[0-9a-f]{64}$/.test(e.hash ?? ''))).toBe(true);
      expect(verifyChain(GENESIS_HASH, entries)).toBeUndefined();
    });

    it('continues the sequence across commits', async () => {
      const stream = aStream();
      await logEntries(store, stream, [anEntry('a'), anEntry('b')], T0);
      const { appended } = await logEntries(store, stream, [anEntry('c')], at(1));
      expect(appended.map((e) => e.seq)).toEqual([3]);
      expect((await store.read(stream)).entries.map((e) => e.eventId)).toEqual(['a', 'b', 'c']);
    });

    it('pages through the log with afterSeq and limit, reporting the head each time', async () => {
      const stream = aStream();
      await logEntries(store, stream, Array.from({ length: 7 }, (_, i) => anEntry(`e${i}`)), T0);

      const pages: number[][] = [];
      for (let afterSeq = 0; ; ) {
        const { entries, head } = await store.read(stream, { afterSeq, limit: 3 });
        expect(head).toBe(7);
        if (entries.length === 0) break;
        pages.push(entries.map((e) => e.seq));
        afterSeq = entries.at(-1)?.seq ?? afterSeq;
      }
      expect(pages).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    });

    it('keeps streams of the same uid in different clusters apart', async () => {
      const a = aStream();
      const b = { ...a, clusterId: 'cluster-b' };
      await logEntries(store, a, [anEntry('x')], T0);
      expect(await store.read(b)).toEqual({ entries: [], head: 0 });
    });

    it('round-trips a body close to the size limit', async () => {
      const stream = aStream();
      const body = { text: noise(MAX_ENTRY_BODY_BYTES - 20) };
      await logEntries(store, stream, [anEntry('big', body)], T0);
      expect((await store.read(stream)).entries[0]?.body).toEqual(body);
    });

    it('rejects a body over the size limit and writes nothing', async () => {
      const stream = aStream();
      const tooBig = anEntry('huge', { text: 'x'.repeat(MAX_ENTRY_BODY_BYTES) });
      await expect(logEntries(store, stream, [anEntry('ok'), tooBig], T0)).rejects.toBeInstanceOf(StoreLimitError);
      expect((await store.read(stream)).head).toBe(0);
    });

    it('rejects a read limit that is not a positive integer', async () => {
      await expect(store.read(aStream(), { limit: 0 })).rejects.toBeInstanceOf(RangeError);
    });
  });

  describe('repeats and races', () => {
    beforeEach(async () => { store = await factory(); });

    it('stores an eventId once when it is repeated within one commit', async () => {
      const stream = aStream();
      const result = await logEntries(store, stream, [anEntry('a'), anEntry('a', { other: true })], T0);
      expect(result.duplicates).toEqual(['a']);
      expect(await store.read(stream)).toMatchObject({ head: 1, entries: [{ eventId: 'a', body: { eventId: 'a' } }] });
    });

    it('stores every entry once at gap-free seqs when 8 committers race on the head', async () => {
      const stream = aStream();
      // Committer i sends e(6i)…e(6i+5); each retries at the new head when another landed first.
      const batches = Array.from({ length: 8 }, (_, i) => Array.from({ length: 6 }, (_, j) => anEntry(`e${6 * i + j}`)));

      const results = await Promise.all(batches.map((batch, i) => logEntries(store, stream, batch, at(i))));

      const { entries, head } = await store.read(stream);
      const ids = entries.map((e) => e.eventId);
      expect(head).toBe(48);
      expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 48 }, (_, i) => i + 1));
      expect([...ids].sort()).toEqual(Array.from({ length: 48 }, (_, i) => `e${i}`).sort());
      // A commit is atomic: each committer's entries are consecutive, in the order it gave them.
      for (const batch of batches) {
        const first = ids.indexOf(batch[0]!.eventId);
        expect(ids.slice(first, first + 6)).toEqual(batch.map((e) => e.eventId));
      }
      expect(results.flatMap((r) => r.appended.map((e) => e.eventId)).sort()).toEqual([...ids].sort());
      expect(verifyChain(GENESIS_HASH, entries)).toBeUndefined();
    });
  });
}
