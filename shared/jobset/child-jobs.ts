import { LABELS } from './constants.ts';
import type { ChildJob } from './schemas.ts';
import { compareTimes, parseTime } from '../k8s/time.ts';
import type { ChildJobView, JobFailure, JobSetState } from './state.ts';

/** `strconv.Atoi`: an optional sign and decimal digits, nothing else. */
export function parseLabelInt(value: string | undefined): number | undefined {
  if (value === undefined || !/^[+-]?\d+$/.test(value)) return undefined;
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) ? parsed : undefined;
}

/**
 * Digests a child Job snapshot into the controller's view. The snapshot replaces the previous
 * one; a pending deletion carries over while it is the same object (same restart attempt, same
 * uid when both are known), because a snapshot does not undo a delete request.
 */
export function observeChildJob(
  previous: ChildJobView | undefined,
  job: ChildJob,
  position: number,
): ChildJobView {
  const labels = job.metadata.labels ?? {};
  const restartAttempt = parseLabelInt(labels[LABELS.restartAttempt]);
  const uid = job.metadata.uid;
  const sameObject =
    previous !== undefined &&
    previous.restartAttempt === restartAttempt &&
    (previous.uid === undefined || uid === undefined || previous.uid === uid);
  const conditions = job.status?.conditions ?? [];
  const finishedCondition = conditions.find(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
  const failedCondition = conditions.find((c) => c.type === 'Failed' && c.status === 'True');
  const failure: JobFailure | undefined =
    failedCondition === undefined
      ? undefined
      : {
          reason: failedCondition.reason ?? '',
          message: failedCondition.message ?? '',
          lastTransitionTime: failedCondition.lastTransitionTime,
        };
  const replicatedJob = labels[LABELS.replicatedJobName];
  return {
    name: job.metadata.name,
    uid: uid ?? (sameObject ? previous.uid : undefined),
    replicatedJob: replicatedJob === '' ? undefined : replicatedJob,
    jobIndex: parseLabelInt(labels[LABELS.jobIndex]),
    restartAttempt,
    parallelism: job.spec?.parallelism ?? 1,
    completions: job.spec?.completions,
    suspend: job.spec?.suspend ?? false,
    active: job.status?.active ?? 0,
    ready: job.status?.ready ?? 0,
    succeeded: job.status?.succeeded ?? 0,
    failed: job.status?.failed ?? 0,
    finished: finishedCondition?.type as 'Complete' | 'Failed' | undefined,
    failure,
    ...(finishedCondition?.lastTransitionTime === undefined ? {} : { finishedAt: finishedCondition.lastTransitionTime }),
    terminating: job.metadata.deletionTimestamp !== undefined || (sameObject && previous.terminating),
    observedAt: position,
  };
}

/** The buckets of `getChildJobs`, each sorted by Job name (the order upstream lists them in). */
export interface OwnedJobs {
  /** Restart attempt below `status.restarts`: left over from an earlier attempt. */
  readonly previous: readonly ChildJobView[];
  readonly active: readonly ChildJobView[];
  readonly successful: readonly ChildJobView[];
  readonly failed: readonly ChildJobView[];
}

/**
 * `getChildJobs`: sorts the child Jobs into buckets. Returns undefined when a Job's
 * restart-attempt label is missing or not an integer, which makes upstream's reconcile fail.
 */
export function classifyChildJobs(state: JobSetState): OwnedJobs | undefined {
  const owned = { previous: [] as ChildJobView[], active: [] as ChildJobView[], successful: [] as ChildJobView[], failed: [] as ChildJobView[] };
  const names = Object.keys(state.children).sort();
  for (const name of names) {
    const job = state.children[name]!;
    if (job.restartAttempt === undefined) return undefined;
    if (job.restartAttempt < state.restarts) owned.previous.push(job);
    else if (job.finished === 'Failed') owned.failed.push(job);
    else if (job.finished === 'Complete') owned.successful.push(job);
    else owned.active.push(job);
  }
  owned.successful.push(...listedGoneSuccesses(state, owned.successful));
  owned.successful.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return owned;
}

/**
 * The completed Jobs a user deleted (`goneSuccesses`, current attempt) the cluster's controller
 * listed beside the others when the last of them finished: one deleted before a later success (by
 * the times the cluster reported the deletion and the Jobs' Complete conditions) was gone from the
 * list by then, so it is dropped (`listedAtLastFinish`). A deletion in the second of that finish
 * comes after it (the controller reconciled the finish first); one without a known time, or a
 * finish without one, is taken as listed.
 */
export function listedGoneSuccesses(state: JobSetState, present: readonly ChildJobView[]): ChildJobView[] {
  const gone = Object.values(state.goneSuccesses ?? {}).filter((job) => (job.restartAttempt ?? 0) >= state.restarts);
  const deletedAt = (job: ChildJobView): number => {
    const at = job.uid === undefined ? undefined : state.deletedChildren?.[job.uid];
    return at === undefined ? Number.NaN : parseTime(at);
  };
  return listedAtLastFinish(present, gone, deletedAt);
}

/**
 * Of the completed Jobs `candidates`, those the cluster's controller still listed, beside `kept`
 * (always listed), when the last of them finished: each candidate whose `end` (epoch ms: its
 * deletion, or when the TTL controller may have deleted it; NaN: never) comes strictly before
 * the last finish among `kept` and the candidates left is dropped, again until every one left
 * outlived the last finish (greedy: the last finish is kept, not the largest set listed together).
 * A Job without a finish time moves no last finish; with none, nothing is dropped.
 */
export function listedAtLastFinish(kept: readonly ChildJobView[], candidates: readonly ChildJobView[], end: (job: ChildJobView) => number): ChildJobView[] {
  let listed = [...candidates];
  for (;;) {
    const lastFinish = [...kept, ...listed].map((job) => job.finishedAt).filter((at) => at !== undefined).sort(compareTimes).at(-1);
    const last = lastFinish === undefined ? Number.NaN : parseTime(lastFinish);
    const dropped = listed.filter((job) => end(job) < last);
    if (dropped.length === 0) return listed;
    listed = listed.filter((job) => !dropped.includes(job));
  }
}
