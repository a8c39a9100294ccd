import type { JobSetObservation } from '../../../shared/jobset/events.ts';

// The forwarder's `jobSetSeq` as a JobSet's log receives it, for the closed-loop generator
// (managed-histories.ts). The forwarder numbers the events it sends about the JobSet's Jobs, in
// the cluster's order, from 1 (one watch epoch: the loop never relists). A child status reaches
// the JobSet's log from its Job's log, carrying the counts that log folded for it
// (shared/job/child-job-status.ts: one entry per counted Job event), and a child deletion
// straight from the forwarder with its own (shared/contract/parse-inbound.ts). So each child Job
// event of the history becomes one entry with its count. Its lag through the Job's log is any
// delivery order's; when a Job's log folds a newer event of the Job first, the entry of the older
// one carries the newer status, which the JobSet's fold already holds from the newer entry (the
// older snapshot, stale by its resourceVersion, changes no view either): the fold reaches the
// same state, and the count is noted both ways.

/** Stamps each child Job event with the next count, in the order the cluster made them. */
export function childCountStamper(epoch = 1): (observation: JobSetObservation) => JobSetObservation {
  let sent = 0;
  return (observation) =>
    observation.type === 'JobObserved' || observation.type === 'JobDeleted' ? { ...observation, jobSetSeq: { epoch, counts: [++sent] } } : observation;
}
