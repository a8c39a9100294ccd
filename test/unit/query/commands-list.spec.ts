import { beforeAll, describe, expect, it } from 'vitest';
import type { ReadOptions, ReadResult, SnapshotQuery, StreamId } from '../../../shared/log/event-store.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { decodeCommandsCursor, encodeCommandsCursor } from '../../../functions/query/commands/commands-cursor.ts';
import { SCAN_BUDGET } from '../../../functions/query/commands/commands-page.ts';
import { JobCommandsPageSchema, JobSetCommandsPageSchema } from '../../../functions/query/commands/commands-schemas.ts';
import { issuedCommands } from '../../../functions/query/issued-commands.ts';
import { readLog } from '../../../functions/query/object-log.ts';
import { storedJobView } from '../../../functions/query/stored-job-view.ts';
import { readJobSetWindow } from '../../../functions/query/jobsets/jobset-log-window.ts';
import { commandViews } from '../../../functions/query/views.ts';
import { buildFleet, type Fleet } from './support/fleet.ts';
import { buildJobSetFleet, type JobSetFleet } from './support/jobset-fleet.ts';
import { foldJobLog } from './support/full-replay.ts';
import { jobManagedBy } from '../../../functions/query/commands/job-commands.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import { aJob, aPod } from '../../support/builders.ts';
import { jobObservedEvent, jobStream, podObservedEvent } from '../../support/inbound-events.ts';
import { managedTrace, play, trainTrace } from './support/command-jobs.ts';
import { jobPath, jobSetPath, queryClient, TEST_CURSOR_KEY, type Get } from './support/query-client.ts';
import { aService, deliverAt, type Service } from './support/service-fleet.ts';

// Given Jobs and JobSets played through the service (terminations, creations, status writes,
// child Job commands), when `…/commands` is paged with small limits, then every command the
// full fold issued appears exactly once, in order, a decision naming more pods than a page
// holds is split across pages, each page reads the log only from its cursor on, and cursors
// the API did not return for that object, like bad limits, are 400s naming the parameter.
// (A 12,000-pod decision: commands-big-decision.spec.ts.)

/** The store, recording the reads made (their start and the entries returned). */
class CountingStore extends InMemoryEventStore {
  reads: { afterSeq: number; entries: number }[] = [];
  snapshotLoads = 0;
  override async loadSnapshot(stream: StreamId, options?: SnapshotQuery) {
    this.snapshotLoads++;
    return super.loadSnapshot(stream, options);
  }
  override async read(stream: StreamId, options?: ReadOptions): Promise<ReadResult> {
    const result = await super.read(stream, options);
    this.reads.push({ afterSeq: options?.afterSeq ?? 0, entries: result.entries.length });
    return result;
  }
}

type Item = Record<string, any> & { seq: number; type: string };
interface Walk { pages: { items: Item[]; nextCursor?: string; head: number; through: number }[]; items: Item[] }

let store: CountingStore;
let service: Service;
let get: Get;
let fleet: Fleet;
let jobSets: JobSetFleet;
let train: StreamId;
let managed: StreamId;

beforeAll(async () => {
  store = new CountingStore();
  service = aService(store);
  fleet = await buildFleet(service, 0);
  jobSets = await buildJobSetFleet(service);
  train = await play(service, trainTrace());
  managed = await play(service, managedTrace());
  get = queryClient(service);
});

const pathOf = (stream: StreamId, name: string) => (stream.kind === 'Job' ? jobPath : jobSetPath)(stream.clusterId, stream.namespace, name, '/commands');

async function walk(path: string, uid: string, limit: number): Promise<Walk> {
  const pages: Walk['pages'] = [];
  let after: string | undefined;
  do {
    const { status, body } = await get(path, { uid, limit: String(limit), ...(after === undefined ? {} : { after }) });
    expect(status, JSON.stringify(body)).toBe(200);
    pages.push(body);
    after = body.nextCursor;
  } while (after !== undefined && pages.length < 1000);
  return { pages, items: pages.flatMap((p) => p.items) };
}

