import { JOBFOLD_JOBSET_CONTROLLER_NAME } from './constants.ts';
import type { JobObserved, JobSetObserved } from './events.ts';
import type { JobSetState, SeenSpec, SpecTaken } from './state.ts';
import { comparableVersion, compareVersions } from '../k8s/object-sequence.ts';
import { compareTimes } from '../k8s/time.ts';

// What the JobSet fold notes, from every JobSet and child Job observation (late ones included),
// of when the cluster had the JobSet or its Jobs suspended, resumed or walking, by time and
// resourceVersion: the records of state.ts that the deciders read to place what the cluster
// wrote in an order the log did not bring (evolve.ts applies them; the log writer asks them
// whether a stale observation is news, decider.ts).

/**
 * An observation showing the JobSet suspended earlier than any the fold has seen: the cluster had
 * it suspended by then (terminal-decisions.ts and placeOfLateRestart read when, state.ts
 * `firstSuspensionSeenAt`). The writer logs such a stale observation.
 */
export function earlierSuspension(state: JobSetState, event: JobSetObserved): boolean {
  if (event.jobSet.spec.suspend !== true) return false;
  const known = state.earliestSuspensionAt;
  return known === undefined || compareTimes(event.at, known) < 0;
}

/**
 * A late JobSet observation showing `spec.suspend` while the spec the fold holds is not
 * suspended, earlier than any such the fold took: its time, which `suspendedBefore` becomes.
 * The cluster reconciled the JobSet suspended then (its controller writes `Suspended` True on
 * every pass of a suspended JobSet), though the fold only ever held the resumed spec.
 */
export function revealedSuspension(state: JobSetState, event: JobSetObserved): string | undefined {
  if (event.jobSet.spec.suspend !== true || state.jobSet?.spec.suspend === true) return undefined;
  const known = state.suspendedBefore;
  return known === undefined || compareTimes(event.at, known) < 0 ? event.at : undefined;
}

/**
 * A late JobSet observation showing it unsuspended InOrder, older than every spec the fold took:
 * its version, when older than any such the fold noted. Noted whether or not a suspension is known
 * yet: the suspended observation may arrive after it. Upstream's first pass on
 * it created the first replicated job's Jobs and wrote `StartupPolicyInProgress` True, before the
 * suspension (which leaves the startup conditions alone), so that condition goes first.
 */
export function revealedWalk(state: JobSetState, event: JobSetObserved): string | undefined {
  const version = comparableVersion(event.jobSet.metadata.resourceVersion);
  const { spec } = event.jobSet;
  if (version === undefined || spec.suspend === true || spec.startupPolicy?.startupPolicyOrder !== 'InOrder') return undefined;
  const first = state.specsTaken?.[0];
  if (first === undefined || compareVersions(version, first.version) >= 0) return undefined;
  const known = state.walkBeganVersion;
  return known === undefined || compareVersions(version, known) < 0 ? version : undefined;
}

/**
 * A late JobSet observation showing it resumed between a suspended spec the fold took and the
 * next suspended one (or the one it holds), by resourceVersion: the cluster ran it then, which the
 * fold, holding the newer spec, never saw (a finish in between was reached running: decide.ts
 * `resumedBeforeFinish`). `specsTaken` with it in its place (the conditions that stood when the
 * next spec was taken, as the fold wrote none on it), else undefined.
 */
export function revealedResumption(state: JobSetState, event: JobSetObserved): readonly SpecTaken[] | undefined {
  const version = comparableVersion(event.jobSet.metadata.resourceVersion);
  const taken = state.specsTaken ?? [];
  if (version === undefined || event.jobSet.spec.suspend === true) return undefined;
  const next = taken.findIndex((spec) => compareVersions(spec.version, version) > 0);
  const at = next === -1 ? taken.length : next;
  if (at === 0 || taken[at - 1]?.suspend !== true || (next !== -1 && taken[next]?.suspend !== true)) return undefined;
  const conditions = next === -1 ? state.conditions.length : (taken[next] as SpecTaken).conditions;
  return [...taken.slice(0, at), { version, suspend: false, conditions, at: event.at }, ...taken.slice(at)];
}

/** `specsTaken` with the spec now taken, when its `suspend` differs from the last one's. */
export function specTaken(state: JobSetState, suspend: boolean, version: string | undefined, at: string): Pick<JobSetState, 'specsTaken'> | undefined {
  const taken = state.specsTaken ?? [];
  if (version === undefined || taken.at(-1)?.suspend === suspend) return undefined;
  return { specsTaken: [...taken, { version, suspend, conditions: state.conditions.length, at }] };
}

