import { beforeAll, describe, expect, it } from 'vitest';
import type { ReadOptions, ReadResult, Snapshot, SnapshotQuery, StreamId } from '../../../shared/log/event-store.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { loadState } from '../../../shared/decide/load-log.ts';
import { jobSetDecider } from '../../../shared/jobset/index.ts';
import { explainJobSet } from '../../../shared/jobset/explain.ts';
import { jobSetStatus } from '../../../shared/jobset/index.ts';
import { readJobSetWindow } from '../../../functions/query/jobsets/jobset-log-window.ts';
import { loggedJobSetDecisions } from '../../../functions/query/jobsets/jobset-entries.ts';
import { JobSetExplanationSchema } from '../../../functions/query/jobsets/jobset-explanation-schemas.ts';
import { JobSetViewSchema } from '../../../functions/query/jobsets/jobset-schemas.ts';
import { EXIT_CODE_2, JOBSET_NAME, playJobSetJsonl } from './support/jobset-fleet.ts';
import { jobSetPath, queryClient, type Get } from './support/query-client.ts';
import { aService, deliverAt, readPutEvents } from './support/service-fleet.ts';

// Given a JobSet that failed (samples/jobset-exit-code-2.jsonl) and was then observed 40 more
// times, whose log holds a snapshot every 5 entries, when its view and explanation are read, then they equal a replay of the log
// from the start, and with a window shorter than the log they read only the window, the tail
// after the newest snapshot and the few entries the conditions' decisions lie in, not the log
// (issue 10: the JobSet routes start from a snapshot, as the Job routes do).

/** The store, counting the log entries that reads return. */
class CountingStore extends InMemoryEventStore {
  entriesRead = 0;
  snapshotsLoaded = 0;
  override async read(stream: StreamId, options?: ReadOptions): Promise<ReadResult> {
    const result = await super.read(stream, options);
    this.entriesRead += result.entries.length;
    return result;
  }
  override async loadSnapshot(stream: StreamId, query?: SnapshotQuery): Promise<Snapshot | undefined> {
    this.snapshotsLoaded++;
    return super.loadSnapshot(stream, query);
  }
}

let store: CountingStore;
let stream: StreamId;
let get: Get;
let head: number;

beforeAll(async () => {
  store = new CountingStore();
  const service = aService(store);
  stream = await playJobSetJsonl(service, EXIT_CODE_2, 'c1');
  // The cluster keeps reporting the failed JobSet, each time at a newer resourceVersion (a
  // version seen already is dropped as stale): the log grows long after its condition.
  const observed = readPutEvents(EXIT_CODE_2, 'c1').find((event) => event['detail-type'] === 'JobSet Observed')!;
  const { object } = observed.detail as unknown as { object: { metadata: Record<string, unknown> } };
  for (let i = 0; i < 40; i++) {
    const at = `2026-01-01T01:${String(i).padStart(2, '0')}:00Z`;
    const again = { ...object, metadata: { ...object.metadata, resourceVersion: String(9000 + i) } };
    await deliverAt(service, at, [{ ...observed, detail: { ...observed.detail, eventId: `again-${i}`, observedAt: at, object: again } }]);
  }
  head = (await store.read(stream)).head;
  get = queryClient(service);
});

async function fromStart() {
  const { state } = await loadState(jobSetDecider(), store, stream, { fromStart: true });
  return { state, decisions: loggedJobSetDecisions((await store.read(stream)).entries) };
}

describe('a JobSet read from its newest snapshot', () => {
  it('has the log this spec is about: Failed decided early, a long log after it, snapshots', async () => {
    const { state, decisions } = await fromStart();
    expect(explainJobSet(state, decisions).conditions.map((c) => [c.type, c.decidedBy])).toEqual([['Failed', 15]]);
    expect(head).toBeGreaterThan(60);
    expect((await store.loadSnapshot(stream, { atOrBefore: head }))?.seq).toBeGreaterThan(head - 10);
  });

  it('equals a replay from the start when the window holds the whole log', async () => {
    const { state, decisions } = await fromStart();
    const window = await readJobSetWindow(store, stream);
    expect(jobSetStatus(window.state)).toEqual(jobSetStatus(state));
    expect(window.decisions).toEqual(decisions);
    expect(window.decisionsFrom).toBe(1);
    expect(explainJobSet(window.state, window.decisions)).toEqual(explainJobSet(state, decisions));
  });

  it('with a short window reads a part of the log and still cites every condition\'s decision', async () => {
    const { state, decisions } = await fromStart();
    const full = explainJobSet(state, decisions);
    const before = store.entriesRead;
    const window = await readJobSetWindow(store, stream, 6);
    const read = store.entriesRead - before;
    expect(window.decisionsFrom).toBe(head - 5);
    expect(window.decisions).toEqual(decisions.filter((d) => d.seq > head - 6));
    expect(jobSetStatus(window.state)).toEqual(jobSetStatus(state));
    const explained = explainJobSet(window.state, [...window.cited.filter((d) => d.seq < window.decisionsFrom), ...window.decisions]);
    expect(explained.conditions).toEqual(full.conditions);
    expect(full.conditions.some((c) => c.decidedBy !== undefined && c.decidedBy < head - 6)).toBe(true);
    // The window (6), the tail after the newest snapshot (< 5) and the span the binary search
    // over snapshots leaves (≤ 16 entries) — not the 61 of the log.
    expect(read).toBeLessThanOrEqual(6 + 5 + 16);
    expect(read).toBeLessThan(head / 2);
  });

  it('answers the routes with the window stated: commandsFrom and eventsFrom', async () => {
    const path = jobSetPath('c1', 'default', JOBSET_NAME);
    const view = await get(path);
    expect(JobSetViewSchema.parse(view.body)).toEqual(view.body);
    expect(view.body.commandsFrom).toBe(1);
    expect(view.body.log.head).toBe(head);
    const explanation = await get(`${path}/explain`);
    expect(JobSetExplanationSchema.parse(explanation.body)).toEqual(explanation.body);
    expect(explanation.body.eventsFrom).toBe(1);
    const { state, decisions } = await fromStart();
    expect(explanation.body.events.map((e: { seq: number }) => e.seq)).toEqual(explainJobSet(state, decisions).events.map((e) => e.seq));
  });
});
