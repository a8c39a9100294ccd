import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { lastSeqRecordedBy } from '../../../functions/query/log-reads.ts';
import { HistoryPageSchema } from '../../../functions/query/schemas/history-schemas.ts';
import type { NewEntry, StreamId } from '../../../shared/log/event-store.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { jobPath, queryClient, type Get } from '../../unit/query/support/query-client.ts';
import { aStream, aSummary, at } from '../store/contract/builders.ts';
import { freshTable, localClient } from '../store/local-table.ts';
import { logEntries } from '../../support/log-entries.ts';

// Given a Job log on DynamoDB Local of 20,000+ entries, written as the store has written logs
// over time — one-entry items (the appends before log pages) between log pages of uneven sizes
// (the single writer's commits) — when GET …/history is paged to the end with page sizes that
// cut the log pages at every offset, then every entry comes exactly once, in order; and a cursor
// (`nextAfter`) taken inside a log page still continues exactly after the log grew past it
// (issue 10: "/history paging reaches every entry exactly once"); and the search by time that
// `status?at=<time>` uses finds the position a scan would.

const small = (i: number): NewEntry => ({ eventId: `e${i}`, type: 'PodObserved', observedAt: at(i % 80_000), body: { pod: `p-${i}`, i } });
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => small(from + i));

/** Log page sizes, in commit order: big, odd, tiny, and one entry alone as a page. */
const PAGE_SIZES = [997, 1, 700, 3, 1000, 501, 2, 999, 640, 1000];

let client: DynamoDBClient;
let store: DynamoDbEventStore;
let stream: StreamId;
let get: Get;
let head = 0;
const legacyItems: number[] = [];

/** Appends `rounds` × (one one-entry item, then a log page of each PAGE_SIZES size). */
async function grow(rounds: number): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    await logEntries(store, stream, [small(head)], at(head));
    head++;
    legacyItems.push(head);
    for (const size of PAGE_SIZES) {
      await store.commit(stream, { expectedHead: head, recordedAt: at(head), entries: range(head, size), outbox: [], summary: aSummary() });
      head += size;
    }
  }
}

beforeAll(async () => {
  client = localClient();
  store = new DynamoDbEventStore({ client, tableName: await freshTable(client) });
  stream = aStream();
  await grow(4);
  get = queryClient({ store, config: DEFAULT_FOLD_CONFIG });
}, 240_000);
afterAll(() => client.destroy());

const path = () => jobPath(stream.clusterId, stream.namespace, 'train', '/history');

/** Pages /history from `after` to the end, `limit` a page: the seqs seen and the cursors given. */
async function walk(limit: number, after = 0, stopAfterPages = Infinity): Promise<{ seqs: number[]; cursors: number[] }> {
  const seqs: number[] = [];
  const cursors: number[] = [];
  for (let pages = 0, next: number | undefined = after; next !== undefined && pages < stopAfterPages; pages++) {
    const { status, body } = await get(path(), { after: String(next), limit: String(limit) });
    expect(status).toBe(200);
    const page = HistoryPageSchema.parse(body);
    seqs.push(...page.entries.map((e) => e.seq));
    next = page.nextAfter;
    if (next !== undefined) cursors.push(next);
  }
  return { seqs, cursors };
}

const oneToHead = () => Array.from({ length: head }, (_, i) => i + 1);

describe('/history paging over a long log of one-entry items and log pages, on DynamoDB Local', () => {
  it('holds the log this spec is about: 20,000+ entries, one-entry items between pages', async () => {
    expect(head).toBeGreaterThan(20_000);
    expect(legacyItems).toHaveLength(4);
    const { body } = await get(path(), { after: String(legacyItems[1]! - 1), limit: '2' });
    expect(body.entries.map((e: { eventId: string }) => e.eventId)).toEqual([`e${legacyItems[1]! - 1}`, `e${legacyItems[1]}`]);
  });

  it.each([500, 333])('reaches every entry exactly once, in order, %i a page', async (limit) => {
    const { seqs, cursors } = await walk(limit);
    expect(seqs).toEqual(oneToHead());
    // Most cursors point inside a log page, so most pages start inside one.
    expect(cursors.filter((c) => !legacyItems.includes(c + 1)).length).toBeGreaterThan(cursors.length * 0.9);
  }, 120_000);

  it('continues a cursor taken inside a log page after the log grew past it', async () => {
    const before = head;
    const first = await walk(499, 0, 11);
    const cursor = first.cursors.at(-1)!;
    expect(cursor).toBe(499 * 11);
    await grow(1);
    const rest = await walk(500, cursor);
    expect([...first.seqs, ...rest.seqs]).toEqual(oneToHead());
    expect(head).toBeGreaterThan(before);
  }, 120_000);

  it('finds the last position recorded by a time, as a scan of the log does', async () => {
    const entries = (await store.read(stream)).entries;
    const times = [...new Set(entries.map((e) => e.recordedAt))];
    for (const time of [times[0]!, times[7]!, times[17]!, times.at(-2)!, '2026-01-01T00:00:00Z', '2099-01-01T00:00:00Z']) {
      const expected = entries.filter((e) => e.recordedAt <= time).at(-1)?.seq ?? 0;
      expect(await lastSeqRecordedBy(store, stream, time, head)).toBe(expected);
    }
  }, 120_000);

  it('refuses cursors and sizes it cannot honour with 400 naming the parameter', async () => {
    for (const [query, field] of [[{ after: '-1' }, 'query.after'], [{ limit: '0' }, 'query.limit'], [{ limit: '501' }, 'query.limit'], [{ after: '1e3' }, 'query.after']] as const) {
      const { status, body } = await get(path(), query);
      expect(status).toBe(400);
      expect(body.errors[0].path).toBe(field);
    }
  });
});