/** What the full fold issued, as the list shows it: without `observed`, with the deciding decision's type. */
async function issuedByFullFold(stream: StreamId) {
  const { entries } = await readLog(store, stream);
  const { state, events } = foldJobLog(service.config, entries);
  const types = new Map(entries.map((e) => [e.seq, e.type]));
  return issuedCommands(events, state.settings?.managedBy, stream.uid).map(({ observed: _observed, ...command }: any) => ({ ...command, decision: types.get(command.seq) }));
}

/** The pages' items with each decision's pod slices joined back: one item per decision. */
function joined(items: readonly Item[]): Item[] {
  const result: Item[] = [];
  for (const { podsFrom, podsOf, ...item } of items) {
    if (podsFrom === undefined) { result.push(item); continue; }
    const last = result.at(-1);
    if (podsFrom > 0) {
      expect(last?.seq).toBe(item.seq);
      expect(last?.pods).toHaveLength(podsFrom);
      last!.pods.push(...item.pods);
    } else result.push({ ...item, pods: [...item.pods] });
    expect(podsOf).toBeGreaterThanOrEqual(podsFrom + item.pods.length);
  }
  return result;
}

/** One string per command published: each pod of a pod command, each other command once. */
const units = (items: readonly Item[]) => items.flatMap((c) => (c.pods ? c.pods.map((p: { uid: string }) => `${c.seq} ${c.type} ${p.uid}`) : [`${c.seq} ${c.type}`]));

