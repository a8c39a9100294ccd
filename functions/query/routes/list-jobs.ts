import { fleetListRoute } from '../fleet-list.ts';
import { ListQuerySchema } from '../params.ts';

/** `GET /v1/jobs?cluster=&namespace=&condition=&limit=&cursor=`: the fleet list of Jobs. */
export const listJobsRoute = fleetListRoute('Job', '/v1/jobs', ListQuerySchema);
