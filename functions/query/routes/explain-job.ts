import { json, type QueryRoute } from '../http.ts';
import { explainStoredJob } from '../job-explanation.ts';
import { findObject } from '../object-log.ts';
import { ExplainQuerySchema } from '../params.ts';
import { parseObjectRequest } from '../parse-params.ts';

/**
 * `GET …/jobs/{name}/explain?uid=&podsAfter=&podsLimit=`: why the Job succeeded or failed, with
 * the evidence logged, and one page of the pods jobfold asked to delete.
 */
export const explainJobRoute: QueryRoute = {
  method: 'GET',
  path: '/v1/clusters/{cluster}/namespaces/{namespace}/jobs/{name}/explain',
  async handle(request, deps) {
    const { path, query } = parseObjectRequest(request, ExplainQuerySchema);
    const { stream } = await findObject(deps.store, 'Job', path, query.uid);
    return json(200, await explainStoredJob(deps, stream, { after: query.podsAfter, limit: query.podsLimit }));
  },
};
