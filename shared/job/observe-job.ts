import type { JobObserved } from './events.ts';
import { rebuildAggregates } from './aggregates.ts';
import { judgeFailure, judgeIndex, recountByCompletions } from './counting.ts';
import { countKnownPod } from './observe-pod.ts';
import { noteParallelism, tellsParallelism } from './excess-deletions.ts';
import { noteSuspend, noteSuspensionHeldBack, tellsSuspend } from './suspension-order.ts';
import { jobIdentity, jobSettings } from './job-settings.ts';
import type { JobCondition } from './conditions.ts';
import { clockSkewOf, type JobState } from './state.ts';
import { parseIndexes } from '../indexes/index-set.ts';
import { initialRuleProgress } from '../policies/success-policy.ts';
import { stableHash } from './stable-hash.ts';
import { validateJob, validateJobUpdate } from './validation/index.ts';
import type { Job } from '../k8s/job.ts';
import { comparableVersion, isStaleObservation, type ObservationOrder } from '../k8s/object-sequence.ts';
import { isFinished } from './conditions.ts';
import { liveStatus } from './status.ts';
import { boundedText, MAX_REASON_BYTES } from '../k8s/bounded-text.ts';
import { advance, beyondSkew } from './cluster-clock.ts';
import { formatTime, parseTime } from '../k8s/time.ts';
import { followLateSpec } from './late-outcome.ts';

/**
 * Folds a Job observation. The first one fixes the Job's identity and seeds the status from
 * what the cluster reports (so a Job adopted mid-flight keeps its counts); later ones apply
 * spec changes (suspend, parallelism, elastic completions). Specs are validated here, as the
 * API server would, and an invalid Job is rejected.
 */
export function observeJob(state: JobState, event: JobObserved, at: number, clockBefore: number | undefined): void {
  followLateSpec(state, at, () => foldJobObservation(state, event, at, clockBefore));
}

function foldJobObservation(state: JobState, event: JobObserved, at: number, clockBefore: number | undefined): void {
  // A Job observation older than one already folded (a late replay) changes nothing, but for
  // showing the Job was suspended before (state.suspendedBefore) and when (suspension-order.ts).
  const order = jobObservationOrder(event);
  // Stale or not, the observation tells the parallelism and completions at its instant (excess-deletions.ts).
  const noted = noteParallelism(state, at, event.job.spec.parallelism ?? 1, event.job.spec.completions);
  if (isStaleObservation({ version: state.jobVersion, sequence: state.jobOrder }, order)) {
    if (revealsSuspension(state, event, at)) state.suspendedBefore = true;
    noteSuspend(state, at, event.job.spec.suspend === true, true, { version: order.version, stale: true });
    if (noted) recountByCompletions(state);
    return;
  }
  if (order.sequence !== undefined) state.jobOrder = order.sequence;
  if (order.version !== undefined) state.jobVersion = order.version;
  state.jobEventId = event.eventId;
  // A stamp beyond the skew says only that the Job was observed before it arrived, not when:
  // it is no time to judge a later observation older by (one stamped right but arriving after
  // it, or in the same batch, is newer). The last trusted time stays.
  if (event.arrivedAt === undefined) state.jobObservedAt = event.observedAt;
  else if (!beyondSkew(event.observedAt, event.arrivedAt, clockSkewOf(state.config))) state.jobObservedAt = formatTime(at);
  // The API server's clock read the creation: the Job was observed no earlier, and no reconcile
  // of it runs before (a forwarder stamping 1970 does not start the Job then), unless the
  // creation stamp itself is beyond the skew.
  const created = event.job.metadata.creationTimestamp;
  const createdAt = created === undefined || beyondSkew(created, event.arrivedAt, clockSkewOf(state.config)) ? undefined : parseTime(created);
  if (createdAt !== undefined) advance(state.clock, createdAt);
  const observedAt = createdAt !== undefined && createdAt > at ? createdAt : at;
  const job = event.job;
  // Metadata, not spec: a Job being deleted is news even when its spec is unchanged.
  state.deletionTimestamp ??= job.metadata.deletionTimestamp;
  // A Job whose creation was refused has an identity but no spec yet: its next valid spec is
  // its first.
  const first = state.spec === undefined;
  const specHash = stableHash(job.spec);
  if (!first && specHash === stableHash(state.spec)) {
    // The last valid spec again: whatever update was refused since is withdrawn.
    state.refusedUpdate = undefined;
    // Still the newest observation, the bound of its stretch of spec.suspend: an older one of
    // the other value arriving later changes the value up to it only (managed generated seed-99
    // history-52: a resumption equal to the spec held, then the suspension before it arriving
    // last, read as suspended for good).
    noteSuspend(state, observedAt, state.settings?.suspend === true, clockBefore !== undefined && observedAt < clockBefore, { version: order.version, stale: false });
    return;
  }
  if (!first && state.refusedUpdate?.specHash === specHash) return;
  const previous = state.spec;
  if (state.config.validateSpecs) {
    const options = { gates: state.config.gates };
    const oldJob: Job | undefined = previous && state.identity
      ? { metadata: job.metadata, spec: previous }
      : undefined;
    const errors = oldJob ? validateJobUpdate(job, oldJob, options) : validateJob(job, options);
    if (errors.length > 0) {
      if (first) {
        // Upstream never creates such a Job: nothing of it is reconciled.
        state.identity ??= jobIdentity(event.clusterId, job);
        state.rejected = errors;
        state.rejectionRecorded = false;
      } else {
        // Upstream refuses the update and keeps the Job as it was.
        const { eventId, observedAt } = event;
        state.refusedUpdate = { errors, specHash, eventId, observedAt };
        state.refusedUpdateRecorded = false;
      }
      return;
    }
  }
  state.rejected = undefined;
  state.refusedUpdate = undefined;
  if (first) {
    state.identity ??= jobIdentity(event.clusterId, job);
    seedStatus(state, job, event.arrivedAt === undefined ? undefined : at);
  }
  const completionsChanged = state.settings?.completions !== jobSettings(job.spec).completions;
  state.spec = job.spec;
  // Read after later events of the Job (it arrived late): the spec took effect when observed.
  state.specObservedAt = clockBefore !== undefined && observedAt < clockBefore ? observedAt : undefined;
  const wasSuspended = state.settings?.suspend === true;
  state.settings = jobSettings(job.spec);
  if (state.settings.suspend) state.suspendHeld = true;
  else if (wasSuspended) noteSuspensionHeldBack(state);
  noteSuspend(state, observedAt, state.settings.suspend, state.specObservedAt !== undefined, { version: order.version, stale: false });
  state.successRuleProgress = initialRuleProgress(
    state.settings.successPolicyRules ?? [],
    state.status.completedIndexes,
  );
  if (!first && completionsChanged && state.settings.indexed) clipIndexes(state, state.settings.completions ?? 0);
  if (first || completionsChanged) {
    rebuildAggregates(state);
    for (const pod of state.pods.values()) {
      judgeFailure(state, pod);
      judgeIndex(state, pod);
      countKnownPod(state, pod);
    }
  }
  if (!first && completionsChanged) recountByCompletions(state);
  if (first) adoptFinished(state, job);
}

