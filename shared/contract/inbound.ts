import * as z from 'zod';
import { JobSchema } from '../k8s/job.ts';
import { JobSetSchema } from '../jobset/schemas.ts';
import { PodSchema } from '../k8s/pod.ts';
import { TimeSchema } from '../k8s/schema-helpers.ts';
import { ObjectMetaSchema } from '../k8s/meta.ts';
import { JobSequenceSchema, ObjectSequenceSchema, PodSequenceSchema } from '../k8s/object-sequence.ts';
import { ClusterIdSchema } from '../job/events.ts';
import { utf8Bytes } from '../k8s/bounded-text.ts';
import { MAX_ID_BYTES } from '../log/event-store-limits.ts';

/**
 * The inbound event contract: what a cluster's forwarder puts on the bus (docs/events.md).
 *
 * - `source` is `jobfold.cluster.<clusterId>`. The cluster id is taken from the source, which
 *   IAM restricts per cluster (condition `events:source`), never from the payload.
 * - `detail-type` says what happened; `detail` is `{ eventId, observedAt, object }` where
 *   `object` is the Kubernetes object trimmed to what the fold reads, and `eventId` is stable
 *   across the forwarder's retries (uid + resourceVersion).
 */

export const CLUSTER_SOURCE_PREFIX = 'jobfold.cluster.';
export const CONTROL_SOURCE = 'jobfold.control';

export const InboundDetailType = {
  PodObserved: 'Pod Observed',
  PodDeleted: 'Pod Deleted',
  JobObserved: 'Job Observed',
  JobDeleted: 'Job Deleted',
} as const;
export type InboundDetailType = (typeof InboundDetailType)[keyof typeof InboundDetailType];

export const ClusterSourceSchema = z
  .string()
  .refine((s) => s.startsWith(CLUSTER_SOURCE_PREFIX), `must be "${CLUSTER_SOURCE_PREFIX}<clusterId>"`)
  .transform((s) => s.slice(CLUSTER_SOURCE_PREFIX.length))
  .pipe(ClusterIdSchema);

/**
 * An eventId is part of the store's idempotency key: at most MAX_ID_BYTES UTF-8 bytes (zod's
 * max counts UTF-16 units, DynamoDB counts bytes).
 */
export const EventIdSchema = z
  .string()
  .min(1)
  .max(256)
  .refine((id) => utf8Bytes(id) <= MAX_ID_BYTES, `must be at most ${MAX_ID_BYTES} bytes of UTF-8`);

/**
 * Optional: the ingest stream's partition key, the uid of the Job (or JobSet) the event belongs
 * to; the bus rule's Kinesis target reads it (`$.detail.partitionKey`). At most 256 characters,
 * Kinesis's limit. Routing never reads it: a wrong key costs ordering, never a wrong log.
 */
export const PartitionKeySchema = z.string().min(1).max(256);

const detail = <T extends z.ZodType>(object: T, sequence: typeof ObjectSequenceSchema | typeof PodSequenceSchema | typeof JobSequenceSchema = ObjectSequenceSchema) =>
  z.object({
    eventId: EventIdSchema,
    observedAt: TimeSchema,
    object,
    /** Optional: the forwarder's per-object order stamp (docs/events.md, "Ordering"); a pod's carries `jobSeq` too, a JobSet's child Job's `jobSetSeq`. */
    sequence: sequence.optional(),
    partitionKey: PartitionKeySchema.optional(),
  });

/** The last known object of something deleted: only its identity (and owner) is read. */
const DeletedObjectSchema = z.object({
  metadata: ObjectMetaSchema.pick({ name: true, namespace: true, labels: true, ownerReferences: true }).extend({
    uid: z.string().min(1).max(128),
  }),
});

export const PodObservedDetailSchema = detail(PodSchema, PodSequenceSchema);
export const PodDeletedDetailSchema = detail(DeletedObjectSchema.extend({ kind: z.literal('Pod').optional() }), PodSequenceSchema);
export const JobObservedDetailSchema = detail(JobSchema, JobSequenceSchema);
export const JobDeletedDetailSchema = detail(DeletedObjectSchema.extend({ kind: z.literal('Job').optional() }), JobSequenceSchema);

export const inboundDetailSchemas = {
  [InboundDetailType.PodObserved]: PodObservedDetailSchema,
  [InboundDetailType.PodDeleted]: PodDeletedDetailSchema,
  [InboundDetailType.JobObserved]: JobObservedDetailSchema,
  [InboundDetailType.JobDeleted]: JobDeletedDetailSchema,
} as const;

/** JobSet events: `JobSet Observed` and `JobSet Deleted`, same envelope as Job events, for the JobSet's log. */
export const JobSetDetailType = { JobSetObserved: 'JobSet Observed', JobSetDeleted: 'JobSet Deleted' } as const;
export type JobSetDetailType = (typeof JobSetDetailType)[keyof typeof JobSetDetailType];

// Written before the `detail` helper, and kept as they were: a JobSet's deletion carries no order
// stamp, and only its identity is read (no labels, no owner).
const JobSetObservedDetailSchema = z.object({
  eventId: EventIdSchema,
  observedAt: TimeSchema,
  partitionKey: PartitionKeySchema.optional(),
  object: JobSetSchema,
  /** Optional: the forwarder's per-object order stamp (docs/events.md, "Ordering"). */
  sequence: ObjectSequenceSchema.optional(),
});
const JobSetDeletedDetailSchema = z.object({
  eventId: EventIdSchema,
  observedAt: TimeSchema,
  partitionKey: PartitionKeySchema.optional(),
  object: z.object({ metadata: ObjectMetaSchema.pick({ name: true, namespace: true }).extend({ uid: z.string().min(1).max(128) }) }),
});

export const jobSetDetailSchemas = {
  [JobSetDetailType.JobSetObserved]: JobSetObservedDetailSchema,
  [JobSetDetailType.JobSetDeleted]: JobSetDeletedDetailSchema,
} as const;

export const isJobSetDetailType = (detailType: unknown): detailType is JobSetDetailType =>
  detailType === JobSetDetailType.JobSetObserved || detailType === JobSetDetailType.JobSetDeleted;

/** An EventBridge event as a rule delivers it to a target (the fields jobfold reads). */
export const InboundEventSchema = z.object({
  id: z.string().optional(),
  'detail-type': z.string(),
  source: z.string(),
  account: z.string().optional(),
  time: z.string().optional(),
  region: z.string().optional(),
  detail: z.unknown(),
});
export type InboundEvent = z.infer<typeof InboundEventSchema>;
