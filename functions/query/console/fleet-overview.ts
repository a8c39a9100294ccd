import type { FleetRow } from '../../../shared/log/event-store.ts';
import { json, type QueryRoute } from '../http.ts';
import { parseParams } from '../parse-params.ts';
import { FleetQuerySchema, type FleetQuery } from './console-params.ts';
import { fleetReason, fleetState, type FleetState } from './fleet-state.ts';

type Count = { kind: FleetRow['kind']; state: FleetState; reason: string; count: number };

/**
 * `GET /v1/fleet?kind=&cluster=&namespace=&state=&reason=&attention=&limit=&offset=`: the
 * console's fleet page. The counts by state and reason (and of stalled Jobs and refused
 * updates) must be exact, so it reads a row of every object under
 * the kind filter (store.fleetRows: identity, creation and latest condition, from the fleet
 * index, without the full summaries), newest first as /v1/jobs lists them; only the page's
 * summaries are then read in full. No cap: a cap would make the counts lie.
 */
export const fleetOverviewRoute: QueryRoute = {
  method: 'GET',
  path: '/v1/fleet',
  async handle(request, deps) {
    const query = parseParams(FleetQuerySchema, request.query, 'query');
    const rows = await deps.store.fleetRows(query.kind);
    const counts = new Map<string, Count>();
    const clusters = new Set<string>();
    const namespaces = new Set<string>();
    const attention = { stalled: 0, refusedUpdate: 0 };
    const matching: (FleetRow & { state: FleetState; reason: string })[] = [];
    for (const row of rows) {
      clusters.add(row.clusterId);
      if (query.cluster === undefined || row.clusterId === query.cluster) namespaces.add(row.namespace);
      if (!inScope(row, query)) continue;
      const state = fleetState(row);
      const reason = fleetReason(row);
      const key = `${row.kind}\u0000${state}\u0000${reason}`;
      const counted = counts.get(key) ?? { kind: row.kind, state, reason, count: 0 };
      counted.count++;
      counts.set(key, counted);
      if (row.stalled) attention.stalled++;
      if (row.refusedUpdate) attention.refusedUpdate++;
      if (query.attention !== undefined && !row[query.attention]) continue;
      if (query.state !== undefined && state !== query.state) continue;
      if (query.reason !== undefined && reason !== (query.reason === '-' ? '' : query.reason)) continue;
      matching.push({ ...row, state, reason });
    }
    const end = query.offset + query.limit;
    const page = matching.slice(query.offset, end);
    const summaries = await deps.store.getSummaries(page);
    return json(200, {
      // The summary may be a commit newer than its row (the index lags): it shows as read.
      items: summaries.map((summary) => ({ ...summary, state: fleetState(summary), reason: fleetReason(summary) })),
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

function inScope(row: FleetRow, query: FleetQuery): boolean {
  return (query.cluster === undefined || row.clusterId === query.cluster)
    && (query.namespace === undefined || row.namespace === query.namespace);
}
