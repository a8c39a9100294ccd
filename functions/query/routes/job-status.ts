import { jobOutcome } from '../../../shared/job/index.ts';
import { jobStatus } from '../../../shared/job/index.ts';
import { json, type QueryRoute } from '../http.ts';
import { jobStateAt } from '../job-state-at.ts';
import { findObject, objectIdentity } from '../object-log.ts';
import { StatusQuerySchema } from '../params.ts';
import { parseObjectRequest } from '../parse-params.ts';

/** `GET …/jobs/{name}/status?at=<seq|RFC3339>&uid=`: the status at a point in the Job's history. */
export const jobStatusRoute: QueryRoute = {
  method: 'GET',
  path: '/v1/clusters/{cluster}/namespaces/{namespace}/jobs/{name}/status',
  async handle(request, deps) {
    const { path, query } = parseObjectRequest(request, StatusQuerySchema);
    const { summary, stream } = await findObject(deps.store, 'Job', path, query.uid);
    const at = await jobStateAt(deps, stream, query.at);
    return json(200, {
      job: objectIdentity(summary),
      at: { seq: at.seq, ...(at.recordedAt === undefined ? {} : { recordedAt: at.recordedAt }) },
      head: at.head,
      outcome: jobOutcome(at.state),
      status: jobStatus(at.state),
    });
  },
};
