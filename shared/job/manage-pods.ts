import { remainingBackoffMs } from '../policies/backoff-delay.ts';
import { countsFailure } from '../policies/pod-failure-policy.ts';
import { byLeastAdvanced } from './active-pods-order.ts';
import { JOBFOLD_CONTROLLER_NAME, MAX_POD_CREATE_DELETE_PER_SYNC, Message, Reason } from '../k8s/job-controller.ts';
import { parseTime } from '../k8s/time.ts';
import type { JobState } from './state.ts';
import type { CreatePod } from './commands.ts';
import type { PodRecord } from './pod-record.ts';
import { absoluteFailureCount } from './counting.ts';
import { activePods, record, terminate, wakeAt, type Sync } from './sync.ts';
import { parallelismAt } from './excess-deletions.ts';

/**
 * Upstream `manageJob`: keeps the number of active pods at what the Job wants. Deletes pods
 * of a suspended Job; deletes excess, duplicated and invalid-index pods; otherwise creates the
 * missing ones, unless the recreation backoff still runs. A sync deletes or creates, never both.
 */
export function managePods(sync: Sync): void {
  const { state } = sync;
  const settings = state.settings;
  if (!settings) return;
  if (settings.suspend) {
    const all = activePods(state, sync.lapsed).filter((pod) => !createdAfterSuspension(state, pod)).sort(byLeastAdvanced);
    terminate(sync, all, 'JobSuspended', Reason.JobSuspended, Message.JobSuspended);
    return;
  }
  const succeeded = settings.indexed ? state.status.completedIndexes.size : state.status.succeeded;
  const active = sync.active;
  const wantActive =
    settings.completions === undefined
      ? succeeded > 0
        ? active
        : settings.parallelism
      : Math.max(0, Math.min(settings.completions - succeeded, settings.parallelism));
  // O(pods) only when there is something to delete.
  const excess = active > wantActive ? Math.max(0, active - wantActive - finishedUnseen(state, sync.lapsed)) : 0;
  if (removePods(sync, excess, wantActive)) return;
  createPods(sync, wantActive);
}

/**
 * A pod of a Job jobfold does not run, created after the suspended spec the fold holds was
 * observed (cluster's clock): the controller creates no pod for a suspended Job, so the Job was
 * resumed by then and the fold's spec is a view the cluster has left (the resumption arrives
 * after). Not taken as the suspension's to delete; if the cluster deletes it all the same (a
 * creation racing the suspension), its deletion is not counted (observe-pod.ts inferOutcome).
 */
function createdAfterSuspension(state: JobState, pod: PodRecord): boolean {
  if (state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME || state.jobObservedAt === undefined) return false;
  return pod.creationTimestamp !== undefined && pod.creationTimestamp > parseTime(state.jobObservedAt);
}

/**
 * How many of the pods the fold sees active had stopped being active on the cluster, at least:
 * the controller creates pods only while fewer are active than it wants, never more than
 * `parallelism` (as it was then). Pods created in one second are taken as created by one sync
 * (creationTimestamp has one-second precision): when the newest active pods were created, at
 * most parallelism less their number of the active pods created before them were still active;
 * the others had finished or were being deleted, and the fold has not seen it yet (their
 * observations arrive after their replacements'). They are no excess: their own events will
 * say how they ended.
 */
function finishedUnseen(state: JobState, lapsed: ReadonlySet<string> | undefined): number {
  let newest: number | undefined;
  const created: number[] = [];
  for (const pod of activePods(state, lapsed)) {
    if (pod.creationTimestamp === undefined) continue;
    created.push(pod.creationTimestamp);
    if (newest === undefined || pod.creationTimestamp > newest) newest = pod.creationTimestamp;
  }
  if (newest === undefined) return 0;
  const before = created.filter((at) => at < (newest as number)).length;
  const room = parallelismAt(state, newest) - (created.length - before);
  // More created at once than the controller ever runs: not its one sync (pods it adopted).
  return room < 0 ? 0 : Math.max(0, before - room);
}

