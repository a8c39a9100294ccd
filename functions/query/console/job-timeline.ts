import { conditionTransitions } from '../condition-transitions.ts';
import type { QueryRoute } from '../http.ts';
import { foldTo } from '../job-state-at.ts';
import { entryAt, logHead } from '../log-reads.ts';
import { objectIdentity } from '../object-log.ts';
import { ObjectQuerySchema } from '../params.ts';
import { objectRoute } from '../routes/object-route.ts';

/**
 * `GET …/jobs/{name}/timeline?uid=`: every condition change of the Job in log order, with the
 * seq of the decision that made it (a link into the history), and the span of the log. The
 * status only keeps each condition's last transition; the log keeps them all. They are found
 * from the snapshots kept at their positions (condition-transitions.ts), not by a replay.
 */
export const jobTimelineRoute: QueryRoute = objectRoute('Job', '/timeline', ObjectQuerySchema, async ({ summary, stream }, _query, deps) => {
  const head = await logHead(deps.store, stream);
  const { state } = await foldTo(deps, stream, head);
  const decisions = await conditionTransitions(deps.store, stream, head, state.status.conditions);
  const transitions = decisions.map(({ seq, condition }) => ({
    seq: seq ?? 0,
    at: condition.lastTransitionTime,
    type: condition.type,
    status: condition.status,
    reason: condition.reason,
    message: condition.message,
  }));
  const first = await entryAt(deps.store, stream, 1);
  const last = await entryAt(deps.store, stream, head);
  return {
    job: objectIdentity(summary),
    head,
    ...(first ? { firstRecordedAt: first.recordedAt } : {}),
    ...(last ? { lastRecordedAt: last.recordedAt } : {}),
    transitions,
  };
});
