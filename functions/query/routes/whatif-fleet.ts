import { EMPTY_TALLY, skipJob, tallyJob, type FleetTally } from '../../../shared/whatif/fleet.ts';
import { BadRequestError } from '../http-errors.ts';
import { json, type QueryRoute } from '../http.ts';
import { decodeListCursor, encodeListCursor, invalidCursor } from '../list-cursor.ts';
import { FleetWhatIfBodySchema, parseBody } from '../whatif-body.ts';
import { whatIfStoredJob } from '../whatif-log.ts';

const DEFAULT_PAGE = 50;

/**
 * `POST /v1/whatif` with `{"patch", "cluster"?, "namespace"?, "since"?, "cursor"?, "limit"?}`:
 * one page of the fleet what-if. Each call reads one page of the fleet list (newest first)
 * and each listed Job's log, so memory and time per call stay bounded whatever the fleet's
 * size; the client sums the pages' tallies and follows `nextCursor` until there is none.
 * A Job whose patched spec is invalid (a successPolicy on a NonIndexed Job) is counted in
 * `skipped`, and the first refusal is returned as `skippedBecause`.
 */
export const whatIfFleetRoute: QueryRoute = {
  method: 'POST',
  path: '/v1/whatif',
  async handle(request, deps) {
    const body = parseBody(request, FleetWhatIfBodySchema);
    const filters = { kind: 'Job' as const, cluster: body.cluster, namespace: body.namespace };
    const cursor = body.cursor === undefined ? undefined : decodeListCursor(deps.cursorKey, filters, body.cursor, 'body.cursor');
    let page;
    try {
      page = await deps.store.listJobs({ kind: 'Job', clusterId: body.cluster, namespace: body.namespace, limit: body.limit ?? DEFAULT_PAGE, cursor });
    } catch (error) {
      if (cursor !== undefined && error instanceof RangeError) throw invalidCursor('is not a valid position in this list', 'body.cursor');
      throw error;
    }
    let tally: FleetTally = EMPTY_TALLY;
    let reachedSince = false;
    let skippedBecause: string | undefined;
    for (const summary of page.items) {
      if (body.since !== undefined && summary.createdAt < body.since) {
        reachedSince = true; // the list is newest first: every later Job is older still
        break;
      }
      const stream = { kind: 'Job' as const, clusterId: summary.clusterId, namespace: summary.namespace, uid: summary.uid };
      try {
        const report = await whatIfStoredJob(deps, stream, body.patch);
        tally = tallyJob(tally, { cluster: summary.clusterId, namespace: summary.namespace, name: summary.name, uid: summary.uid }, report);
      } catch (error) {
        if (!(error instanceof BadRequestError)) throw error;
        skippedBecause ??= `${summary.namespace}/${summary.name}: ${error.errors.map((e) => e.message).join('; ')}`;
        tally = skipJob(tally);
      }
    }
    const next = page.cursor === undefined || reachedSince ? {} : { nextCursor: encodeListCursor(deps.cursorKey, filters, page.cursor) };
    return json(200, { tally, ...(skippedBecause ? { skippedBecause } : {}), ...next });
  },
};
