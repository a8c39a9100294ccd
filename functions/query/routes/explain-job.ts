import { explainJob } from '../../../shared/job/explain.ts';
import { foldJobLog } from '../job-fold.ts';
import { json, type QueryRoute } from '../http.ts';
import { findObject, readLog } from '../object-log.ts';
import { ObjectQuerySchema } from '../params.ts';
import { parseObjectRequest } from '../parse-params.ts';

/** `GET …/jobs/{name}/explain?uid=`: why the Job succeeded or failed, with the evidence logged. */
export const explainJobRoute: QueryRoute = {
  method: 'GET',
  path: '/v1/clusters/{cluster}/namespaces/{namespace}/jobs/{name}/explain',
  async handle(request, deps) {
    const { path, query } = parseObjectRequest(request, ObjectQuerySchema);
    const { stream } = await findObject(deps.store, 'Job', path, query.uid);
    const { entries } = await readLog(deps.store, stream);
    const { state, events } = foldJobLog(deps.config, entries);
    return json(200, explainJob(state, events));
  },
};
