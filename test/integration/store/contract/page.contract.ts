import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_COMMIT_BYTES, MAX_ENTRY_BODY_BYTES } from '../../../../shared/log/event-store-limits.ts';
import { StoreLimitError, VersionConflictError } from '../../../../shared/log/event-store.ts';
import type { CommitInput, EventStore, LogEntry, NewEntry, StreamId } from '../../../../shared/log/event-store.ts';
import { chainEntries, GENESIS_HASH, verifyChain } from '../../../../shared/log/hash-chain.ts';
import { aCommand, aStream, aSummary, anEntry, at, noise, podEventBody, T0 } from './builders.ts';
import type { EventStoreFactory } from './builders.ts';
import { logEntries } from '../../../support/log-entries.ts';

const observation = (i: number): NewEntry => ({ eventId: `pod-${i}`, type: 'PodObserved', observedAt: at(i), body: podEventBody(i) });
const observations = (from: number, count: number): NewEntry[] => Array.from({ length: count }, (_, i) => observation(from + i));

const paged = (expectedHead: number, entries: NewEntry[], overrides: Partial<CommitInput> = {}): CommitInput => ({
  expectedHead, recordedAt: at(100 + expectedHead), entries, outbox: [], ...overrides,
});

/** What every reader must see: the entries at their seqs, chained from the genesis hash. */
function logged(parts: Array<{ entries: NewEntry[]; recordedAt: string }>): LogEntry[] {
  const plain = parts.flatMap(({ entries, recordedAt }) => entries.map((e) => ({ ...e, recordedAt })));
  return chainEntries(GENESIS_HASH, plain.map((e, i) => ({ eventId: e.eventId, type: e.type, observedAt: e.observedAt, body: e.body, seq: i + 1, recordedAt: e.recordedAt })));
}

/**
 * Log pages: how a commit stores its entries (many entries per item, compressed). Whatever
 * commits built a log, every read window returns the same chained entries. (Logs an older
 * version wrote one item per entry are read by test/integration/store/paged-log-readers.spec.ts
 * and stored-bff3173.spec.ts.)
 */
