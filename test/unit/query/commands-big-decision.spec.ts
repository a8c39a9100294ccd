import { beforeAll, describe, expect, it } from 'vitest';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { decisionEntry } from '../../../shared/job/log-codec.ts';
import { pageTermination } from '../../../shared/job/page-decisions.ts';
import { TraceRecorder } from '../../../local/sample/trace-recorder.ts';
import { jobPath, queryClient, type Get } from './support/query-client.ts';
import { aService, playTrace } from './support/service-fleet.ts';

// Given a Job whose log holds, after 6,000 other entries, one termination decision of 12,000
// pods (logged in pages of 128 KB, as the writer logs it), when `…/commands` is paged at its
// largest limit, then each pod comes exactly once and in order, no page lists more than 5,000
// commands or answers more than a few MB, and a page that reads its 5,000 entries without a
// command still says where the next one starts. (bench/commands-list.ts does it at 100,000 pods
// on DynamoDB Local.)

type Item = Record<string, any> & { seq: number; type: string };
/** The pods a page's items name: one command each. */
const units = (items: readonly Item[]) => items.flatMap((i) => i.pods as unknown[]);

describe('a termination decision of 12,000 pods, logged in pages after 6,000 other entries', () => {
  const PODS = 12_000;
  let big: StreamId;
  let bigGet: Get;
  let bigStore: InMemoryEventStore;

  beforeAll(async () => {
    bigStore = new InMemoryEventStore();
    const bigService = aService(bigStore);
    const trace = new TraceRecorder('2026-04-01T00:00:00Z', 'b16b');
    // Suspended, so that its first write (which files the Job in the fleet) issues no command of its own.
    trace.job('c9', 0, 'ml', 'big', { completions: PODS, parallelism: PODS, completionMode: 'Indexed', suspend: true });
    const at = '2026-04-01T00:00:00Z';
    big = await playTrace(bigService, trace);
    const ticks = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({ eventId: `tick-${from + i}`, type: 'Tick', observedAt: at, body: { type: 'Tick', eventId: `tick-${from + i}`, clusterId: 'c9', observedAt: at } }));
    const decision = {
      type: 'PodsTerminationRequested' as const, eventId: 'finish/terminate', at, cause: 'JobFinishing' as const,
      reason: 'SuccessPolicy', message: 'Job reached its success policy', finalizersRemoved: false,
      pods: Array.from({ length: PODS }, (_, i) => ({ uid: `big-pod-${i}`, name: `big-${i}-x7k2p`, index: i, seq: i + 1 })),
    };
    const pages = pageTermination(decision).map(decisionEntry);
    expect(pages.length).toBeGreaterThan(5);
    let { head } = await bigStore.read(big, { limit: 1 });
    for (const entries of [ticks(0, 6000), pages, ticks(6000, 10)]) {
      await bigStore.commit(big, { expectedHead: head, recordedAt: at, entries, outbox: [] });
      head += entries.length;
    }
    bigGet = queryClient(bigService);
  });

  it('pages at the largest limit: each pod exactly once, in order, no page over 5,000 commands or a few MB', async () => {
    const pages: { items: Item[]; nextCursor?: string }[] = [];
    let after: string | undefined;
    const sizes: number[] = [];
    do {
      const { status, body } = await bigGet(jobPath('c9', 'ml', 'big', '/commands'), { limit: '5000', ...(after === undefined ? {} : { after }) });
      expect(status, JSON.stringify(body)).toBe(200);
      sizes.push(JSON.stringify(body).length);
      pages.push(body);
      after = body.nextCursor;
    } while (after !== undefined);
    // The first page reads its 5,000 entries of ticks and lists nothing, yet says where to go on.
    expect(pages.map((p) => units(p.items).length)).toEqual([0, 5000, 5000, 2000]);
    const uids = pages.flatMap((p) => p.items.flatMap((i) => i.pods.map((pod: { uid: string }) => pod.uid)));
    expect(uids).toEqual(Array.from({ length: PODS }, (_, i) => `big-pod-${i}`));
    expect(Math.max(...sizes)).toBeLessThan(4_000_000);
  });
});
