import type { EventStore } from '../../../shared/app/event-store.ts';
import { loadJobSetState } from '../../../shared/app/reconcile-jobset.ts';
import { explainJobSet } from '../../../shared/jobset/explain.ts';
import { fleetListRoute } from '../fleet-list.ts';
import { historyPage } from '../history-page.ts';
import { json, type QueryRoute } from '../http.ts';
import { findObject } from '../object-log.ts';
import { HistoryQuerySchema, JobSetListQuerySchema, ObjectQuerySchema, type ObjectPath } from '../params.ts';
import { parseObjectRequest } from '../parse-params.ts';
import { jobSetEntryCategory, loggedJobSetDecisions } from './jobset-entries.ts';
import { jobSetView, objectIdentity, type JobSetLog } from './jobset-view.ts';

// The JobSet routes: the same shapes as the Job routes, over the log of a `kind: 'JobSet'`
// stream, folded and explained by the shared JobSet code (the reconciler's loadJobSetState, the
// replay's explainJobSet).

const BASE = '/v1/clusters/{cluster}/namespaces/{namespace}/jobsets/{name}';

/** `GET /v1/jobsets?cluster=&namespace=&condition=&limit=&cursor=`: the fleet list of JobSets. */
export const listJobSetsRoute = fleetListRoute('JobSet', '/v1/jobsets', JobSetListQuerySchema);

/** `GET …/jobsets/{name}?uid=`: the JobSet with its status, child Jobs and commands. */
export const getJobSetRoute: QueryRoute = {
  method: 'GET',
  path: BASE,
  async handle(request, deps) {
    const { path, query } = parseObjectRequest(request, ObjectQuerySchema);
    const log = await readJobSetLog(deps.store, path, query.uid);
    return json(200, jobSetView(log, explainJobSet(log.state, log.decisions)));
  },
};

/** `GET …/jobsets/{name}/history?after=&limit=&uid=`: the JobSet's log, paged by seq. */
export const jobSetHistoryRoute: QueryRoute = {
  method: 'GET',
  path: `${BASE}/history`,
  async handle(request, deps) {
    const { path, query } = parseObjectRequest(request, HistoryQuerySchema);
    const { summary, stream } = await findObject(deps.store, 'JobSet', path, query.uid);
    return json(200, await historyPage(deps.store, stream, summary, query, jobSetEntryCategory));
  },
};

/**
 * `GET …/jobsets/{name}/explain?uid=`: why the JobSet completed, failed or restarted. The
 * explanation names the JobSet by its namespace and name; the API names it as every response
 * does, with the cluster and uid.
 */
export const explainJobSetRoute: QueryRoute = {
  method: 'GET',
  path: `${BASE}/explain`,
  async handle(request, deps) {
    const { path, query } = parseObjectRequest(request, ObjectQuerySchema);
    const log = await readJobSetLog(deps.store, path, query.uid);
    return json(200, { ...explainJobSet(log.state, log.decisions), jobSet: objectIdentity(log.summary) });
  },
};

export const jobSetRoutes: readonly QueryRoute[] = [listJobSetsRoute, getJobSetRoute, jobSetHistoryRoute, explainJobSetRoute];

/**
 * The JobSet a path names, folded from the start of its log: the explanation needs every
 * decision, so the snapshot is not used.
 */
async function readJobSetLog(store: EventStore, path: ObjectPath, uid: string | undefined): Promise<JobSetLog> {
  const { summary, stream } = await findObject(store, 'JobSet', path, uid);
  const { state, entries } = await loadJobSetState(store, stream, { fromStart: true });
  return { summary, state, entries, decisions: loggedJobSetDecisions(entries) };
}
