import { jobOutcome } from '../../../shared/job/index.ts';
import { jobStatus } from '../../../shared/job/index.ts';
import type { QueryRoute } from '../http.ts';
import { jobStateAt } from '../job-state-at.ts';
import { objectIdentity } from '../object-log.ts';
import { StatusQuerySchema } from '../params.ts';
import { objectRoute } from './object-route.ts';

/** `GET …/jobs/{name}/status?at=<seq|RFC3339>&uid=`: the status at a point in the Job's history. */
export const jobStatusRoute: QueryRoute = objectRoute('Job', '/status', StatusQuerySchema, async ({ summary, stream }, query, deps) => {
  const at = await jobStateAt(deps, stream, query.at);
  return {
    job: objectIdentity(summary),
    at: { seq: at.seq, ...(at.recordedAt === undefined ? {} : { recordedAt: at.recordedAt }) },
    head: at.head,
    outcome: jobOutcome(at.state),
    status: jobStatus(at.state),
  };
});
