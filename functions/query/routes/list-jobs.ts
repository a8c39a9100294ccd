import { json, type QueryRoute } from '../http.ts';
import { decodeListCursor, encodeListCursor, invalidCursor } from '../list-cursor.ts';
import { ListQuerySchema } from '../params.ts';
import { parseParams } from '../parse-params.ts';

/**
 * `GET /v1/jobs?cluster=&namespace=&condition=&limit=&cursor=`: the fleet list, newest
 * `createdAt` first, `limit` per page; `nextCursor` continues it with the same filters.
 */
export const listJobsRoute: QueryRoute = {
  method: 'GET',
  path: '/v1/jobs',
  async handle(request, deps) {
    const query = parseParams(ListQuerySchema, request.query, 'query');
    const filters = { cluster: query.cluster, namespace: query.namespace, condition: query.condition };
    const cursor = query.cursor === undefined ? undefined : decodeListCursor(filters, query.cursor);
    let page;
    try {
      page = await deps.store.listJobs({
        kind: 'Job',
        clusterId: query.cluster,
        namespace: query.namespace,
        condition: query.condition,
        limit: query.limit,
        cursor,
      });
    } catch (error) {
      // The store refuses a cursor it cannot resume from with a RangeError.
      if (cursor !== undefined && error instanceof RangeError) throw invalidCursor('is not a valid position in this list');
      throw error;
    }
    const next = page.cursor === undefined ? {} : { nextCursor: encodeListCursor(filters, page.cursor) };
    return json(200, { items: page.items, ...next });
  },
};
