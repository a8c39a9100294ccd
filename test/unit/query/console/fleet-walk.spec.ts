import { describe, expect, it } from 'vitest';
import type { JobSummary, ListJobsQuery } from '../../../../shared/app/event-store.ts';
import { fleetOverviewRoute } from '../../../../functions/query/console/fleet-overview.ts';
import type { QueryDeps } from '../../../../functions/query/http.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../../shared/job/state.ts';

// Given a fleet larger than one store page (1,000 summaries a read), when the console asks for
// its counts, then every object is read and counted once: the walk follows the store's cursor to
// the end (2,500 objects: three reads), and no object is lost between pages.

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
    ...(i % 5 === 0 ? { latestCondition: { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' } } : {}),
  }));
}

/** A store that lists from an array, `limit` a page, and records each read. */
function pagedStore(items: JobSummary[]) {
  const reads: ListJobsQuery[] = [];
  const store = {
    async listJobs(query: ListJobsQuery) {
      reads.push(query);
      const start = query.cursor === undefined ? 0 : Number(query.cursor);
      const end = start + query.limit;
      return { items: items.slice(start, end), ...(end < items.length ? { cursor: String(end) } : {}) };
    },
  };
  return { deps: { store, config: DEFAULT_FOLD_CONFIG } as unknown as QueryDeps, reads };
}

const request = (query: Record<string, string>) => ({ method: 'GET', path: '/v1/fleet', pathParameters: {}, query });

describe('GET /v1/fleet over more than one store page', () => {
  it('reads every page and counts every object once', async () => {
    const { deps, reads } = pagedStore(summaries());
    const response = await fleetOverviewRoute.handle(request({ limit: '500' }), deps);
    const body = JSON.parse(response.body);
    expect(reads.map((r) => r.cursor)).toEqual([undefined, '1000', '2000']);
    expect(body.total).toBe(FLEET);
    expect(body.counts).toEqual([
      { kind: 'Job', state: 'Running', reason: '', count: FLEET - FLEET / 5 },
      { kind: 'Job', state: 'Failed', reason: 'BackoffLimitExceeded', count: FLEET / 5 },
    ]);
    expect(body.nextOffset).toBe(500);
  });

  it('pages the filtered list across store pages without losing or repeating an object', async () => {
    const { deps } = pagedStore(summaries());
    const seen: string[] = [];
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      const body = JSON.parse((await fleetOverviewRoute.handle(request({ state: 'Failed', limit: '120', offset: String(offset) }), deps)).body);
      seen.push(...body.items.map((i: { uid: string }) => i.uid));
      offset = body.nextOffset;
    }
    expect(seen).toEqual(summaries().filter((_, i) => i % 5 === 0).map((s) => s.uid));
  });
});
