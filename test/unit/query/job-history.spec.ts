import { beforeAll, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { JOBFOLD_DEFAULT_GATES } from '../../../shared/k8s/feature-gates.ts';
import { playJobScenario } from '../../../cli/scenario/play-job-scenario.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { MAX_PAGE_BODY_BYTES } from '../../../functions/query/history-page.ts';
import { HistoryPageSchema } from '../../../functions/query/schemas/history-schemas.ts';
import { buildFleet, STORY_2 } from './support/fleet.ts';
import { jobPath, queryClient, type Get } from './support/query-client.ts';
import { aService, loadScenario } from './support/service-fleet.ts';
import { logEntries } from '../../support/log-entries.ts';

// Given story 2 played through the service, when its history is read page by page, then the
// pages hold the whole log once, in seq order, as the pure fold logged it.

let get: Get;
beforeAll(async () => {
  const service = aService(new InMemoryEventStore());
  await buildFleet(service, 0);
  get = queryClient(service);
});

const pure = playJobScenario(loadScenario(STORY_2), { gates: JOBFOLD_DEFAULT_GATES, validateSpecs: true });
const history = jobPath('c1', 'default', 'foobar', '/history');
const T = '2026-01-01T00:00:00Z';

type Entry = { seq: number; type: string; category: string; observedAt?: string; at?: string; recordedAt: string; body: Record<string, unknown> };

describe('GET …/jobs/{name}/history', () => {
  it('pages through the whole log with after and limit, nextAfter pointing at each page end', async () => {
    const pages: Entry[][] = [];
    let after: number | undefined = 0;
    while (after !== undefined) {
      const { status, body } = await get(history, { after: String(after), limit: '10' });
      expect(status).toBe(200);
      expect(HistoryPageSchema.parse(body)).toEqual(body);
      pages.push(body.entries);
      after = body.nextAfter;
      if (after !== undefined) expect(after).toBe(body.entries.at(-1).seq);
    }
    expect(pages.map((p) => p.length)).toEqual([10, 10, 8]);
    const entries = pages.flat();
    expect(entries.map((e) => e.seq)).toEqual(pure.log.map((_, i) => i + 1));
    expect(entries.map((e) => e.type)).toEqual(pure.log.map((e) => e.type));
  });

  it('returns 100 entries by default, without nextAfter when the log ends', async () => {
    const { body } = await get(history);
    expect(body.object).toEqual({ clusterId: 'c1', namespace: 'default', name: 'foobar', uid: 'job-uid' });
    expect(body.head).toBe(28);
    expect(body.entries).toHaveLength(28);
    expect(body.nextAfter).toBeUndefined();
  });

  it('tells observations, decisions and commands apart, each with its own time', async () => {
    const { body } = await get(history, { limit: '4' });
    expect(body.entries.map((e: Entry) => [e.seq, e.type, e.category, e.observedAt ?? e.at, e.recordedAt])).toEqual([
      [1, 'JobObserved', 'observation', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
      [2, 'Tick', 'observation', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
      [3, 'StartTimeSet', 'decision', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
      [4, 'PodCreationsRequested', 'command', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
    ]);
    expect(body.nextAfter).toBe(4);
  });

  it('shows decisions with their evidence', async () => {
    const { body } = await get(history, { after: '15', limit: '2' });
    const condition = body.entries.find((e: Entry) => e.type === 'JobConditionChanged');
    expect(condition.body).toMatchObject({
      condition: { type: 'SuccessCriteriaMet', reason: 'SuccessPolicy' },
      evidence: { tippedBy: 15, rule: { policy: 'successPolicy', index: 0 } },
    });
  });

  it('returns an empty page after the head', async () => {
    const { status, body } = await get(history, { after: '1000' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ head: 28, entries: [] });
    expect(body.nextAfter).toBeUndefined();
  });

  it('reads the older Job of the same name by uid', async () => {
    const { body } = await get(history, { uid: 'job-uid-old', limit: '1' });
    expect(body.object.uid).toBe('job-uid-old');
    expect(body.entries[0].body.job.metadata.uid).toBe('job-uid-old');
  });

  it('ends a page early when the bodies would not fit a Lambda response', async () => {
    const store = new InMemoryEventStore();
    const stream = { kind: 'Job' as const, clusterId: 'c1', namespace: 'default', uid: 'big' };
    const padding = 'x'.repeat(300_000);
    const entries = Array.from({ length: 15 }, (_, i) => ({ eventId: `e${i}`, type: 'Tick', observedAt: T, body: { padding } }));
    // A commit holds at most 3 MB: five bodies at a time.
    for (let i = 0; i < entries.length; i += 5) await logEntries(store, stream, entries.slice(i, i + 5), T);
    await store.commit(stream, { expectedHead: 15, recordedAt: T, entries: [], outbox: [], summary: { name: 'big', createdAt: T, updatedAt: T } });
    const { body } = await queryClient({ store, config: DEFAULT_FOLD_CONFIG })(jobPath('c1', 'default', 'big', '/history'));
    expect(body.entries).toHaveLength(Math.floor(MAX_PAGE_BODY_BYTES / 300_014)); // 13 bodies of 300 KB
    expect(body.nextAfter).toBe(body.entries.length);
  });

  it.each([
    ['after', '-1'],
    ['after', 'x'],
    ['limit', '0'],
    ['limit', '501'],
    ['seq', '3'],
  ])('answers 400 naming query.%s for %s', async (name, value) => {
    const { status, body } = await get(history, { [name]: value });
    expect(status).toBe(400);
    expect(body.errors.map((e: { path: string }) => e.path)).toEqual([`query.${name}`]);
  });

  it('answers 404 for an unknown Job', async () => {
    const { status, body } = await get(jobPath('c1', 'default', 'nope', '/history'));
    expect(status).toBe(404);
    expect(body).toEqual({ message: 'job default/nope not found in cluster c1' });
  });
});
