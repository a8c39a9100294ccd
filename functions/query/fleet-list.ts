import type { StreamId } from '../../shared/log/event-store.ts';
import { json, type QueryRoute } from './http.ts';
import { decodeListCursor, encodeListCursor, invalidCursor } from './list-cursor.ts';
import type { ListQuerySchema } from './params.ts';
import { parseParams } from './parse-params.ts';

/**
 * `GET <path>?cluster=&namespace=&condition=&limit=&cursor=`: the fleet list of one kind of
 * object (Jobs or JobSets), newest `createdAt` first, `limit` per page; `nextCursor` continues
 * it with the same filters.
 */
export function fleetListRoute(kind: StreamId['kind'], path: string, querySchema: typeof ListQuerySchema): QueryRoute {
  return {
    method: 'GET',
    path,
    async handle(request, deps) {
      const query = parseParams(querySchema, request.query, 'query');
      const filters = { kind, cluster: query.cluster, namespace: query.namespace, condition: query.condition };
      const cursor = query.cursor === undefined ? undefined : decodeListCursor(deps.cursorKey, filters, query.cursor);
      let page;
      try {
        page = await deps.store.listJobs({
          kind,
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
      const next = page.cursor === undefined ? {} : { nextCursor: encodeListCursor(deps.cursorKey, filters, page.cursor) };
      return json(200, { items: page.items, ...next });
    },
  };
}
