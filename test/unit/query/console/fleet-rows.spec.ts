import { describe, expect, it } from 'vitest';
import type { FleetRow, JobSummary, StreamId } from '../../../../shared/log/event-store.ts';
import { fleetOverviewRoute } from '../../../../functions/query/console/fleet-overview.ts';
import type { QueryDeps } from '../../../../functions/query/http.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../../shared/job/state.ts';

// Given a fleet of 2,500 objects, when the console asks for a page with its counts, then every
// object is counted once from its row (store.fleetRows), and only the page's summaries are read
// in full (store.getSummaries), whatever the page's offset: no summary walk, no object lost or
// repeated between pages.

const FLEET = 2500;

function summaries(): JobSummary[] {
  return Array.from({ length: FLEET }, (_, i) => ({
    kind: 'Job' as const,
    clusterId: `c${i % 3}`,
    namespace: 'default',
    name: `job-${i}`,
    uid: `uid-${String(i).padStart(5, '0')}`,
    createdAt: new Date(Date.UTC(2026, 0, 1) + (FLEET - i) * 1000).toISOString(),
    updatedAt: '2026-01-02T00:00:00Z',
    ...(i % 5 === 0 ? { latestCondition: { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'm' } } : {}),
  }));
}

/** A store that answers rows and summaries from an array, and records the summaries read. */
function rowStore(items: JobSummary[]) {
  const read: StreamId[][] = [];
  const store = {
    async fleetRows(): Promise<FleetRow[]> {
      return items.map(({ kind, clusterId, namespace, uid, createdAt, latestCondition: c }) => ({
        kind, clusterId, namespace, uid, createdAt, stalled: false, refusedUpdate: false, ...(c ? { latestCondition: { type: c.type, status: c.status, reason: c.reason } } : {}),
      }));
    },
    async getSummaries(streams: readonly StreamId[]): Promise<JobSummary[]> {
      read.push([...streams]);
      return streams.map((s) => items.find((i) => i.uid === s.uid)!);
    },
  };
  return { deps: { store, config: DEFAULT_FOLD_CONFIG } as unknown as QueryDeps, read };
}

const request = (query: Record<string, string>) => ({ method: 'GET', path: '/v1/fleet', pathParameters: {}, query });

describe('GET /v1/fleet from the fleet rows', () => {
  it('counts every object once and reads only the page in full', async () => {
    const { deps, read } = rowStore(summaries());
    const body = JSON.parse((await fleetOverviewRoute.handle(request({ limit: '500' }), deps)).body);
    expect(body.total).toBe(FLEET);
    expect(body.counts).toEqual([
      { kind: 'Job', state: 'Running', reason: '', count: FLEET - FLEET / 5 },
      { kind: 'Job', state: 'Failed', reason: 'BackoffLimitExceeded', count: FLEET / 5 },
    ]);
    expect(body.nextOffset).toBe(500);
    expect(read.map((streams) => streams.length)).toEqual([500]);
    expect(body.items[0]).toMatchObject({ name: 'job-0', state: 'Failed', reason: 'BackoffLimitExceeded', latestCondition: { message: 'm' } });
  });

  it('pages the filtered list without losing or repeating an object', async () => {
    const { deps, read } = rowStore(summaries());
    const seen: string[] = [];
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      const body = JSON.parse((await fleetOverviewRoute.handle(request({ state: 'Failed', limit: '120', offset: String(offset) }), deps)).body);
      seen.push(...body.items.map((i: { uid: string }) => i.uid));
      offset = body.nextOffset;
    }
    expect(seen).toEqual(summaries().filter((_, i) => i % 5 === 0).map((s) => s.uid));
    expect(read.every((streams) => streams.length <= 120)).toBe(true);
  });
});