/**
 * What a JobSet observation adds to `suspendedVersions` (a suspended one not noted yet) or
 * `lastResumedVersion` (a resumed one newer than it), late ones too, with what can no longer
 * answer dropped (`suspensionFloor`).
 */
export function noteSuspendVersion(
  state: JobSetState,
  event: JobSetObserved,
): Pick<JobSetState, 'suspendedVersions' | 'lastResumedVersion' | 'suspendedChildVersions'> | undefined {
  const version = comparableVersion(event.jobSet.metadata.resourceVersion);
  if (version === undefined) return undefined;
  const known = state.suspendedVersions ?? [];
  const last = state.lastResumedVersion;
  if (event.jobSet.spec.suspend !== true) {
    return last === undefined || compareVersions(version, last) > 0 ? withoutAnswered(known, version, state.suspendedChildVersions) : undefined;
  }
  const floor = suspensionFloor(known, last);
  if (known.includes(version) || (floor !== undefined && compareVersions(version, floor) < 0)) return undefined;
  return withoutAnswered([...known, version].sort(compareVersions), last, state.suspendedChildVersions);
}

/**
 * The newest suspended version below the last resumption. `walkBegunOnLastResumption` asks for
 * the suspensions either side of the last resumption and a child Job seen suspended between
 * them; the last resumption only moves up, so this floor only moves up: no suspension older than
 * it, nor any child version at or below it, can be one of those again (whatever arrives late),
 * and they go. What stays is the versions since the last resumption's suspension before it.
 */
function suspensionFloor(suspended: readonly string[], resumed: string | undefined): string | undefined {
  return resumed === undefined ? undefined : suspended.findLast((v) => compareVersions(v, resumed) < 0);
}

function withoutAnswered(
  suspended: readonly string[],
  resumed: string | undefined,
  children: readonly string[] | undefined,
): Pick<JobSetState, 'suspendedVersions' | 'lastResumedVersion' | 'suspendedChildVersions'> {
  const floor = suspensionFloor(suspended, resumed);
  const kept = floor === undefined ? suspended : suspended.filter((v) => compareVersions(v, floor) >= 0);
  return {
    ...(kept.length === 0 ? {} : { suspendedVersions: kept }),
    ...(resumed === undefined ? {} : { lastResumedVersion: resumed }),
    ...(children === undefined || floor === undefined ? {} : { suspendedChildVersions: children.filter((v) => compareVersions(v, floor) > 0) }),
  };
}

/**
 * `jobSetTimeline` with the observation in its place by resourceVersion; undefined when it holds
 * it already. Every observation is kept, those inside a run of equal `suspend` too: one of them
 * becomes a run's end when an older opposite observation arrives late (the cluster changed
 * `suspend` twice in between), and no bound on how late that can be tells which may go. A cap
 * that kept only each run's ends changed the answer of `suspendInForceAt` past it (a late resumed
 * observation moved the end of the suspended run it fell into to that run's last entry), so
 * there is none: one small entry per JobSet observation, as its log holds one per observation
 * anyway. O(log n) to find the place, O(n) to copy.
 */
export function noteJobSetTimeline(state: JobSetState, event: JobSetObserved): Pick<JobSetState, 'jobSetTimeline'> | undefined {
  const version = comparableVersion(event.jobSet.metadata.resourceVersion);
  if (version === undefined) return undefined;
  const known = state.jobSetTimeline ?? [];
  let low = 0;
  let high = known.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compareVersions((known[middle] as SeenSpec).version, version) < 0) low = middle + 1;
    else high = middle;
  }
  if (known[low]?.version === version) return undefined;
  const seen: SeenSpec = { version, suspend: event.jobSet.spec.suspend === true, at: event.at };
  return { jobSetTimeline: [...known.slice(0, low), seen, ...known.slice(low)] };
}

/**
 * `suspendedChildVersions` with the version of a child Job snapshot showing it suspended, for an
 * InOrder JobSet jobfold does not run (or one not seen yet): a resumption after it found the Job
 * not started, and its walk began again.
 */
export function noteSuspendedChild(state: JobSetState, event: JobObserved, version: string | undefined): Pick<JobSetState, 'suspendedChildVersions'> | undefined {
  const spec = state.jobSet?.spec;
  if (version === undefined || event.job.spec?.suspend !== true) return undefined;
  if (spec !== undefined && (spec.startupPolicy.startupPolicyOrder !== 'InOrder' || spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME)) return undefined;
  const known = state.suspendedChildVersions ?? [];
  const floor = suspensionFloor(state.suspendedVersions ?? [], state.lastResumedVersion);
  if (known.includes(version) || (floor !== undefined && compareVersions(version, floor) <= 0)) return undefined;
  return { suspendedChildVersions: [...known, version].sort(compareVersions) };
}
