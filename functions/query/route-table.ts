import { jobCommandsRoute, jobSetCommandsRoute } from './commands/commands-routes.ts';
import { consoleRoutes } from './console/console-routes.ts';
import type { QueryRoute } from './http.ts';
import { jobRoutes, jobSetRoutes } from './routes/object-routes.ts';
import { jobStatusRoute } from './routes/job-status.ts';
import { openApiRoute } from './routes/openapi-document.ts';
import { whatIfFleetRoute } from './routes/whatif-fleet.ts';
import { jobAuditRoute } from './routes/job-audit.ts';
import { adviseRoutes } from './advise/advise-routes.ts';

/** Every route of the query API (each is described in openapi.ts; a test holds them equal). */
export const QUERY_ROUTES: readonly QueryRoute[] = [
  openApiRoute,
  ...jobRoutes,
  jobStatusRoute,
  jobCommandsRoute,
  ...jobSetRoutes,
  jobSetCommandsRoute,
  ...consoleRoutes,
  jobAuditRoute,
  whatIfFleetRoute,
  ...adviseRoutes,
];
