import * as z from 'zod';
import { JobSchema } from '../k8s/job.ts';
import { PodSchema } from '../k8s/pod.ts';
import { JobSequenceSchema, ObjectSequenceSchema, PodSequenceSchema } from '../k8s/object-sequence.ts';
import { optional, TimeSchema } from '../k8s/schema-helpers.ts';

// The per-Job log holds two kinds of events: observations (what a cluster reported) and
// decisions (what jobfold concluded). `evolve` folds both; `decide` only ever emits decisions.

/** Cluster ids appear in EventBridge sources and DynamoDB keys: keep them plain. */
export const ClusterIdSchema = z
  .string()
  .regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, 'must be a DNS label (lowercase letters, digits, "-")');

const envelope = {
  /** Stable across retries (the forwarder uses uid + resourceVersion); duplicates are dropped. */
  eventId: z.string().min(1).max(256),
  clusterId: ClusterIdSchema,
  observedAt: TimeSchema,
  /**
   * When the platform received it (Kinesis arrival; the writer sets it, never a producer): the
   * clock an observedAt is checked against (cluster-clock.ts). Absent outside the service.
   */
  arrivedAt: optional(TimeSchema),
  /** Log position, set when the event is read back from the log. */
  seq: optional(z.number().int().nonnegative()),
};

/** The forwarder's order stamp of this observation among the object's others, when it sent one. */
const sequence = { sequence: optional(ObjectSequenceSchema) };
const podSequence = { sequence: optional(PodSequenceSchema) };

export const PodObservedSchema = z.object({
  type: z.literal('PodObserved'),
  ...envelope,
  ...podSequence,
  pod: PodSchema,
  /**
   * Set by routing (shared/contract/routing.ts `creatorJobUid`), never by a producer: the pod is
   * controlled by this other Job, and this log is the Job that created it (its
   * `batch.kubernetes.io/controller-uid` label), told so that it stops counting and waiting on it.
   */
  controlledBy: optional(z.string().min(1).max(128)),
});
export const PodDeletedSchema = z.object({
  type: z.literal('PodDeleted'),
  ...envelope,
  ...podSequence,
  uid: z.string().min(1).max(128),
  name: optional(z.string().max(253)),
  namespace: optional(z.string().max(63)),
});
// A JobSet's child Job's stamp carries `jobSetSeq`, which its status report passes on (child-job-status.ts).
export const JobObservedSchema = z.object({ type: z.literal('JobObserved'), ...envelope, sequence: optional(JobSequenceSchema), job: JobSchema });
export const JobDeletedSchema = z.object({
  type: z.literal('JobDeleted'),
  ...envelope,
  uid: z.string().min(1).max(128),
});
/** The clock: lets deadlines and backoff expire when nothing else happens. */
export const TickSchema = z.object({ type: z.literal('Tick'), ...envelope });

export const ObservationSchema = z.discriminatedUnion('type', [
  PodObservedSchema,
  PodDeletedSchema,
  JobObservedSchema,
  JobDeletedSchema,
  TickSchema,
]);
export type PodObserved = z.infer<typeof PodObservedSchema>;
export type PodDeleted = z.infer<typeof PodDeletedSchema>;
export type JobObserved = z.infer<typeof JobObservedSchema>;
export type JobDeleted = z.infer<typeof JobDeletedSchema>;
export type Tick = z.infer<typeof TickSchema>;
export type Observation = z.infer<typeof ObservationSchema>;
