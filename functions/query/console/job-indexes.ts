import type { QueryRoute } from '../http.ts';
import { jobStateAt } from '../job-state-at.ts';
import { objectIdentity } from '../object-log.ts';
import { IndexesQuerySchema } from './console-params.ts';
import { intervalsOf } from './index-intervals.ts';
import { objectRoute } from '../routes/object-route.ts';

/**
 * `GET …/jobs/{name}/indexes?at=&uid=`: the state of every index of an Indexed Job at a point
 * of its log (default: the head), as four interval lists. The console colours its index grid
 * from them; an index in none of them is pending.
 */
export const jobIndexesRoute: QueryRoute = objectRoute('Job', '/indexes', IndexesQuerySchema, async ({ summary, stream }, query, deps) => {
  const { state, seq, recordedAt, head } = await jobStateAt(deps, stream, query.at);
  const indexed = state.settings?.indexed === true;
  const withPods = (byIndex: ReadonlyMap<number, number>) => intervalsOf([...byIndex].filter(([, n]) => n > 0).map(([i]) => i));
  return {
    job: objectIdentity(summary),
    at: { seq, ...(recordedAt === undefined ? {} : { recordedAt }) },
    head,
    completions: indexed ? (state.settings?.completions ?? null) : null,
    succeeded: indexed ? state.status.completedIndexes.toString() : '',
    failed: indexed ? state.status.failedIndexes.toString() : '',
    active: indexed ? withPods(state.activeByIndex) : '',
    terminating: indexed ? withPods(state.terminatingByIndex) : '',
  };
});
