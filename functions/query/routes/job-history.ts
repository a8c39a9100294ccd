import { historyPage } from '../history-page.ts';
import { json, type QueryRoute } from '../http.ts';
import { jobEntryCategory } from '../job-entries.ts';
import { findObject } from '../object-log.ts';
import { HistoryQuerySchema } from '../params.ts';
import { parseObjectRequest } from '../parse-params.ts';

/** `GET …/jobs/{name}/history?after=&limit=&uid=`: the Job's log, paged by seq. */
export const jobHistoryRoute: QueryRoute = {
  method: 'GET',
  path: '/v1/clusters/{cluster}/namespaces/{namespace}/jobs/{name}/history',
  async handle(request, deps) {
    const { path, query } = parseObjectRequest(request, HistoryQuerySchema);
    const { summary, stream } = await findObject(deps.store, 'Job', path, query.uid);
    return json(200, await historyPage(deps.store, stream, summary, query, jobEntryCategory));
  },
};
