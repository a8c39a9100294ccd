import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { historyPage } from '../../../functions/query/history-page.ts';
import { entryAt, lastSeqRecordedBy, logHead, readRange } from '../../../functions/query/log-reads.ts';
import { readLog } from '../../../functions/query/object-log.ts';
import type { EventStore, LogEntry, NewEntry, StreamId } from '../../../shared/log/event-store.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { GENESIS_HASH, verifyChain } from '../../../shared/log/hash-chain.ts';
import { aStream, aSummary, at } from './contract/builders.ts';
import { freshTable, localClient } from './local-table.ts';
import { logEntries } from '../../support/log-entries.ts';
import { putLegacyEntries } from './legacy-items.ts';

// The query side's readers of a log (functions/query: history paging, point reads, ranges, the
// binary search by time, whole-log walks) over a log the single writer paged, mixed with the
// one-entry items older versions appended (on DynamoDB), read in chunks that cut pages (1000
// entries per read, pages of ~700).

const small = (i: number): NewEntry => ({ eventId: `e${i}`, type: 'PodObserved', observedAt: at(i), body: { pod: `p-${i}`, i } });
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => small(from + i));

/** Puts one entry at the head as an older version stored it (on DynamoDB, its own item). */
type PutLegacy = (store: EventStore, stream: StreamId, entry: NewEntry, recordedAt: string) => Promise<void>;

/** 2,302 entries: 1 legacy, 700 paged, 1 legacy, 800 paged, 800 paged; each commit one second later. */
async function mixedLog(store: EventStore, stream: StreamId, putLegacy: PutLegacy): Promise<void> {
  await putLegacy(store, stream, small(0), at(1000));
  await store.commit(stream, { expectedHead: 1, recordedAt: at(1001), entries: range(1, 700), outbox: [] });
  await putLegacy(store, stream, small(701), at(1002));
  await store.commit(stream, { expectedHead: 702, recordedAt: at(1003), entries: range(702, 800), outbox: [] });
  await store.commit(stream, { expectedHead: 1502, recordedAt: at(1004), entries: range(1502, 800), outbox: [] });
}

function describeReaders(name: string, factory: () => Promise<EventStore>, putLegacy: PutLegacy): void {
  describe(`query readers over a paged ${name} log`, () => {
    let store: EventStore;
    let stream: StreamId;
    let all: LogEntry[];
    beforeAll(async () => {
      store = await factory();
      stream = aStream();
      await mixedLog(store, stream, putLegacy);
      all = (await readLog(store, stream)).entries;
    });

    it('walks the whole log once, in order, chained', () => {
      expect(all.map((e) => e.seq)).toEqual(Array.from({ length: 2302 }, (_, i) => i + 1));
      expect(all.map((e) => e.eventId)).toEqual(Array.from({ length: 2302 }, (_, i) => `e${i}`));
      expect(verifyChain(GENESIS_HASH, all)).toBeUndefined();
    });

    it('answers the head, point reads inside pages and ranges that cut them', async () => {
      expect(await logHead(store, stream)).toBe(2302);
      for (const seq of [1, 2, 350, 701, 702, 703, 1502, 1503, 2302]) expect(await entryAt(store, stream, seq)).toEqual(all[seq - 1]);
      expect(await entryAt(store, stream, 2303)).toBeUndefined();
      expect(await readRange(store, stream, 650, 1750)).toEqual(all.slice(650, 1750));
    });

    it('finds the last position recorded by a time by binary search', async () => {
      const head = await logHead(store, stream);
      // (each step is a point read; two searches land inside a page and at its end)
      expect(await lastSeqRecordedBy(store, stream, at(1001), head)).toBe(701);
      expect(await lastSeqRecordedBy(store, stream, at(1003), head)).toBe(1502);
    });

    it('pages the history so every entry appears exactly once', async () => {
      const seen: number[] = [];
      for (let after = 0; ;) {
        const page = await historyPage(store, stream, { ...aSummary(), ...stream }, { after, limit: 500 }, () => 'observation');
        seen.push(...page.entries.map((e) => e.seq));
        if (page.nextAfter === undefined) break;
        after = page.nextAfter;
      }
      expect(seen).toEqual(all.map((e) => e.seq));
    });
  });
}

describeReaders('in-memory', async () => new InMemoryEventStore(), async (store, stream, entry, recordedAt) => void await logEntries(store, stream, [entry], recordedAt));

describe('on DynamoDB Local', () => {
  let client: DynamoDBClient;
  beforeAll(() => { client = localClient(); });
  afterAll(() => client.destroy());
  let tableName: string;
  describeReaders('DynamoDB', async () => new DynamoDbEventStore({ client, tableName: (tableName = await freshTable(client)) }),
    (store, stream, entry, recordedAt) => putLegacyEntries(client, tableName, store, stream, [entry], recordedAt));
});
