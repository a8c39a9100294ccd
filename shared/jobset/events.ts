import * as z from 'zod';
import type { NewEntry } from '../log/event-store.ts';
import { ObjectSequenceSchema } from '../k8s/object-sequence.ts';
import { CarriedCountsSchema } from '../k8s/sent-counts.ts';
import { optional, TimeSchema } from '../k8s/schema-helpers.ts';
import type { JobSetDecisionEvent } from './decision-events.ts';
import { ChildJobSchema, JobSetSchema } from './schemas.ts';

// The JobSet log holds two kinds of events: observations (what a cluster reported, here) and
// decisions (what decide() concluded, ./decision-events.ts). evolve folds both, so replaying
// the log reproduces the state. Observations are parsed with these schemas at the boundary;
// decisions are written by decide() and trusted.

const envelope = {
  /** RFC 3339 time of the observation. */
  at: TimeSchema,
  /** Stable across retries, for deduplication upstream of the fold. */
  eventId: optional(z.string()),
};

/**
 * The JobSet object as a cluster reports it (created, or its spec changed). Ordered among the
 * JobSet's other observations by its resourceVersion, else by the forwarder's stamp.
 */
export const JobSetObservedSchema = z.object({
  type: z.literal('JobSetObserved'),
  ...envelope,
  /** The forwarder's order stamp (docs/events.md, "Ordering"), for clusters whose versions are not comparable. */
  sequence: optional(ObjectSequenceSchema),
  jobSet: JobSetSchema,
});

export const JobSetDeletedSchema = z.object({ type: z.literal('JobSetDeleted'), ...envelope });

/** A full snapshot of one child Job; it replaces the previous snapshot of that Job. */
export const JobObservedSchema = z.object({
  type: z.literal('JobObserved'),
  ...envelope,
  /**
   * The snapshot's place among the Job's snapshots (its Job log position); a stale one is dropped.
   * A snapshot with a comparable resourceVersion is ordered by it first (KEP-5504).
   */
  sequence: optional(ObjectSequenceSchema),
  job: ChildJobSchema,
  /** The forwarder's `jobSetSeq` of the Job events its Job's log folded for this status (child-counts.ts). */
  jobSetSeq: optional(CarriedCountsSchema),
});

/** The child Job no longer exists (its foreground deletion finished). */
export const JobDeletedSchema = z.object({
  type: z.literal('JobDeleted'),
  ...envelope,
  name: z.string().min(1),
  /** The deleted Job's uid: a snapshot of it arriving later does not bring it back. */
  uid: optional(z.string()),
  /** The forwarder's `jobSetSeq` of the deletion (child-counts.ts). */
  jobSetSeq: optional(CarriedCountsSchema),
});

/**
 * A timer fired (the JobSet's ttlSecondsAfterFinished running out): time passed, nothing else.
 * Like a Job's Tick, it is a log position the JobSet is reconciled at.
 */
export const JobSetTickSchema = z.object({ type: z.literal('Tick'), ...envelope });

export const JobSetObservationSchema = z.discriminatedUnion('type', [
  JobSetObservedSchema,
  JobSetDeletedSchema,
  JobObservedSchema,
  JobDeletedSchema,
  JobSetTickSchema,
]);
export type JobSetObservation = z.infer<typeof JobSetObservationSchema>;

/** The entry of a JobSet's log that holds an observation (the ingest parser's and the decider's). */
export function jobSetObservationEntry(observation: JobSetObservation & { readonly eventId: string; readonly seq?: number }): NewEntry {
  const { seq: _seq, ...body } = observation;
  return { eventId: observation.eventId, type: observation.type, observedAt: observation.at, body };
}
export type JobSetObserved = z.infer<typeof JobSetObservedSchema>;
export type JobObserved = z.infer<typeof JobObservedSchema>;
export type JobDeleted = z.infer<typeof JobDeletedSchema>;
export type JobSetTick = z.infer<typeof JobSetTickSchema>;

export type JobSetEvent = JobSetObservation | JobSetDecisionEvent;
