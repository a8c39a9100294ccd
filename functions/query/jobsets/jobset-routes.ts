import { historyPage } from '../history-page.ts';
import { json, type QueryRoute } from '../http.ts';
import { findObject, readLog } from '../object-log.ts';
import { HistoryQuerySchema, ObjectQuerySchema } from '../params.ts';
import { parseObjectRequest } from '../parse-params.ts';
import { explainJobSet } from './explain-jobset.ts';
import { foldJobSetLog, jobSetEntryCategory } from './jobset-log.ts';
import { jobSetView } from './jobset-view.ts';

// The JobSet routes: the same shapes as the Job routes, over the log of a `kind: 'JobSet'`
// stream folded with the JobSet fold. Until JobSet streams are ingested and reconciled, every
// JobSet is unknown and these answer 404.

const BASE = '/v1/clusters/{cluster}/namespaces/{namespace}/jobsets/{name}';

/** `GET …/jobsets/{name}?uid=`: the JobSet with its status, child Jobs and commands. */
export const getJobSetRoute: QueryRoute = {
  method: 'GET',
  path: BASE,
  async handle(request, deps) {
    const { path, query } = parseObjectRequest(request, ObjectQuerySchema);
    const { summary, stream } = await findObject(deps.store, 'JobSet', path, query.uid);
    const { entries } = await readLog(deps.store, stream);
    const { state, events } = foldJobSetLog(entries);
    return json(200, jobSetView(summary, state, events, entries));
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

/** `GET …/jobsets/{name}/explain?uid=`: why the JobSet completed, failed or restarted. */
export const explainJobSetRoute: QueryRoute = {
  method: 'GET',
  path: `${BASE}/explain`,
  async handle(request, deps) {
    const { path, query } = parseObjectRequest(request, ObjectQuerySchema);
    const { summary, stream } = await findObject(deps.store, 'JobSet', path, query.uid);
    const { entries } = await readLog(deps.store, stream);
    const { state, events } = foldJobSetLog(entries);
    const identity = { clusterId: summary.clusterId, namespace: summary.namespace, name: summary.name, uid: summary.uid };
    return json(200, explainJobSet(identity, state, events));
  },
};

export const jobSetRoutes: readonly QueryRoute[] = [getJobSetRoute, jobSetHistoryRoute, explainJobSetRoute];
