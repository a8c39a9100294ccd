import { jobSetEntryEvent } from '../../../shared/app/reconcile-jobset.ts';
import { whatIfJobSet } from '../../../shared/whatif/jobset-what-if.ts';
import { WhatIfPatchError } from '../../../shared/whatif/patch.ts';
import { json, type QueryRoute } from '../http.ts';
import { findObject, readLog } from '../object-log.ts';
import { ObjectQuerySchema } from '../params.ts';
import { parseObjectRequest } from '../parse-params.ts';
import { parseBody, patchRefused, WhatIfBodySchema } from '../whatif-body.ts';

/**
 * `POST …/jobsets/{name}/whatif?uid=` with `{"patch": {…}}`: the JobSet's log (its own events,
 * its child Jobs' statuses, its decisions) refolded under the patched spec, next to the record
 * (docs/whatif.md). An invalid patched spec is a 400 with upstream's validation messages.
 */
export const whatIfJobSetRoute: QueryRoute = {
  method: 'POST',
  path: '/v1/clusters/{cluster}/namespaces/{namespace}/jobsets/{name}/whatif',
  async handle(request, deps) {
    const { path, query } = parseObjectRequest(request, ObjectQuerySchema);
    const { patch } = parseBody(request, WhatIfBodySchema);
    const { stream } = await findObject(deps.store, 'JobSet', path, query.uid);
    const { entries } = await readLog(deps.store, stream);
    try {
      return json(200, whatIfJobSet({ log: entries.map((entry) => ({ seq: entry.seq, event: jobSetEntryEvent(entry) })), patch }));
    } catch (error) {
      if (error instanceof WhatIfPatchError) throw patchRefused(error);
      throw error;
    }
  },
};
