import * as z from 'zod';
import { JobSetSchema } from '../jobset/schemas.ts';
import { ObjectSequenceSchema } from '../k8s/object-sequence.ts';
import { TimeSchema } from '../k8s/schema-helpers.ts';
import { ObjectMetaSchema } from '../k8s/meta.ts';
import type { NewEntry } from '../log/event-store.ts';
import { ClusterSourceSchema, EventIdSchema, PartitionKeySchema } from './inbound.ts';
import { refuseInvalidMetadata, type InboundError } from './parse-inbound.ts';
import type { StreamKey } from './routing.ts';

/** JobSet events: `JobSet Observed` and `JobSet Deleted`, same envelope as Job events. */
export const JobSetDetailType = { JobSetObserved: 'JobSet Observed', JobSetDeleted: 'JobSet Deleted' } as const;

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

export const isJobSetDetailType = (detailType: unknown): boolean =>
  detailType === JobSetDetailType.JobSetObserved || detailType === JobSetDetailType.JobSetDeleted;

export type JobSetInboundResult =
  | { readonly ok: true; readonly stream: StreamKey; readonly entry: NewEntry }
  | { readonly ok: false; readonly errors: readonly InboundError[] };

/**
 * Parses a `JobSet Observed` / `JobSet Deleted` event into an entry of the JobSet's log (the
 * JobSet fold's observation shape, shared/jobset/events.ts). The cluster comes from `source`.
 */
export function parseJobSetInbound(event: { source: string; 'detail-type': string; detail: unknown }): JobSetInboundResult {
  const source = ClusterSourceSchema.safeParse(event.source);
  if (!source.success) return { ok: false, errors: [{ path: 'source', message: source.error.issues[0]?.message ?? 'invalid' }] };
  const clusterId = source.data;
  if (event['detail-type'] === JobSetDetailType.JobSetObserved) {
    const parsed = JobSetObservedDetailSchema.safeParse(event.detail);
    if (!parsed.success) return fail(parsed.error);
    const { eventId, observedAt, object: jobSet, sequence } = parsed.data;
    if (!jobSet.metadata.uid) return { ok: false, errors: [{ path: 'detail.object.metadata.uid', message: 'a JobSet must carry its uid' }] };
    const badMeta = refuseInvalidMetadata(jobSet.metadata);
    if (badMeta) return badMeta;
    return {
      ok: true,
      stream: { kind: 'JobSet', clusterId, namespace: jobSet.metadata.namespace ?? 'default', uid: jobSet.metadata.uid },
      entry: { eventId, type: 'JobSetObserved', observedAt, body: { type: 'JobSetObserved', at: observedAt, eventId, jobSet, ...(sequence ? { sequence } : {}) } },
    };
  }
  const parsed = JobSetDeletedDetailSchema.safeParse(event.detail);
  if (!parsed.success) return fail(parsed.error);
  const { eventId, observedAt, object } = parsed.data;
  const badMeta = refuseInvalidMetadata(object.metadata);
  if (badMeta) return badMeta;
  return {
    ok: true,
    stream: { kind: 'JobSet', clusterId, namespace: object.metadata.namespace ?? 'default', uid: object.metadata.uid },
    entry: { eventId, type: 'JobSetDeleted', observedAt, body: { type: 'JobSetDeleted', at: observedAt, eventId } },
  };
}

const ChildJobDeletedSchema = z.object({
  eventId: z.string().min(1),
  observedAt: TimeSchema,
  object: z.object({ metadata: ObjectMetaSchema.pick({ name: true, namespace: true, uid: true, ownerReferences: true }) }),
});

/**
 * A child Job that left the cluster is also news for its JobSet: given a valid `Job Deleted`
 * event of a Job owned by a JobSet, the entry for the JobSet's log (`JobDeleted`). Child Job
 * *statuses* reach the JobSet from jobfold's own Job decisions (shared/job/child-job-status.ts),
 * so that the JobSet sees KEP-4443 reasons.
 */
export function childJobDeletion(clusterId: string, detail: unknown): { stream: StreamKey; entry: NewEntry } | undefined {
  const parsed = ChildJobDeletedSchema.safeParse(detail);
  if (!parsed.success) return undefined;
  const { eventId, observedAt, object } = parsed.data;
  const owner = object.metadata.ownerReferences?.find((r) => r.kind === 'JobSet');
  if (!owner) return undefined;
  const id = `${eventId}/jobset`;
  return {
    stream: { kind: 'JobSet', clusterId, namespace: object.metadata.namespace ?? 'default', uid: owner.uid },
    entry: { eventId: id, type: 'JobDeleted', observedAt, body: { type: 'JobDeleted', at: observedAt, eventId: id, name: object.metadata.name, uid: object.metadata.uid } },
  };
}

function fail(error: z.ZodError): JobSetInboundResult {
  return {
    ok: false,
    errors: error.issues.slice(0, 20).map((issue) => ({
      path: ['detail', ...issue.path.map(String)].join('.'),
      message: issue.message,
    })),
  };
}
