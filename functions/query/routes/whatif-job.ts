import { json, type QueryRoute } from '../http.ts';
import { findObject } from '../object-log.ts';
import { ObjectQuerySchema } from '../params.ts';
import { parseObjectRequest } from '../parse-params.ts';
import { parseBody, WhatIfBodySchema } from '../whatif-body.ts';
import { whatIfStoredJob } from '../whatif-log.ts';

/**
 * `POST …/jobs/{name}/whatif?uid=` with `{"patch": {…}}`: the Job's log refolded under the
 * patched spec, next to the record (docs/whatif.md). An invalid patched spec is a 400 with
 * upstream's validation messages.
 */
export const whatIfJobRoute: QueryRoute = {
  method: 'POST',
  path: '/v1/clusters/{cluster}/namespaces/{namespace}/jobs/{name}/whatif',
  async handle(request, deps) {
    const { path, query } = parseObjectRequest(request, ObjectQuerySchema);
    const { patch } = parseBody(request, WhatIfBodySchema);
    const { stream } = await findObject(deps.store, 'Job', path, query.uid);
    return json(200, await whatIfStoredJob(deps, stream, patch));
  },
};