/** Upstream `activePodsForRemoval`; returns true when anything was deleted. */
function removePods(sync: Sync, atLeast: number, wantActive: number): boolean {
  const { state } = sync;
  const forced = state.settings?.indexed ? invalidAndDuplicated(sync) : { invalid: [], duplicated: [] };
  const forcedCount = forced.invalid.length + forced.duplicated.length;
  if (forcedCount === 0 && atLeast === 0) return false;
  let budget = MAX_POD_CREATE_DELETE_PER_SYNC;
  const take = (pods: PodRecord[]) => pods.splice(0, budget);
  const invalid = take(forced.invalid);
  budget -= invalid.length;
  const duplicated = take(forced.duplicated);
  budget -= duplicated.length;
  const chosen = new Set([...invalid, ...duplicated]);
  const excess = activePods(state, sync.lapsed)
    .filter((p) => !chosen.has(p))
    .sort(byLeastAdvanced)
    .slice(0, Math.min(budget, Math.max(0, atLeast - chosen.size)));
  terminate(sync, invalid, 'InvalidIndex', 'InvalidIndex', 'Pod has no valid completion index');
  terminate(sync, duplicated, 'DuplicateIndex', 'DuplicateIndex', 'Another pod runs the same completion index');
  terminate(sync, excess, 'ExcessPods', 'ExcessPods', `Job wants ${wantActive} active pods`);
  return invalid.length + duplicated.length + excess.length > 0;
}

/** Indexed Jobs: pods without a valid index, and all but the most advanced pod per index. */
function invalidAndDuplicated(sync: Sync): { invalid: PodRecord[]; duplicated: PodRecord[] } {
  const { state } = sync;
  const invalid: PodRecord[] = [];
  const duplicated: PodRecord[] = [];
  const lapsed = sync.lapsed;
  if (state.invalidActive.size === 0 && state.duplicatedIndexes.size === 0 && lapsed === undefined) return { invalid, duplicated };
  // Pods whose deletion this sync took back are active here, but not in the state's aggregates.
  const completions = state.settings?.completions ?? 0;
  const lapsedAt = new Map<number, number>();
  for (const uid of lapsed ?? []) {
    const index = state.pods.get(uid)?.index;
    if (index !== undefined) lapsedAt.set(index, (lapsedAt.get(index) ?? 0) + 1);
  }
  const duplicatedIndex = (index: number) => state.duplicatedIndexes.has(index) || (state.activeByIndex.get(index) ?? 0) + (lapsedAt.get(index) ?? 0) > 1;
  const byIndex = new Map<number, PodRecord[]>();
  for (const pod of activePods(state, lapsed)) {
    const invalidIndex = lapsed?.has(pod.uid) === true ? pod.index < 0 || pod.index >= completions : state.invalidActive.has(pod.uid);
    if (invalidIndex) invalid.push(pod);
    else if (duplicatedIndex(pod.index)) {
      byIndex.set(pod.index, [...(byIndex.get(pod.index) ?? []), pod]);
    }
  }
  // A Job jobfold runs: its own creations, its own view (a stale one is the guard's to hold back).
  const ours = state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME;
  for (const pods of byIndex.values()) duplicated.push(...(ours ? pods : withoutEndedUnseen(pods)).sort(byLeastAdvanced).slice(0, -1));
  return { invalid, duplicated };
}

/**
 * The pods of one index the fold sees active (a Job jobfold does not run), without those created before the index's newest:
 * the controller creates a pod for an index only when none of it is active, so those had ended
 * on the cluster by then (their events arrive after their replacement's). Pods created in the
 * same second are the duplicates upstream removes (creationTimestamp has one-second precision).
 */
function withoutEndedUnseen(pods: PodRecord[]): PodRecord[] {
  let newest: number | undefined;
  for (const pod of pods) if (pod.creationTimestamp !== undefined && (newest === undefined || pod.creationTimestamp > newest)) newest = pod.creationTimestamp;
  if (newest === undefined) return pods;
  return pods.filter((pod) => pod.creationTimestamp === undefined || pod.creationTimestamp >= (newest as number));
}

