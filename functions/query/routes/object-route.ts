import type * as z from 'zod';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { json, type QueryDeps, type QueryRequest, type QueryRoute } from '../http.ts';
import { findObject, type FoundObject } from '../object-log.ts';
import { parseObjectRequest } from '../parse-params.ts';

// Every route on one Job or JobSet starts the same way: its path and query parsed (400 naming
// each bad parameter), the object found by name and optional uid (404 otherwise). Written once
// here; each route says only what it answers.

/** The path segment of each kind's objects. */
export const COLLECTION = { Job: 'jobs', JobSet: 'jobsets' } as const satisfies Record<StreamId['kind'], string>;

/** `/v1/clusters/{cluster}/namespaces/{namespace}/{jobs|jobsets}/{name}`, then `suffix`. */
export const objectPath = (kind: StreamId['kind'], suffix = ''): string =>
  `/v1/clusters/{cluster}/namespaces/{namespace}/${COLLECTION[kind]}/{name}${suffix}`;

/** A route on one object: `answer` gets it found, and the query parsed; its result is the 200 body. */
export function objectRoute<Query extends z.ZodType<{ readonly uid?: string | undefined }>>(
  kind: StreamId['kind'],
  suffix: string,
  querySchema: Query,
  answer: (found: FoundObject, query: z.output<Query>, deps: QueryDeps, request: QueryRequest) => Promise<unknown>,
  method: QueryRoute['method'] = 'GET',
): QueryRoute {
  return {
    method,
    path: objectPath(kind, suffix),
    async handle(request, deps) {
      const { path, query } = parseObjectRequest(request, querySchema);
      return json(200, await answer(await findObject(deps.store, kind, path, query.uid), query, deps, request));
    },
  };
}
