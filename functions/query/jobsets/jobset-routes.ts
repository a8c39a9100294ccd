import type { EventStore } from '../../../shared/app/event-store.ts';
import { explainJobSet, type JobSetExplanation } from '../../../shared/jobset/index.ts';
import { fleetListRoute } from '../fleet-list.ts';
import { historyPage } from '../history-page.ts';
import { json, type QueryRoute } from '../http.ts';
import { findObject } from '../object-log.ts';
import { HistoryQuerySchema, JobSetListQuerySchema, ObjectQuerySchema, type ObjectPath } from '../params.ts';
import { parseObjectRequest } from '../parse-params.ts';
import { jobSetEntryCategory } from './jobset-entries.ts';
import { readJobSetWindow, type JobSetLogWindow } from './jobset-log-window.ts';
import type { JobSummary } from '../../../shared/app/event-store.ts';
import { commandViews, jobSetView, objectIdentity } from '../views.ts';

// The JobSet routes: the same shapes as the Job routes, over the log of a `kind: 'JobSet'`
// stream, read from its newest snapshot and a bounded window of decisions
// (jobset-log-window.ts) and explained by the shared JobSet code (the replay's explainJobSet).

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
    const listed = { commands: commandViews(log.decisions), commandsFrom: log.decisionsFrom };
    return json(200, jobSetView(log.summary, log.state, explain(log), listed, log));
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
    return json(200, { ...explain(log), eventsFrom: log.decisionsFrom, jobSet: objectIdentity(log.summary) });
  },
};

export const jobSetRoutes: readonly QueryRoute[] = [listJobSetsRoute, getJobSetRoute, jobSetHistoryRoute, explainJobSetRoute];

/** What the JobSet routes read: the fleet row, the state at the head and a window of decisions. */
interface JobSetLog extends JobSetLogWindow {
  readonly summary: JobSummary;
}

/** The JobSet a path names: its state at the head and the decisions of its window. */
async function readJobSetLog(store: EventStore, path: ObjectPath, uid: string | undefined): Promise<JobSetLog> {
  const { summary, stream } = await findObject(store, 'JobSet', path, uid);
  return { summary, ...(await readJobSetWindow(store, stream)) };
}

/**
 * The explanation over the window's decisions and those the conditions cite from before it;
 * `events` lists the window's only (from `decisionsFrom`), as the view's `commands` do.
 */
function explain(log: JobSetLog): JobSetExplanation {
  const older = log.cited.filter((decision) => decision.seq < log.decisionsFrom);
  const explanation = explainJobSet(log.state, [...older, ...log.decisions]);
  return { ...explanation, events: explanation.events.filter((event) => event.seq >= log.decisionsFrom) };
}
