import type { EventStore, JobSummary } from '../../../shared/app/event-store.ts';
import { json, type QueryRoute } from '../http.ts';
import { parseParams } from '../parse-params.ts';
import { FleetQuerySchema, type FleetQuery } from './console-params.ts';
import { fleetReason, fleetState, type FleetState } from './fleet-state.ts';

/** Summaries per store read while walking the fleet. */
const WALK_PAGE = 1000;

type Kind = JobSummary['kind'];
type Count = { kind: Kind; state: FleetState; reason: string; count: number };

/**
 * `GET /v1/fleet?kind=&cluster=&namespace=&state=&reason=&attention=&limit=&offset=`: the
 * console's fleet page. It walks every summary under the kind/cluster/namespace filters (newest first, as
 * /v1/jobs lists them), so the counts by state and reason are exact; the cost is one store read
 * per 1,000 objects, with no cap (a cap would make the counts lie).
 */
export const fleetOverviewRoute: QueryRoute = {
  method: 'GET',
  path: '/v1/fleet',
  async handle(request, deps) {
    const query = parseParams(FleetQuerySchema, request.query, 'query');
    const all = await walkFleet(deps.store, query);
    const counts = new Map<string, Count>();
    const clusters = new Set<string>();
    const namespaces = new Set<string>();
    const attention = { stalled: 0, refusedUpdate: 0 };
    const matching: (JobSummary & { state: FleetState; reason: string })[] = [];
    for (const summary of all) {
      clusters.add(summary.clusterId);
      if (query.cluster === undefined || summary.clusterId === query.cluster) namespaces.add(summary.namespace);
      if (!inScope(summary, query)) continue;
      const state = fleetState(summary);
      const reason = fleetReason(summary);
      const key = `${summary.kind}\u0000${state}\u0000${reason}`;
      const counted = counts.get(key) ?? { kind: summary.kind, state, reason, count: 0 };
      counted.count++;
      counts.set(key, counted);
      if (summary.stalled) attention.stalled++;
      if (summary.refusedUpdate) attention.refusedUpdate++;
      if (query.attention !== undefined && summary[query.attention] === undefined) continue;
      if (query.state !== undefined && state !== query.state) continue;
      if (query.reason !== undefined && reason !== (query.reason === '-' ? '' : query.reason)) continue;
      matching.push({ ...summary, state, reason });
    }
    const end = query.offset + query.limit;
    return json(200, {
      items: matching.slice(query.offset, end),
      total: matching.length,
      offset: query.offset,
      ...(end < matching.length ? { nextOffset: end } : {}),
      attention,
      counts: [...counts.values()].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
      clusters: [...clusters].sort(),
      namespaces: [...namespaces].sort(),
    });
  },
};

/** Every summary of the kind filter (both kinds without one), newest first. */
async function walkFleet(store: EventStore, query: FleetQuery): Promise<JobSummary[]> {
  const result: JobSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.listJobs({ ...(query.kind ? { kind: query.kind } : {}), limit: WALK_PAGE, ...(cursor ? { cursor } : {}) });
    result.push(...page.items);
    cursor = page.cursor;
  } while (cursor !== undefined);
  return result;
}

function inScope(summary: JobSummary, query: FleetQuery): boolean {
  return (query.cluster === undefined || summary.clusterId === query.cluster)
    && (query.namespace === undefined || summary.namespace === query.namespace);
}
