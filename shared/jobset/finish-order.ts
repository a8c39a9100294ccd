import { compareVersions } from '../k8s/object-sequence.ts';
import { parseTime } from '../k8s/time.ts';
import type { OwnedJobs } from './child-jobs.ts';
import type { DefaultedJobSetSpec } from './defaulting.ts';
import type { ChildJobView, FinishCount } from './state.ts';
import { JOBFOLD_JOBSET_CONTROLLER_NAME } from './constants.ts';
import { matchSuccessPolicy, type SuccessPolicyResult } from './success-policy.ts';

// The order the child Jobs finished in, on the cluster's clock: the `lastTransitionTime` of each
// Job's Complete or Failed condition, which the Job controller wrote when it finished. Upstream's
// JobSet controller reconciles on every child Job update, so it acted on a Job's finish before a
// later one happened. Events neither ordered nor deduplicated (issue 21) can bring the fold both
// finishes before it reconciles, or bring them after the JobSet's deletion mark; these rules let
// the Jobs' own times say which the cluster's controller saw first. Two finishes in the same
// second, or one without a time, are not ordered: they are taken as upstream takes them in one
// pass; but for a JobSet jobfold runs, whose log holds the forwarder's counts of its Jobs' events
// (child-counts.ts): it reconciles after each, so a finish counted before another of the same
// second was acted on first, as jobfold did in the cluster's order.

/**
 * The success policy met by Jobs that finished strictly before every failed Job failed, when it
 * is: upstream then completed the JobSet before any failure (and a finished JobSet ignores later
 * failures). Undefined when a failure came first, or when no success can be placed before it.
 */
export function successBeforeFailure(spec: DefaultedJobSetSpec, owned: OwnedJobs): SuccessPolicyResult | undefined {
  // A fold, not Math.min(...): a spread of many thousands of Jobs overflows the call stack. NaN stays NaN.
  const firstFailure = owned.failed.reduce((first, job) => Math.min(first, finishInstant(job)), Number.POSITIVE_INFINITY);
  const countedFirst = spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME ? firstCountedFailure(owned, firstFailure) : undefined;
  const earlier = owned.successful.filter((job) => finishInstant(job) < firstFailure || (countedFirst !== undefined && finishInstant(job) === firstFailure && countedBefore(job.finishedCount, countedFirst)));
  if (earlier.length === 0) return undefined;
  const success = matchSuccessPolicy(spec, earlier);
  return success.met ? success : undefined;
}

/**
 * When the cluster's controller found the success policy met (RFC 3339): the finish of the Job
 * whose success met it, taking the successful Jobs in the order they finished (Jobs finished in
 * the same second are met together, as in one pass: they share the instant). Undefined when the
 * policy is not met, or when a successful Job has no finish time (the order is not told). The
 * policy holds for every longer prefix once it holds for one, so the shortest is found by
 * bisection: O(n log n) for n successful Jobs.
 */
export function successInstant(spec: DefaultedJobSetSpec, owned: OwnedJobs): string | undefined {
  return successJob(spec, owned)?.finishedAt;
}

/**
 * The Job whose success met the success policy (`successInstant`), Jobs finished in the same
 * second taken in the order of their snapshots' resourceVersions: its snapshot is the cluster's
 * evidence of the finish (its version places it among the JobSet's observations of that second).
 */
export function successJob(spec: DefaultedJobSetSpec, owned: OwnedJobs): ChildJobView | undefined {
  if (owned.successful.some((job) => Number.isNaN(finishInstant(job)))) return undefined;
  const finished = [...owned.successful].sort((a, b) => finishInstant(a) - finishInstant(b) || byVersion(a, b));
  if (!matchSuccessPolicy(spec, finished).met) return undefined;
  let low = 1;
  let high = finished.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (matchSuccessPolicy(spec, finished.slice(0, middle)).met) high = middle;
    else low = middle + 1;
  }
  return finished[low - 1];
}

/** Snapshots by resourceVersion, those without one last (KEP-5504: comparable within the Jobs). */
function byVersion(a: ChildJobView, b: ChildJobView): number {
  if (a.version === undefined || b.version === undefined) return a.version === undefined ? (b.version === undefined ? 0 : 1) : -1;
  return compareVersions(a.version, b.version);
}

/** The oldest snapshot (by resourceVersion) of a Job that failed at `failedAt`: the cluster's evidence of that failure. */
export function failureVersion(owned: OwnedJobs, failedAt: string | undefined): string | undefined {
  if (failedAt === undefined) return undefined;
  const failed = owned.failed.filter((job) => job.finishedAt === failedAt && job.version !== undefined).sort(byVersion);
  return failed[0]?.version;
}

/**
 * The buckets as the cluster's controller last listed them before `instant` (the JobSet's
 * deletion mark, after which upstream no longer reconciles it): a Job that finished at or after
 * it, or whose finish has no time, still reads as active. In the mark's second the
 * resourceVersions tell, when the mark's (`version`) is known: a Job shown finished at an older
 * one finished first (one etcd orders both, docs/ordering.md; a JobSet whose
 * `ttlSecondsAfterFinished` is 0 is marked in the second it finished).
 */
export function finishedBefore(owned: OwnedJobs, instant: string, version?: string): OwnedJobs {
  const limit = parseTime(instant);
  const before = (job: ChildJobView) => {
    const at = finishInstant(job);
    return at < limit || (at === limit && version !== undefined && job.version !== undefined && compareVersions(job.version, version) < 0);
  };
  const late = [...owned.failed, ...owned.successful].filter((job) => !before(job));
  return {
    previous: owned.previous,
    active: [...owned.active, ...late].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    successful: owned.successful.filter(before),
    failed: owned.failed.filter(before),
  };
}

/** When a finished Job finished (epoch ms): NaN when its condition has no time, which orders before nothing. */
/** The count of the first failure of instant `at` (each must have one, else undefined: not ordered). */
function firstCountedFailure(owned: OwnedJobs, at: number): FinishCount | undefined {
  let first: FinishCount | undefined;
  for (const job of owned.failed) {
    if (finishInstant(job) !== at) continue;
    const count = job.finishedCount;
    if (count === undefined) return undefined;
    if (first === undefined || countedBefore(count, first)) first = count;
  }
  return first;
}

const countedBefore = (a: FinishCount | undefined, b: FinishCount): boolean => a !== undefined && (a.epoch !== b.epoch ? a.epoch < b.epoch : a.count < b.count);

function finishInstant(job: ChildJobView): number {
  return job.finishedAt === undefined ? Number.NaN : parseTime(job.finishedAt);
}