describe('GET …/jobs/{name}/commands', () => {
  it('has the Jobs this spec is about: terminations, creations, status writes and finalizer removals', async () => {
    const all = (await Promise.all([fleet.story, fleet.older, fleet.failed, train, managed].map(issuedByFullFold))).flat();
    expect(new Set(all.map((c) => c.type))).toEqual(new Set(['TerminatePod', 'CreatePod', 'UpdateJobStatus', 'RemovePodFinalizer']));
    expect(Math.max(...all.filter((c) => c.type === 'TerminatePod').map((c) => c.pods.length))).toBe(30);
  });

  it.each([1, 2, 3, 7, 500])('lists every command the full fold issued exactly once, in log order, at limit %i', async (limit) => {
    for (const [stream, name] of [[fleet.story, 'foobar'], [fleet.older, 'foobar'], [fleet.failed, 'train'], [train, 'train'], [managed, 'managed']] as const) {
      const expected = await issuedByFullFold(stream);
      const { pages, items } = await walk(pathOf(stream, name), stream.uid, limit);
      for (const page of pages) {
        expect(JobCommandsPageSchema.parse(page)).toEqual(page);
        expect(units(page.items).length).toBeLessThanOrEqual(limit);
        // `through`: every command up to it is listed; the next page starts right after it.
        expect(page.through).toBe(page.nextCursor === undefined ? page.head : decodeCommandsCursor(TEST_CURSOR_KEY, stream, page.nextCursor).after);
        expect(page.items.every((item) => item.seq <= page.through + 1)).toBe(true);
      }
      expect(joined(items)).toEqual(JSON.parse(JSON.stringify(expected)));
      const listed = units(items);
      expect(new Set(listed).size).toBe(listed.length);
      expect(listed).toEqual(units(expected as Item[]));
    }
  });

  it('pages inside a decision that names more pods than a page holds, each slice saying where it lies', async () => {
    const { pages } = await walk(pathOf(train, 'train'), train.uid, 7);
    const slices = pages.flatMap((p) => p.items).filter((i) => i.type === 'TerminatePod');
    expect(slices.length).toBeGreaterThanOrEqual(5);
    expect(new Set(slices.map((s) => s.seq)).size).toBe(1);
    slices.forEach((slice, i) => {
      expect(slice.podsOf).toBe(30);
      expect(slice.pods.length).toBeLessThanOrEqual(7);
      expect(slice.podsFrom).toBe(i === 0 ? 0 : slices[i - 1]!.podsFrom + slices[i - 1]!.pods.length);
    });
    expect(slices.at(-1)!.podsFrom + slices.at(-1)!.pods.length).toBe(30);
    expect(slices[0]).toMatchObject({ decision: 'PodsTerminationRequested', cause: 'JobFinishing', dispatched: true });
  });

  it('reads each page from its cursor on, never the log before it, nor the snapshot again', async () => {
    let after: string | undefined;
    let pages = 0;
    do {
      store.reads = [];
      store.snapshotLoads = 0;
      const { body } = await get(pathOf(train, 'train'), { limit: '4', ...(after === undefined ? {} : { after }) });
      const from = after === undefined ? 0 : decodeCommandsCursor(TEST_CURSOR_KEY, train, after).after;
      const logReads = store.reads.filter((r) => r.entries > 0);
      expect(Math.min(...logReads.map((r) => r.afterSeq))).toBeGreaterThanOrEqual(from);
      expect(logReads.reduce((sum, r) => sum + r.entries, 0)).toBeLessThanOrEqual(SCAN_BUDGET + 1);
      // spec.managedBy (whether commands were dispatched) rides in the signed cursor.
      expect(store.snapshotLoads).toBe(after === undefined ? 1 : 0);
      after = body.nextCursor;
      pages++;
    } while (after !== undefined);
    expect(pages).toBeGreaterThan(5);
  });

  it('takes a cursor without spec.managedBy (an earlier version\'s) and finds it again', async () => {
    const all = (await walk(pathOf(managed, 'managed'), managed.uid, 500)).items;
    const { body } = await get(pathOf(managed, 'managed'), { limit: '1', after: encodeCommandsCursor(TEST_CURSOR_KEY, managed, { after: 0, pods: 0 }) });
    expect(body.items).toEqual(all.slice(0, 1));
    expect(body.items[0]).toMatchObject({ dispatched: true });
    expect(decodeCommandsCursor(TEST_CURSOR_KEY, managed, body.nextCursor).managedBy).toBe('jobfold.io/job-controller');
  });

  it('lists what the Job view lists, where the view lists it', async () => {
    const summary = (await store.findJob({ kind: 'Job', clusterId: 'c1', namespace: 'ml', name: 'train' }))!;
    const view = await storedJobView({ ...service, cursorKey: TEST_CURSOR_KEY }, summary, train);
    const { items } = await walk(pathOf(train, 'train'), train.uid, 500);
    expect(view.commandsFrom).toBe(1);
    expect(joined(items).map(({ decision: _d, ...c }) => c)).toEqual(view.commands.map(({ observed: _o, ...c }: any) => c));
  });

  it('answers 404 for a Job with no history, as the other routes do', async () => {
    const { status } = await get(jobPath('c1', 'ml', 'nothing', '/commands'));
    expect(status).toBe(404);
  });
});

describe('GET …/jobsets/{name}/commands', () => {
  it.each([1, 3, 500])('lists every child Job command of the JobSet exactly once, in log order, at limit %i', async (limit) => {
    for (const stream of [jobSets.failed, jobSets.restarted]) {
      const window = await readJobSetWindow(store, stream);
      expect(window.decisionsFrom).toBe(1);
      const expected = commandViews(window.decisions);
      expect(expected.length).toBeGreaterThan(3);
      const { pages, items } = await walk(pathOf(stream, 'restart-job-example'), stream.uid, limit);
      for (const page of pages) expect(JobSetCommandsPageSchema.parse(page)).toEqual(page);
      expect(items).toEqual(expected);
    }
  });
});

