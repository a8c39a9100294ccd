import type { QueryRoute } from '../http.ts';
import { fleetOverviewRoute } from './fleet-overview.ts';
import { jobIndexesRoute } from './job-indexes.ts';
import { jobTimelineRoute } from './job-timeline.ts';

/** The routes the web console (console/) reads besides the Job and JobSet routes. */
export const consoleRoutes: readonly QueryRoute[] = [fleetOverviewRoute, jobIndexesRoute, jobTimelineRoute];
