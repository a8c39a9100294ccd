import { z } from 'zod';
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

/** The JobSet object as a cluster reports it (created, or its spec changed). */
export const JobSetObservedSchema = z.object({
  type: z.literal('JobSetObserved'),
  ...envelope,
  jobSet: JobSetSchema,
});

export const JobSetDeletedSchema = z.object({ type: z.literal('JobSetDeleted'), ...envelope });

/** A full snapshot of one child Job; it replaces the previous snapshot of that Job. */
export const JobObservedSchema = z.object({
  type: z.literal('JobObserved'),
  ...envelope,
  job: ChildJobSchema,
});

/** The child Job no longer exists (its foreground deletion finished). */
export const JobDeletedSchema = z.object({
  type: z.literal('JobDeleted'),
  ...envelope,
  name: z.string().min(1),
});

export const JobSetObservationSchema = z.discriminatedUnion('type', [
  JobSetObservedSchema,
  JobSetDeletedSchema,
  JobObservedSchema,
  JobDeletedSchema,
]);
export type JobSetObservation = z.infer<typeof JobSetObservationSchema>;
export type JobSetObserved = z.infer<typeof JobSetObservedSchema>;
export type JobObserved = z.infer<typeof JobObservedSchema>;

export type JobSetEvent = JobSetObservation | JobSetDecisionEvent;
