import type { JobObserved } from './events.ts';
import { rebuildAggregates } from './aggregates.ts';
import { countPod, judgeFailure, judgeIndex } from './counting.ts';
import { jobIdentity, jobSettings } from './job-settings.ts';
import type { JobCondition } from './conditions.ts';
import type { JobState } from './state.ts';
import { parseIndexes } from '../indexes/index-set.ts';
import { initialRuleProgress } from '../policies/success-policy.ts';
import { stableHash } from './stable-hash.ts';
import { validateJob, validateJobUpdate } from './validation/index.ts';
import type { Job } from '../k8s/job.ts';
import { isStaleObservation } from '../k8s/object-sequence.ts';
import { isFinished } from './conditions.ts';
import { liveStatus } from './status.ts';
import { boundedText, MAX_REASON_BYTES } from './bounded-text.ts';

/**
 * Folds a Job observation. The first one fixes the Job's identity and seeds the status from
 * what the cluster reports (so a Job adopted mid-flight keeps its counts); later ones apply
 * spec changes (suspend, parallelism, elastic completions). Specs are validated here, as the
 * API server would, and an invalid Job is rejected.
 */
export function observeJob(state: JobState, event: JobObserved): void {
  // A Job observation stamped older than one already folded (a late replay) changes nothing.
  if (isStaleObservation(state.jobOrder, event.sequence)) return;
  if (event.sequence !== undefined) state.jobOrder = event.sequence;
  state.jobEventId = event.eventId;
  state.jobObservedAt = event.observedAt;
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
    seedStatus(state, job);
  }
  const completionsChanged = state.settings?.completions !== jobSettings(job.spec).completions;
  state.spec = job.spec;
  state.settings = jobSettings(job.spec);
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
      countPod(state, pod);
    }
  }
  if (first) adoptFinished(state, job);
}

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
 * Elastic Indexed Jobs: upstream parses completedIndexes and failedIndexes against the current
 * completions on every sync, so indexes beyond a scaled-down completions leave the status for
 * good (and run again if completions grows back).
 */
function clipIndexes(state: JobState, completions: number): void {
  state.status.completedIndexes = parseIndexes(state.status.completedIndexes.toString(), completions);
  state.status.failedIndexes = parseIndexes(state.status.failedIndexes.toString(), completions);
}

function seedStatus(state: JobState, job: Job): void {
  const reported = job.status;
  if (!reported) return;
  const completions = job.spec.completions ?? 0;
  const status = state.status;
  status.startTime = reported.startTime;
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
