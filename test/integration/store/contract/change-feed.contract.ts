import { beforeEach, describe, expect, it } from 'vitest';
import type { ChangeFeed, LogChange } from '../../../../shared/log/change-feed.ts';
import type { EventStore, StreamId } from '../../../../shared/log/event-store.ts';
import { aStream, anEntry, at } from './builders.ts';
import type { EventStoreFactory } from './builders.ts';
import { logEntries } from '../../../support/log-entries.ts';

/** The positions a list of changes covers, per stream uid, in the order given. */
function covered(changes: readonly LogChange[]): Map<string, number[]> {
  const byUid = new Map<string, number[]>();
  for (const change of changes) {
    const seqs = byUid.get(change.stream.uid) ?? [];
    for (let seq = change.firstSeq; seq <= change.lastSeq; seq++) seqs.push(seq);
    byUid.set(change.stream.uid, seqs);
  }
  return byUid;
}

/** Every change since `sinceMs`, following the cursor `limit` at a time. */
async function allChanges(store: ChangeFeed, stream: Pick<StreamId, 'kind' | 'clusterId'>, sinceMs: number, limit: number): Promise<{ changes: LogChange[]; pages: number }> {
  const changes: LogChange[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await store.logChanges({ kind: stream.kind, clusterId: stream.clusterId, sinceMs, limit, ...(cursor ? { cursor } : {}) });
    changes.push(...page.changes);
    cursor = page.cursor;
    pages++;
  } while (cursor !== undefined);
  return { changes, pages };
}

/** The change feed: every write to a log, by the time it was recorded. */
export function describeChangeFeedContract(factory: EventStoreFactory): void {
  let store: EventStore & ChangeFeed;

  describe('change feed', () => {
    beforeEach(async () => { store = await factory(); });

    it('lists the positions written at or after a time, in the order recorded, for one kind and cluster', async () => {
      const a = aStream({ clusterId: 'feed-a' });
      const b = aStream({ clusterId: 'feed-a', namespace: 'other' });
      const elsewhere = aStream({ clusterId: 'feed-b' });
      const jobSet = aStream({ clusterId: 'feed-a', kind: 'JobSet' });
      await logEntries(store, a, [anEntry('a1'), anEntry('a2')], at(0));
      await logEntries(store, b, [anEntry('b1')], at(10));
      await store.commit(a, { expectedHead: 2, recordedAt: at(20), entries: [anEntry('a3'), anEntry('a4')], outbox: [] });
      await store.commit(b, { expectedHead: 1, recordedAt: at(30), entries: [anEntry('b2')], outbox: [] });
      await logEntries(store, elsewhere, [anEntry('e1')], at(20));
      await logEntries(store, jobSet, [anEntry('j1')], at(20));

      const since10 = await allChanges(store, a, Date.parse(at(10)), 1000);

      expect(covered(since10.changes)).toEqual(new Map([[b.uid, [1, 2]], [a.uid, [3, 4]]]));
      expect(since10.changes.map((c) => c.recordedAt).map(Date.parse)).toEqual([...since10.changes.map((c) => Date.parse(c.recordedAt))].sort((x, y) => x - y));
      expect(since10.changes.find((c) => c.stream.uid === b.uid)?.stream).toEqual(b);
      expect(since10.changes.map((c) => Date.parse(c.recordedAt))).not.toContain(Date.parse(at(0)));
      expect(covered((await allChanges(store, jobSet, 0, 1000)).changes)).toEqual(new Map([[jobSet.uid, [1]]]));
      expect((await allChanges(store, a, Date.parse(at(31)), 1000)).changes).toEqual([]);
    });

    it('pages through more changes than one page holds, each once, across uids', async () => {
      const streams = Array.from({ length: 12 }, () => aStream({ clusterId: 'feed-paged' }));
      for (const [i, stream] of streams.entries()) {
        await logEntries(store, stream, [anEntry(`x${i}-1`)], at(i % 3));
        await logEntries(store, stream, [anEntry(`x${i}-2`)], at(5));
      }

      const paged = await allChanges(store, streams[0]!, 0, 5);

      expect(paged.pages).toBeGreaterThanOrEqual(5);
      expect(paged.changes).toHaveLength(24);
      expect(new Set(paged.changes.map((c) => `${c.stream.uid}/${c.firstSeq}`)).size).toBe(24);
      const times = paged.changes.map((c) => Date.parse(c.recordedAt));
      expect(times).toEqual([...times].sort((x, y) => x - y));
    });

    it('refuses a cursor it did not return and a limit out of range', async () => {
      const stream = aStream({ clusterId: 'feed-bad' });
      const query = { kind: stream.kind, clusterId: stream.clusterId, sinceMs: 0 };
      await expect(store.logChanges({ ...query, limit: 10, cursor: 'not-a-cursor' })).rejects.toThrow(RangeError);
      await expect(store.logChanges({ ...query, limit: 0 })).rejects.toThrow(RangeError);
      await expect(store.logChanges({ ...query, limit: 1001 })).rejects.toThrow(RangeError);
    });
  });
}
