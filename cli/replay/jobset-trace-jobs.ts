import type { EventStore, StreamId } from '../../shared/log/event-store.ts';
import { entryEvent } from '../../shared/job/index.ts';
import { hasTrueCondition } from '../../shared/job/index.ts';
import { evolve } from '../../shared/job/index.ts';
import { explainJob } from '../../shared/job/index.ts';
import { initialState, type FoldConfig, type JobState } from '../../shared/job/index.ts';
import { jobStatus } from '../../shared/job/index.ts';
import { parseLabelInt } from '../../shared/jobset/index.ts';
import { LABELS } from '../../shared/jobset/index.ts';
import type { ChildJobRow } from './replay-run.ts';

/**
 * The JobSet's child Jobs as their own logs tell it, every restart attempt included: status as
 * jobfold's Job fold computed it and, for a failed Job, the explanation of its Failed condition.
 * Sorted by restart attempt, then name.
 */
export async function jobStreamRows(
  store: EventStore,
  streams: readonly StreamId[],
  jobSetUid: string,
  config: FoldConfig,
): Promise<ChildJobRow[]> {
  const rows: ChildJobRow[] = [];
  for (const stream of streams) {
    const { entries } = await store.read(stream);
    const log = entries.map(entryEvent);
    const state = initialState(config);
    for (const event of log) evolve(state, event);
    const identity = state.identity;
    if (identity?.owner?.kind !== 'JobSet' || identity.owner.uid !== jobSetUid) continue;
    const labels = identity.labels ?? {};
    // FailureTarget carries the evidence (rule, pod, exit code); Failed only follows it.
    const conditions = explainJob(state, log).conditions.filter((c) => c.status === 'True');
    const failed = conditions.find((c) => c.type === 'Failed');
    const cause = conditions.find((c) => c.type === 'FailureTarget') ?? failed;
    rows.push({
      name: identity.name,
      uid: identity.uid,
      replicatedJob: labels[LABELS.replicatedJobName],
      jobIndex: parseLabelInt(labels[LABELS.jobIndex]),
      restartAttempt: parseLabelInt(labels[LABELS.restartAttempt]),
      status: jobStatusText(state),
      failureReason: failed?.reason ?? '',
      why: failed === undefined ? undefined : cause?.sentence,
    });
  }
  return rows.sort((a, b) => (a.restartAttempt ?? -1) - (b.restartAttempt ?? -1) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** `Running (1 active, 1 ready)`, `Failed`, `Failed, deleted`, `Deleted` (a running Job's counts are stale then). */
function jobStatusText(state: JobState): string {
  const conditions = state.status.conditions;
  const deleted = state.deleted ? ', deleted' : '';
  if (state.rejected) return `Rejected${deleted}`;
  if (hasTrueCondition(conditions, 'Complete')) return `Complete${deleted}`;
  if (hasTrueCondition(conditions, 'Failed')) return `Failed${deleted}`;
  if (state.deleted) return 'Deleted';
  if (hasTrueCondition(conditions, 'SuccessCriteriaMet')) return 'Succeeding';
  if (hasTrueCondition(conditions, 'FailureTarget')) return 'Failing';
  if (hasTrueCondition(conditions, 'Suspended')) return 'Suspended';
  const status = jobStatus(state);
  return status.active > 0 || status.ready > 0 ? `Running (${status.active} active, ${status.ready} ready)` : 'Created';
}
