import { parseTime } from '../k8s/time.ts';
import { listedAtLastFinish } from './child-jobs.ts';
import type { DefaultedJobSetSpec } from './defaulting.ts';
import type { ChildJobView } from './state.ts';
import { matchSuccessPolicy } from './success-policy.ts';

// A completed child Job whose `ttlSecondsAfterFinished` (its replicated job's template) ran out
// before a later success: the cluster's TTL controller deletes a finished Job once
// `finishTime + ttlSecondsAfterFinished` has passed (pkg/controller/ttlafterfinished), never
// before, so whether the JobSet's controller still listed it when the later success came depends on
// a deletion the log may not hold yet (the forwarder's `Job Deleted`). Upstream's success policy
// counts only the Jobs it lists (`getChildJobs`); the JobSet's controller created the deleted one
// again and did not complete. A success counted on the Job still in view would write a `Completed`
// that the deletion, once it arrives, shows the cluster never wrote (TTL history-39). The deletion
// always comes (the TTL controller's, or the JobSet's foreground deletion), and once it is folded
// the completion waits beside the view (`goneSuccesses`) and is counted by when it was deleted
// (child-jobs.ts `listedGoneSuccesses`). Until then the success policy is held: the condition waits
// for the evidence that could contradict it, as a Job jobfold runs waits on a view with a hole.

/**
 * The completed Jobs, still in the view (their deletion not folded), whose TTL ran out strictly
 * before the last finish of the Jobs counted with them, when the success policy is met only by
 * counting them (empty otherwise): the cluster's TTL controller may have deleted them by then.
 * The Jobs certainly listed are found as `listedGoneSuccesses` finds them, by their TTL's end
 * instead of their deletion (child-jobs.ts `listedAtLastFinish`, greedy, the last finish kept). A
 * TTL running out in the second of that finish comes after it (the controller reconciled the finish
 * first), as a deletion does there. Never a Job without a TTL or a finish time. The caller leaves out a
 * JobSet jobfold runs: it counts the Jobs its view lists, as upstream's controller does its own.
 */
export function awaitedTtlDeletions(spec: DefaultedJobSetSpec, successful: readonly ChildJobView[]): readonly ChildJobView[] {
  const listed = listedAtLastFinish([], successful, (job) => ttlExpiry(spec, job));
  if (listed.length === successful.length || !matchSuccessPolicy(spec, successful).met || matchSuccessPolicy(spec, listed).met) return [];
  return successful.filter((job) => !listed.includes(job));
}

/** When a completed Job's TTL runs out (epoch ms): NaN, never before a finish, for a Job gone, without a TTL or a finish time. */
export function ttlExpiry(spec: DefaultedJobSetSpec, job: ChildJobView): number {
  const ttl = spec.replicatedJobs.find((rjob) => rjob.name === job.replicatedJob)?.template.spec.ttlSecondsAfterFinished;
  return job.gone === true || job.finishedAt === undefined || ttl === undefined ? Number.NaN : parseTime(job.finishedAt) + ttl * 1000;
}
