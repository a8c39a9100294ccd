import { json, type QueryRoute } from '../http.ts';
import { jobStateAt } from '../job-state-at.ts';
import { findObject, objectIdentity } from '../object-log.ts';
import { parseObjectRequest } from '../parse-params.ts';
import { IndexesQuerySchema } from './console-params.ts';
import { intervalsOf } from './index-intervals.ts';

/**
 * `GET …/jobs/{name}/indexes?at=&uid=`: the state of every index of an Indexed Job at a point
 * of its log (default: the head), as four interval lists. The console colours its index grid
 * from them; an index in none of them is pending.
 */
export const jobIndexesRoute: QueryRoute = {
  method: 'GET',
  path: '/v1/clusters/{cluster}/namespaces/{namespace}/jobs/{name}/indexes',
  async handle(request, deps) {
    const { path, query } = parseObjectRequest(request, IndexesQuerySchema);
    const { summary, stream } = await findObject(deps.store, 'Job', path, query.uid);
    const { state, seq, recordedAt, head } = await jobStateAt(deps, stream, query.at);
    const indexed = state.settings?.indexed === true;
    const withPods = (byIndex: ReadonlyMap<number, number>) => intervalsOf([...byIndex].filter(([, n]) => n > 0).map(([i]) => i));
    return json(200, {
      job: objectIdentity(summary),
      at: { seq, ...(recordedAt === undefined ? {} : { recordedAt }) },
      head,
      completions: indexed ? (state.settings?.completions ?? null) : null,
      succeeded: indexed ? state.status.completedIndexes.toString() : '',
      failed: indexed ? state.status.failedIndexes.toString() : '',
      active: indexed ? withPods(state.activeByIndex) : '',
      terminating: indexed ? withPods(state.terminatingByIndex) : '',
    });
  },
};