export function describePageContract(factory: EventStoreFactory): void {
  let store: EventStore;
  let stream: StreamId;

  describe('log pages', () => {
    beforeEach(async () => {
      store = await factory();
      stream = aStream();
    });

    it('reads a log of commits of every size, at every afterSeq and limit, as one chained log', async () => {
      // given: commits of 2, 5, 1, 4 and 1 entries
      await logEntries(store, stream, observations(0, 2), T0);
      await store.commit(stream, paged(2, observations(2, 5)));
      await store.commit(stream, { expectedHead: 7, recordedAt: at(107), entries: [anEntry('d1')], outbox: [] });
      await store.commit(stream, paged(8, observations(7, 4)));
      await logEntries(store, stream, [observation(11)], at(200));

      const expected = logged([
        { entries: observations(0, 2), recordedAt: T0 },
        { entries: observations(2, 5), recordedAt: at(102) },
        { entries: [anEntry('d1')], recordedAt: at(107) },
        { entries: observations(7, 4), recordedAt: at(108) },
        { entries: [observation(11)], recordedAt: at(200) },
      ]);
      // then: the whole log, chained across the commits
      const all = await store.read(stream);
      expect(all).toEqual({ entries: expected, head: 13 });
      expect(verifyChain(GENESIS_HASH, all.entries)).toBeUndefined();
      // and every window: afterSeq inside a page, limit cutting inside a page, beyond the head
      // (pages hold 3–7 and 9–12; afterSeq at each boundary and inside, as DynamoDB Local is slow)
      for (const afterSeq of [0, 2, 3, 5, 7, 8, 10, 12, 13, 14]) {
        for (const limit of [1, 2, undefined]) {
          const window = await store.read(stream, { afterSeq, limit });
          const want = expected.slice(afterSeq, limit === undefined ? undefined : afterSeq + limit);
          expect({ afterSeq, limit, ...window }).toEqual({ afterSeq, limit, entries: want, head: 13 });
        }
      }
    });

    it('returns what it appended, chained on from the head, with the outbox, summary and snapshot', async () => {
      await logEntries(store, stream, observations(0, 2), T0);
      const input = paged(2, observations(2, 3), {
        outbox: [aCommand('c1')], summary: aSummary(), snapshot: { seq: 5, state: { pods: 5 } },
      });

      const result = await store.commit(stream, input);

      const expected = logged([{ entries: observations(0, 2), recordedAt: T0 }, { entries: observations(2, 3), recordedAt: at(102) }]);
      expect(result).toEqual({ head: 5, appended: expected.slice(2), duplicates: [], snapshotSaved: true });
      expect(await store.pendingOutbox(10)).toEqual([{ ...aCommand('c1'), stream }]);
      expect(await store.findJob({ ...stream, name: 'train' })).toMatchObject({ uid: stream.uid, name: 'train' });
      expect(await store.loadSnapshot(stream)).toEqual({ seq: 5, state: { pods: 5 } });
    });

    it('holds more entries in one commit than a transaction holds items', async () => {
      const entries = Array.from({ length: 128 }, (_, i) => anEntry(`e${i}`));
      const result = await store.commit(stream, paged(0, entries));
      expect(result.head).toBe(128);
      expect((await store.read(stream, { afterSeq: 100, limit: 5 })).entries.map((e) => e.eventId)).toEqual(['e100', 'e101', 'e102', 'e103', 'e104']);
    });

    it('stores an eventId repeated within the commit once, and does not look up eventIds already logged', async () => {
      await store.commit(stream, paged(0, [anEntry('a')]));

      const result = await store.commit(stream, paged(1, [anEntry('b'), anEntry('b'), anEntry('a')]));

      // No markers: the caller (the single writer) drops what the log holds before committing.
      expect(result.duplicates).toEqual(['b']);
      expect((await store.read(stream)).entries.map((e) => [e.seq, e.eventId])).toEqual([[1, 'a'], [2, 'b'], [3, 'a']]);
    });

    it('throws VersionConflictError and writes nothing when the head moved', async () => {
      await store.commit(stream, paged(0, observations(0, 3)));
      await logEntries(store, stream, [observation(3)], at(1));

      const error = await store.commit(stream, paged(3, observations(4, 3), { outbox: [aCommand('c1')], summary: aSummary(), snapshot: { seq: 3, state: {} } }))
        .catch((e: unknown) => e);

      expect(error).toBeInstanceOf(VersionConflictError);
      expect((await store.read(stream)).entries.map((e) => e.eventId)).toEqual(['pod-0', 'pod-1', 'pod-2', 'pod-3']);
      expect(await store.pendingOutbox(10)).toEqual([]);
      expect(await store.findJob({ ...stream, name: 'train' })).toBeUndefined();
      expect(await store.loadSnapshot(stream)).toBeUndefined();
    });

    it('checks the head of a log that ends in a page when there is nothing to write', async () => {
      await store.commit(stream, paged(0, observations(0, 3)));
      await expect(store.commit(stream, paged(2, []))).rejects.toBeInstanceOf(VersionConflictError);
      expect(await store.commit(stream, paged(3, []))).toEqual({ head: 3, appended: [], duplicates: [], snapshotSaved: false });
    });

    it('lets only one of two paged commits at the same head land', async () => {
      await store.commit(stream, paged(0, observations(0, 2)));

      const outcomes = await Promise.allSettled([
        store.commit(stream, paged(2, observations(10, 3))),
        store.commit(stream, paged(2, observations(20, 1))),
      ]);

      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const rejected = outcomes.find((o) => o.status === 'rejected');
      expect(rejected?.status === 'rejected' && rejected.reason).toBeInstanceOf(VersionConflictError);
      const { entries, head } = await store.read(stream);
      expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
      expect(verifyChain(GENESIS_HASH, entries)).toBeUndefined();
    });

    it('keeps the log gap-free and chained when a retrying committer races a commit', async () => {
      await logEntries(store, stream, observations(0, 2), T0);

      const [appendOutcome, commitOutcome] = await Promise.allSettled([
        logEntries(store, stream, [observation(50)], at(1)),
        store.commit(stream, paged(2, observations(10, 3))),
      ]);

      expect(appendOutcome.status).toBe('fulfilled');
      if (commitOutcome.status === 'rejected') expect(commitOutcome.reason).toBeInstanceOf(VersionConflictError);
      const { entries, head } = await store.read(stream);
      expect(head).toBe(commitOutcome.status === 'fulfilled' ? 6 : 3);
      expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
      expect(entries.filter((e) => e.eventId === 'pod-50')).toHaveLength(1);
      expect(verifyChain(GENESIS_HASH, entries)).toBeUndefined();
    });

    it('round-trips a commit of twice what one stored item holds, compressed', async () => {
      // Bodies that barely compress (to ~75%): ~750 KB compressed, over twice a page's 350 KB.
      const entries = [0, 1, 2, 3].map((i) => anEntry(`big-${i}`, { text: noise(250_000, i + 1) }));
      await logEntries(store, stream, [anEntry('first')], T0);

      await store.commit(stream, paged(1, entries, { outbox: [aCommand('c1')] }));

      const { entries: read, head } = await store.read(stream);
      expect(head).toBe(5);
      expect(read.map((e) => e.body)).toEqual([{ eventId: 'first' }, ...entries.map((e) => e.body)]);
      expect(verifyChain(GENESIS_HASH, read)).toBeUndefined();
      expect((await store.read(stream, { afterSeq: 2, limit: 2 })).entries.map((e) => e.eventId)).toEqual(['big-1', 'big-2']);
    });

    it('rejects a paged commit larger than one transaction holds and writes nothing', async () => {
      const count = Math.ceil(MAX_COMMIT_BYTES / (MAX_ENTRY_BODY_BYTES - 50_000)) + 1;
      const text = noise(MAX_ENTRY_BODY_BYTES - 50_000);
      const entries = Array.from({ length: count }, (_, i) => anEntry(`big-${i}`, { text }));

      const error = await store.commit(stream, paged(0, entries, { outbox: [aCommand('c1')], summary: aSummary() })).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(StoreLimitError);
      expect(error).toMatchObject({ limit: 'commit (bytes)', max: MAX_COMMIT_BYTES });
      expect((await store.read(stream)).head).toBe(0);
      expect(await store.pendingOutbox(10)).toEqual([]);
    });
  });
}
