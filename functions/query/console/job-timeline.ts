import type { DecisionOf } from '../../../shared/job/decisions.ts';
import { foldJobLog } from '../job-fold.ts';
import { json, type QueryRoute } from '../http.ts';
import { findObject, readLog } from '../object-log.ts';
import { ObjectQuerySchema } from '../params.ts';
import { parseObjectRequest } from '../parse-params.ts';

/**
 * `GET …/jobs/{name}/timeline?uid=`: every condition change of the Job in log order, with the
 * seq of the decision that made it (a link into the history), and the span of the log. The
 * status only keeps each condition's last transition; the log keeps them all.
 */
export const jobTimelineRoute: QueryRoute = {
  method: 'GET',
  path: '/v1/clusters/{cluster}/namespaces/{namespace}/jobs/{name}/timeline',
  async handle(request, deps) {
    const { path, query } = parseObjectRequest(request, ObjectQuerySchema);
    const { summary, stream } = await findObject(deps.store, 'Job', path, query.uid);
    const { entries, head } = await readLog(deps.store, stream);
    const { events } = foldJobLog(deps.config, entries);
    const transitions = events
      .filter((event): event is DecisionOf<'JobConditionChanged'> => event.type === 'JobConditionChanged')
      .map(({ seq, condition }) => ({
        seq: seq ?? 0,
        at: condition.lastTransitionTime,
        type: condition.type,
        status: condition.status,
        reason: condition.reason,
        message: condition.message,
      }));
    const first = entries[0];
    const last = entries.at(-1);
    return json(200, {
      job: { clusterId: summary.clusterId, namespace: summary.namespace, name: summary.name, uid: summary.uid },
      head,
      ...(first ? { firstRecordedAt: first.recordedAt } : {}),
      ...(last ? { lastRecordedAt: last.recordedAt } : {}),
      transitions,
    });
  },
};
