import type { ObjectSequence } from '../k8s/object-sequence.ts';
import { EXPECTATIONS_TIMEOUT_MS, JOBFOLD_CONTROLLER_NAME } from '../k8s/job-controller.ts';
import { addSentCount, type SentCounts } from '../k8s/sent-counts.ts';
import type { JobState } from './state.ts';
import { wakeAt, type Sync } from './sync.ts';

// Issue 21, "no harmful command from a transient view": the Job's own observations. Upstream's
// controller reads a Job's spec and its pods from informers fed by the API server's watches: what
// it decides on, the Job's suspension or resumption, its new parallelism, was shown by the cluster
// before any pod event it reads that the cluster showed later. EventBridge gives no such order
// between a Job's events and its pods': a resumption can still be on its way while the pod events
// the cluster showed after it have arrived, and a Job jobfold runs would meet its deadline counted
// from a start the resumption resets (resumption-start.ts), terminating its running pods, or
// create pods for a parallelism the cluster had scaled down. The forwarder numbers the events it
// sends of each Job within its Job epoch (`sequence.jobEvents` on a Job event), and stamps every pod
// event with that count as it stood when the pod event was sent (`sequence.jobEvents`,
// `sequence.jobEpoch`; docs/events.md "Ordering"). So the log can tell when it lacks a Job
// event sent before a pod event it holds (or before a Job event it holds). While it does, a Job
// jobfold runs neither creates nor deletes pods nor decides a new outcome, as for a missing pod
// event (pod-view-gap.ts): until the Job event arrives, and after EXPECTATIONS_TIMEOUT_MS at the
// latest (an event refused at the door, or lost, never wedges the Job). A Job the cluster's
// controller runs only computes: it does not wait.

/** What the log holds of the forwarder's count of the Job's own events in its newest Job epoch. */
export interface JobEventCounts extends SentCounts {
  /** The highest count of `epoch` a pod event in the log names (0: none): Job events sent before it. */
  named: number;
}

/** A Job event with its own count (evolve's JobObserved, one place). */
export function noteJobEventCount(state: JobState, sequence: ObjectSequence | undefined, at: number): void {
  if (sequence?.jobEvents === undefined) return;
  state.jobCounts = noted(state.jobCounts, sequence.epoch, sequence.jobEvents, at, 'held');
}

/** A pod event naming the count of its Job's events sent before it (evolve's pod observations). */
export function noteJobEventsNamed(state: JobState, sequence: ObjectSequence | undefined, at: number): void {
  if (sequence?.jobEvents === undefined || sequence.jobEpoch === undefined) return;
  state.jobCounts = noted(state.jobCounts, sequence.jobEpoch, sequence.jobEvents, at, 'named');
}

function noted(held: JobEventCounts | undefined, epoch: number, count: number, at: number, how: 'held' | 'named'): JobEventCounts {
  let counts = held;
  // A newer Job epoch: the forwarder listed the Jobs again, and counts them again from 1.
  if (counts === undefined || epoch > counts.epoch) counts = { epoch, through: 0, ahead: [], missingSince: undefined, named: 0 };
  if (epoch < counts.epoch) return counts;
  // Missing for longer than upstream waits on an expectation: lost, not late. Given up on.
  if (counts.missingSince !== undefined && at - counts.missingSince > EXPECTATIONS_TIMEOUT_MS) {
    counts.through = newest(counts);
    counts.ahead = [];
    counts.missingSince = undefined;
  }
  if (how === 'named') counts.named = Math.max(counts.named, count);
  else if (count > counts.through) addSentCount(counts, count);
  if (missingCount(counts) === 0) counts.missingSince = undefined;
  else counts.missingSince ??= at;
  return counts;
}

/** The newest count the log knows was sent: held, or named by a pod event. */
const newest = (counts: JobEventCounts): number => Math.max(counts.named, counts.through, counts.ahead.at(-1)?.[1] ?? 0);

function missingCount(counts: JobEventCounts): number {
  let held = counts.through;
  for (const [from, to] of counts.ahead) held += to - from + 1;
  return newest(counts) - held;
}

/**
 * Whether the log lacks this Job event's count: then it is logged even when it is older than
 * the Job observation the fold holds (a late one), or the count would stay missing.
 */
export function jobCountUnlogged(state: JobState, sequence: ObjectSequence | undefined): boolean {
  const count = sequence?.jobEvents;
  if (sequence === undefined || count === undefined) return false;
  const counts = state.jobCounts;
  if (counts === undefined || sequence.epoch > counts.epoch) return true;
  if (sequence.epoch < counts.epoch || count <= counts.through) return false;
  return !counts.ahead.some(([from, to]) => count >= from && count <= to);
}

/** Job events sent before the newest the log knows of and not in it yet, and since when (undefined: none). */
export function missingJobEvents(state: JobState): { readonly count: number; readonly since: number } | undefined {
  const counts = state.jobCounts;
  if (counts === undefined || counts.missingSince === undefined) return undefined;
  const count = missingCount(counts);
  return count > 0 ? { count, since: counts.missingSince } : undefined;
}

/**
 * decide's question for a Job jobfold runs: true while it must not act (create or delete pods,
 * decide a new outcome) because its view lacks a Job event the forwarder sent before an event it
 * holds; the Job is woken when the wait runs out. A Job the cluster's controller runs never waits.
 */
export function waitForMissingJobEvents(sync: Sync): boolean {
  if (sync.state.settings?.managedBy !== JOBFOLD_CONTROLLER_NAME) return false;
  const missing = missingJobEvents(sync.state);
  if (missing === undefined) return false;
  const until = missing.since + EXPECTATIONS_TIMEOUT_MS;
  if (sync.now > until) return false;
  wakeAt(sync, until + 1);
  return true;
}