function createPods(sync: Sync, wantActive: number): void {
  const { state } = sync;
  const settings = state.settings;
  if (!settings) return;
  if (settings.backoffLimitPerIndex === undefined) {
    const times = state.backoff.failureTimes;
    const remaining = remainingBackoffMs(times.length, times.at(-1), sync.now);
    if (remaining > 0) {
      // Upstream checks the backoff only when `active < wantActive`, and then returns 0.
      if (sync.active < wantActive) sync.activeWrittenAsZero = true;
      return wakeAt(sync, sync.now + remaining);
    }
  }
  const blockedByTerminating = settings.onlyReplaceFailedPods ? state.counts.terminating : 0;
  let diff = Math.min(wantActive - blockedByTerminating - sync.active, MAX_POD_CREATE_DELETE_PER_SYNC);
  if (diff <= 0) return;
  let indexes: number[] | undefined;
  if (settings.indexed) {
    indexes = pendingIndexes(sync, diff);
    diff = indexes.length;
    if (diff === 0) return;
  }
  record(sync, { type: 'PodCreationsRequested', count: diff, indexes });
  const identity = state.identity;
  for (let i = 0; i < diff; i++) {
    const index = indexes?.[i];
    const command: CreatePod = {
      type: 'CreatePod',
      commandId: `${identity?.uid}/create/${state.creationRequests + i}`,
      clusterId: identity?.clusterId ?? '',
      namespace: identity?.namespace ?? '',
      jobName: identity?.name ?? '',
      jobUid: identity?.uid ?? '',
      index,
      templateHash: settings.templateHash,
      ...(index !== undefined && settings.backoffLimitPerIndex !== undefined ? newIndexFailureCounts(sync, index) : {}),
    };
    sync.commands.push(command);
  }
  sync.active += diff;
}

/**
 * Upstream `getNewIndexFailureCounts`: the counts of the failed pod the new one replaces (the one
 * held for its index), plus that failure, as a counted or an ignored one.
 */
function newIndexFailureCounts(sync: Sync, index: number): { indexFailureCount: number; indexIgnoredFailureCount: number } {
  const uid = sync.state.held.get(index);
  const replaced = uid === undefined ? undefined : sync.state.pods.get(uid);
  if (!replaced) return { indexFailureCount: 0, indexIgnoredFailureCount: 0 };
  const counted = countsFailure(replaced.failureMatch);
  return {
    indexFailureCount: replaced.failureCount + (counted ? 1 : 0),
    indexIgnoredFailureCount: replaced.ignoredFailureCount + (counted ? 0 : 1),
  };
}

/**
 * Upstream `firstPendingIndexes`: the lowest indexes not succeeded, not active, not failed,
 * and (Failed-only replacement) not held by a terminating pod; with backoffLimitPerIndex, only
 * those whose per-index backoff has run out (`getPodCreationInfoForIndependentIndexes`).
 */
function pendingIndexes(sync: Sync, count: number): number[] {
  const { state } = sync;
  const settings = state.settings;
  const completions = settings?.completions ?? 0;
  const failedOnly = settings?.onlyReplaceFailedPods ?? false;
  const lapsedIndexes = new Set([...(sync.lapsed ?? [])].map((uid) => state.pods.get(uid)?.index));
  const skip = (i: number) =>
    state.activeByIndex.has(i) ||
    lapsedIndexes.has(i) ||
    (failedOnly && state.terminatingByIndex.has(i)) ||
    state.status.failedIndexes.has(i);
  const candidates = state.status.completedIndexes.firstMissing(count, completions, skip);
  if (settings?.backoffLimitPerIndex === undefined) return candidates;
  const now: number[] = [];
  let soonest: number | undefined;
  for (const index of candidates) {
    const uid = state.held.get(index);
    const last = uid === undefined ? undefined : state.pods.get(uid);
    const remaining = last ? remainingBackoffMs(absoluteFailureCount(last) + 1, last.finishedAt, sync.now) : 0;
    if (remaining === 0) now.push(index);
    else soonest = Math.min(soonest ?? remaining, remaining);
  }
  if (now.length === 0 && soonest !== undefined) {
    sync.activeWrittenAsZero = true;
    wakeAt(sync, sync.now + soonest);
  }
  return now;
}
