import { foldJobLog } from '../job-fold.ts';
import { jobView } from '../job-view.ts';
import { json, type QueryRoute } from '../http.ts';
import { findObject, readLog } from '../object-log.ts';
import { ObjectQuerySchema } from '../params.ts';
import { parseObjectRequest } from '../parse-params.ts';

/** `GET /v1/clusters/{cluster}/namespaces/{namespace}/jobs/{name}?uid=`: the Job with its full status. */
export const getJobRoute: QueryRoute = {
  method: 'GET',
  path: '/v1/clusters/{cluster}/namespaces/{namespace}/jobs/{name}',
  async handle(request, deps) {
    const { path, query } = parseObjectRequest(request, ObjectQuerySchema);
    const { summary, stream } = await findObject(deps.store, 'Job', path, query.uid);
    const { entries } = await readLog(deps.store, stream);
    const { state, events } = foldJobLog(deps.config, entries);
    return json(200, jobView(summary, state, events, entries));
  },
};
