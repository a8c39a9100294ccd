import { jobStatus } from './status.ts';
import type { JobState } from './state.ts';
import { stableHash } from './stable-hash.ts';
import type { JobObserved } from './events.ts';
import type { NewEntry } from '../log/event-store.ts';
import type { Report } from '../decide/decider.ts';
import { countedEventId, MAX_CARRIED_COUNTS, type CarriedCounts } from '../k8s/sent-counts.ts';
import { sameInstant } from '../k8s/time.ts';

// Issue 21 for JobSets jobfold runs: the forwarder numbers the events it sends about a JobSet's
// Jobs (`sequence.jobSetSeq`, docs/events.md "Ordering"), so the JobSet's log can tell when it
// lacks one sent before the newest it holds and hold its decisions (shared/jobset/child-counts.ts).
// The JobSet's log learns its Jobs' statuses from their Job logs, not from those events, so each
// status entry carries the counts of the Job events its Job's log folded in the sync it is as of:
// an entry per sync that folded a counted Job event, even when the status did not change (a count
// that never reached the JobSet's log would hold it until the wait runs out). docs/ordering.md,
// "JobSets: the count", says why this route and not one straight from the forwarder.

/** The `jobSetSeq` of the Job events folded at one instant (`at`, their observedAt). */
export interface JobSetSeqRun {
  readonly at: string;
  readonly epoch: number;
  readonly counts: number[];
}

/** A Job event's `jobSetSeq`, kept with the others of its instant (evolve, after the Job observation is folded). */
export function noteJobSetSeq(state: JobState, event: JobObserved): void {
  const count = event.sequence?.jobSetSeq;
  if (event.sequence === undefined || count === undefined) return;
  const run = state.jobSetSeq;
  const epoch = event.sequence.epoch;
  if (run !== undefined && run.epoch === epoch && sameInstant(run.at, event.observedAt)) {
    if (!run.counts.includes(count)) run.counts.push(count);
  } else state.jobSetSeq = { at: event.observedAt, epoch, counts: [count] };
}

/** The counts a status reported after a sync at `now` carries: those of the Job events folded at that instant. */
function countsOfSync(state: JobState, now: string): CarriedCounts | undefined {
  const run = state.jobSetSeq;
  return run !== undefined && now !== '' && sameInstant(run.at, now) ? { epoch: run.epoch, counts: [...run.counts] } : undefined;
}

/**
 * A Job owned by a JobSet reports its status to the JobSet's log, as jobfold computed it — so
 * the JobSet's failure policy matches the reasons jobfold decided (`PodFailurePolicy_<name>`,
 * KEP-4443), whatever the cluster's own controller writes.
 */
export function childJobStatusEntry(state: JobState, now: string): Report | undefined {
  const identity = state.identity;
  const owner = identity?.owner;
  if (!identity || owner?.kind !== 'JobSet' || !state.spec) return undefined;
  const status = jobStatus(state);
  const job = {
    metadata: { name: identity.name, namespace: identity.namespace, uid: identity.uid, labels: identity.labels ?? {} },
    spec: {
      parallelism: state.spec.parallelism ?? 1,
      completions: state.spec.completions,
      suspend: state.spec.suspend ?? false,
    },
    status: {
      active: status.active,
      ready: status.ready,
      succeeded: status.succeeded,
      failed: status.failed,
      conditions: status.conditions.map(({ type, status: s, reason, message, lastTransitionTime }) => ({
        type,
        status: s,
        reason,
        message,
        lastTransitionTime,
      })),
    },
  };
  // Named by the status and its version (shared/job/child-status-version.ts): an unchanged
  // status is stored once however often the Job is reconciled, and a status that comes back
  // after another (ready 1 → 0 → 1) is a new version, stored and forwarded again. `sequence`
  // (the Job log's position) lets the JobSet fold drop a status that arrives after a newer one.
  // With the sync's counts, named by the newest too (each count is folded once, so it names the
  // sync): the same status is news again for the counts.
  const jobSetSeq = countsOfSync(state, now);
  const said = `${identity.uid}/status/${state.childStatusVersion}/${stableHash(job)}`;
  const eventId = countedEventId(said, jobSetSeq);
  // A finished Job's first counted status is news even when it repeats an uncounted one: its count
  // orders the finish against another of the same second (shared/jobset/finish-order.ts), so it
  // keeps an entry of its own; later ones ride.
  const finished = job.status.conditions.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  const says = finished && jobSetSeq !== undefined ? `${said}/counted` : said;
  const sequence = { epoch: 0, seq: Math.max(1, state.position) };
  const body = { type: 'JobObserved', at: now, eventId, sequence, job, ...(jobSetSeq === undefined ? {} : { jobSetSeq }) };
  return {
    stream: { kind: 'JobSet', clusterId: identity.clusterId, namespace: identity.namespace, uid: owner.uid },
    entry: { eventId, type: 'JobObserved', observedAt: now, body },
    says,
    ...(jobSetSeq === undefined ? {} : { rideOn: (next: NewEntry) => countsRidingOn(jobSetSeq, next) }),
  };
}

/**
 * A status that repeats the one before it is sent for its counts only (write-batch.ts): they may
 * ride on the next entry of the JobSet's batch that carries counts (fed-logs.ts), a status or a
 * deletion of any of its Jobs, when all of that entry's are later (so nothing counted stands
 * between them) and of the same epoch. Measured: most child status entries with a count repeat the
 * status (jobfold's, from the pods, changes at the pod events; docs/ordering.md, "JobSets: the count").
 */
function countsRidingOn(carried: CarriedCounts, next: NewEntry): NewEntry | 'passes' | undefined {
  const body = next.body as { jobSetSeq?: CarriedCounts } | undefined;
  const counts = body?.jobSetSeq;
  if (counts === undefined) return 'passes';
  if (counts.epoch !== carried.epoch || Math.min(...counts.counts) <= Math.max(...carried.counts)) return undefined;
  if (counts.counts.length + carried.counts.length > MAX_CARRIED_COUNTS) return undefined;
  return { ...next, body: { ...body, jobSetSeq: { epoch: counts.epoch, counts: [...carried.counts, ...counts.counts] } } };
}
