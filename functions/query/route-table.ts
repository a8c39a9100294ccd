import { jobCommandsRoute, jobSetCommandsRoute } from './commands/commands-routes.ts';
import { consoleRoutes } from './console/console-routes.ts';
import type { QueryRoute } from './http.ts';
import { jobSetRoutes } from './jobsets/jobset-routes.ts';
import { explainJobRoute } from './routes/explain-job.ts';
import { getJobRoute } from './routes/get-job.ts';
import { jobHistoryRoute } from './routes/job-history.ts';
import { jobStatusRoute } from './routes/job-status.ts';
import { listJobsRoute } from './routes/list-jobs.ts';
import { openApiRoute } from './routes/openapi-document.ts';
import { whatIfFleetRoute } from './routes/whatif-fleet.ts';
import { jobAuditRoute } from './routes/job-audit.ts';
import { whatIfJobRoute } from './routes/whatif-job.ts';
import { whatIfJobSetRoute } from './routes/whatif-jobset.ts';
import { adviseRoutes } from './advise/advise-routes.ts';

/** Every route of the query API (each is described in openapi.ts; a test holds them equal). */
export const QUERY_ROUTES: readonly QueryRoute[] = [
  openApiRoute,
  listJobsRoute,
  getJobRoute,
  jobHistoryRoute,
  explainJobRoute,
  jobStatusRoute,
  jobCommandsRoute,
  ...jobSetRoutes,
  jobSetCommandsRoute,
  ...consoleRoutes,
  whatIfJobRoute,
  whatIfJobSetRoute,
  jobAuditRoute,
  whatIfFleetRoute,
  ...adviseRoutes,
];