describe('bad cursors and limits', () => {
  const path = () => pathOf(train, 'train');
  const firstCursor = async (stream = train, name = 'train') =>
    (await get(pathOf(stream, name), { uid: stream.uid, limit: '1' })).body.nextCursor as string;
  const refusal = async (query: Record<string, string>, at = path()) => {
    const { status, body } = await get(at, query);
    expect(status).toBe(400);
    return body.errors as { path: string; message: string }[];
  };

  it('refuses a forged, altered or truncated cursor at query.after', async () => {
    const cursor = await firstCursor();
    const [payload, mac] = cursor.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ v: 1, k: 'Job', u: train.uid, a: 0, p: 5 })).toString('base64url');
    for (const after of ['x', `${forged}.${mac}`, `${payload}.${mac.slice(0, -2)}`, `${payload}.${mac}.more`, `${payload.slice(1)}.${mac}`, cursor.slice(0, 20)]) {
      expect(await refusal({ after }), after).toEqual([{ path: 'query.after', message: expect.stringContaining('is not a cursor this API returned') }]);
    }
  });

  it('refuses a cursor returned for another Job, for a JobSet, or signed with another key', async () => {
    const story = await firstCursor(fleet.story, 'foobar');
    expect(await refusal({ after: story })).toEqual([{ path: 'query.after', message: expect.stringContaining('was returned for another Job') }]);
    const jobSet = await firstCursor(jobSets.failed, 'restart-job-example');
    expect(await refusal({ after: jobSet })).toEqual([{ path: 'query.after', message: expect.stringContaining('was returned for another JobSet') }]);
    const otherKey = queryClient({ ...service, cursorKey: Buffer.from('another-cursor-key-of-32-bytes-or-more', 'utf8') });
    const { status, body } = await otherKey(path(), { after: await firstCursor() });
    expect(status).toBe(400);
    expect(body.errors).toEqual([{ path: 'query.after', message: expect.stringContaining('signed with another key') }]);
  });

  it('refuses a fleet list cursor', async () => {
    const { body } = await get('/v1/jobs', { limit: '1' });
    expect(body.nextCursor).toEqual(expect.any(String));
    expect(await refusal({ after: body.nextCursor })).toEqual([{ path: 'query.after', message: expect.stringContaining('is not a cursor this API returned') }]);
  });

  it.each(['0', '5001', '-1', '1e3', 'ten', ''])('refuses limit=%j at query.limit', async (limit) => {
    const errors = await refusal({ limit });
    expect(errors.map((e) => e.path)).toEqual(['query.limit']);
  });

  it('refuses an unknown parameter by its name', async () => {
    expect((await refusal({ cursor: 'x' })).map((e) => e.path)).toEqual(['query.cursor']);
  });
});

describe('spec.managedBy for the first page', () => {
  it('comes from the newest snapshot when it holds the spec, without reading the log', async () => {
    store.reads = [];
    expect(await jobManagedBy(service, managed)).toBe(JOBFOLD_CONTROLLER_NAME);
    expect(store.reads).toEqual([]);
  });

  it('comes from the log after the newest snapshot when none holds the spec: here the pods came first', async () => {
    const early = new CountingStore();
    const earlyService = { ...aService(early), snapshotEvery: 1000 };
    const job = aJob({ managedBy: JOBFOLD_CONTROLLER_NAME }, { name: 'late-spec', uid: 'late-spec-uid' });
    const t = '2026-06-01T00:00:00Z';
    await deliverAt(earlyService, t, [...['a', 'b'].map((name) => podObservedEvent(aPod({ name, uid: `late-spec-${name}` }), job, t)), jobObservedEvent(job, t)]);
    expect(await early.loadSnapshot(jobStream(job))).toBeUndefined();
    const { head } = await early.read(jobStream(job), { limit: 1 });
    early.reads = [];
    expect(await jobManagedBy(earlyService, jobStream(job))).toBe(JOBFOLD_CONTROLLER_NAME);
    // one read of the log (its two pods, the Job, and what the writer decided after them)
    expect(early.reads.map((r) => r.entries)).toEqual([head]);
  });
});
