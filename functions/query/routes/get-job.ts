import { json, type QueryRoute } from '../http.ts';
import { findObject } from '../object-log.ts';
import { ObjectQuerySchema } from '../params.ts';
import { parseObjectRequest } from '../parse-params.ts';
import { storedJobView } from '../stored-job-view.ts';

/** `GET /v1/clusters/{cluster}/namespaces/{namespace}/jobs/{name}?uid=`: the Job with its full status. */
export const getJobRoute: QueryRoute = {
  method: 'GET',
  path: '/v1/clusters/{cluster}/namespaces/{namespace}/jobs/{name}',
  async handle(request, deps) {
    const { path, query } = parseObjectRequest(request, ObjectQuerySchema);
    const { summary, stream } = await findObject(deps.store, 'Job', path, query.uid);
    return json(200, await storedJobView(deps, summary, stream));
  },
};