/** A Job observation's place among the Job's others: its resourceVersion, and the forwarder's stamp. */
export const jobObservationOrder = (event: JobObserved): ObservationOrder => ({
  version: comparableVersion(event.job.metadata.resourceVersion),
  sequence: event.sequence,
});

/** Adopted already finished: what the cluster reported is final, as it is for upstream. */
function adoptFinished(state: JobState, job: Job): void {
  const reported = job.status;
  if (!reported || state.finalStatus !== undefined || !isFinished(state.status.conditions)) return;
  state.finalStatus = {
    ...liveStatus(state),
    conditions: [...state.status.conditions],
    active: reported.active ?? 0,
    ready: reported.ready ?? 0,
    terminating: reported.terminating ?? 0,
  };
  state.finishedAt = state.position;
}

/**
 * The cluster started the Job no later than it was observed: through the service (`at` is the
 * observation's instant on the clock cluster-clock.ts reads), a reported startTime after it (a
 * cluster clock beyond the allowed skew) is taken as that instant, so the deadline runs from
 * when the Job was seen started, not from a time that has not come yet.
 */
function boundedStartTime(startTime: string | undefined, at: number | undefined): string | undefined {
  return startTime !== undefined && at !== undefined && parseTime(startTime) > at ? formatTime(at) : startTime;
}

/**
 * Elastic Indexed Jobs: upstream parses completedIndexes and failedIndexes against the current
 * completions on every sync, so indexes beyond a scaled-down completions leave the status for
 * good (and run again if completions grows back).
 */
function clipIndexes(state: JobState, completions: number): void {
  state.status.completedIndexes = parseIndexes(state.status.completedIndexes.toString(), completions);
  state.status.failedIndexes = parseIndexes(state.status.failedIndexes.toString(), completions);
}

function seedStatus(state: JobState, job: Job, at: number | undefined): void {
  const reported = job.status;
  if (!reported) return;
  const completions = job.spec.completions ?? 0;
  const status = state.status;
  status.startTime = boundedStartTime(reported.startTime, at);
  status.completionTime = reported.completionTime;
  status.conditions = (reported.conditions ?? []).map(
    (c): JobCondition => ({
      type: c.type,
      status: c.status,
      reason: boundedText(c.reason ?? '', MAX_REASON_BYTES),
      message: boundedText(c.message ?? ''),
      lastTransitionTime: c.lastTransitionTime ?? job.metadata.creationTimestamp ?? '',
    }),
  );
  status.succeeded = reported.succeeded ?? 0;
  status.failed = reported.failed ?? 0;
  if (reported.completedIndexes) {
    status.completedIndexes = parseIndexes(reported.completedIndexes, completions);
  }
  if (reported.failedIndexes) {
    status.failedIndexes = parseIndexes(reported.failedIndexes, completions);
  }
}

/**
 * Whether an instant lies before the newest Job observation folded (when its stamp was trusted):
 * a suspended observation of that very instant was read by the same sync as the newer one, which
 * never saw the Job suspended.
 */
/**
 * Whether a Job observation older (by its order) than the one the fold took still tells the fold
 * something, so that the writer logs it rather than dropping it as stale (known-observation.ts):
 * the parallelism at its instant, that the Job was suspended before the spec the fold holds, or
 * its spec.suspend at its instant (suspension-order.ts).
 */
export function staleJobObservationTells(state: JobState, event: JobObserved, at: number): boolean {
  return (
    tellsParallelism(state, at, event.job.spec.parallelism ?? 1, event.job.spec.completions) ||
    (revealsSuspension(state, event, at) && state.suspendedBefore !== true) ||
    tellsSuspend(state, at, event.job.spec.suspend === true, jobObservationOrder(event).version)
  );
}

/** A stale observation showing the Job suspended, observed before the newest one, while the spec the fold holds runs. */
function revealsSuspension(state: JobState, event: JobObserved, at: number): boolean {
  return event.job.spec.suspend === true && state.settings?.suspend === false && !state.suspendHeld && beforeNewestJobObservation(state, at);
}

function beforeNewestJobObservation(state: JobState, at: number): boolean {
  return state.jobObservedAt === undefined || at < parseTime(state.jobObservedAt);
}

