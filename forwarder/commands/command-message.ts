import * as z from 'zod';
import { CONTROL_SOURCE } from '../../shared/contract/inbound.ts';
import { OutboundDetailType } from '../../shared/contract/outbound.ts';
import { jobSetDetailSchemas, type JobSetCommand } from './jobset-command-message.ts';

/**
 * The commands a cluster's queue carries: EventBridge events (source `jobfold.control`) that a
 * rule delivered to SQS, so the message body is the event JSON. The detail shapes mirror
 * `commandEvent` (Job commands) and `jobSetCommandEvent` (the child Jobs of a JobSet) in
 * shared/contract/outbound.ts.
 */

const target = {
  commandId: z.string().min(1),
  clusterId: z.string().min(1),
  namespace: z.string().min(1),
  jobName: z.string().min(1),
  jobUid: z.string().min(1),
};

export const TerminatePodDetailSchema = z.object({
  ...target,
  podName: z.string().min(1),
  podUid: z.string().min(1),
  reason: z.string(),
  message: z.string(),
  cause: z.string(),
});

export const CreatePodDetailSchema = z.object({
  ...target,
  index: z.number().int().min(0).nullable(),
  templateHash: z.string().min(1),
  // backoffLimitPerIndex only; absent from commands of older jobfold versions.
  indexFailureCount: z.number().int().min(0).nullish(),
  indexIgnoredFailureCount: z.number().int().min(0).nullish(),
});

export const RemovePodFinalizerDetailSchema = z.object({
  ...target,
  podName: z.string().min(1),
  podUid: z.string().min(1),
});

/** The status jobfold computed (JobStatusView); written as given, so only its shape is checked. */
export const UpdateJobStatusDetailSchema = z.object({
  ...target,
  status: z.looseObject({
    conditions: z.array(z.looseObject({ type: z.string(), status: z.string() })),
    active: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
  }),
});

export type Command =
  | ({ readonly type: 'TerminatePod' } & z.infer<typeof TerminatePodDetailSchema>)
  | ({ readonly type: 'CreatePod' } & z.infer<typeof CreatePodDetailSchema>)
  | ({ readonly type: 'UpdateJobStatus' } & z.infer<typeof UpdateJobStatusDetailSchema>)
  | ({ readonly type: 'RemovePodFinalizer' } & z.infer<typeof RemovePodFinalizerDetailSchema>)
  | JobSetCommand;

/** Why a message can never be applied; sent to the DLQ as the `reason` attribute. */
export type PoisonReason =
  | 'unparseable-body'
  | 'unexpected-source'
  | 'unknown-detail-type'
  | 'invalid-detail'
  | 'wrong-cluster'
  | 'job-not-managed'
  | 'pod-not-owned-by-job'
  | 'outside-watched-namespace'
  | 'rejected-by-api-server';

export type ParsedMessage =
  | { readonly kind: 'command'; readonly command: Command }
  | { readonly kind: 'ignored'; readonly detailType: string }
  | { readonly kind: 'poison'; readonly reason: PoisonReason; readonly message: string; readonly detailType?: string };

const EnvelopeSchema = z.object({ source: z.string(), 'detail-type': z.string(), detail: z.unknown() });

const detailSchemas = {
  [OutboundDetailType.TerminatePod]: { type: 'TerminatePod', schema: TerminatePodDetailSchema },
  [OutboundDetailType.CreatePod]: { type: 'CreatePod', schema: CreatePodDetailSchema },
  [OutboundDetailType.UpdateJobStatus]: { type: 'UpdateJobStatus', schema: UpdateJobStatusDetailSchema },
  [OutboundDetailType.RemovePodFinalizer]: { type: 'RemovePodFinalizer', schema: RemovePodFinalizerDetailSchema },
  ...jobSetDetailSchemas,
} as const;

/** Events on the control bus that are not commands (a rule may route them here too). */
const NOT_COMMANDS: ReadonlySet<string> = new Set([
  OutboundDetailType.JobConditionChanged,
  OutboundDetailType.JobSetConditionChanged,
]);

/** Parses one SQS message body. Never throws; anything unusable is poison, with its reason. */
export function parseCommandMessage(body: string | undefined, clusterId: string): ParsedMessage {
  let json: unknown;
  try {
    json = JSON.parse(body ?? '');
  } catch {
    return { kind: 'poison', reason: 'unparseable-body', message: 'the body is not JSON' };
  }
  const envelope = EnvelopeSchema.safeParse(json);
  if (!envelope.success) return { kind: 'poison', reason: 'unparseable-body', message: 'the body is not an EventBridge event' };
  const { source, 'detail-type': detailType, detail } = envelope.data;
  if (source !== CONTROL_SOURCE) return { kind: 'poison', reason: 'unexpected-source', message: `source "${source}"`, detailType };
  if (NOT_COMMANDS.has(detailType)) return { kind: 'ignored', detailType };
  if (!(detailType in detailSchemas)) return { kind: 'poison', reason: 'unknown-detail-type', message: `detail-type "${detailType}"`, detailType };
  const { type, schema } = detailSchemas[detailType as keyof typeof detailSchemas];
  const parsed = schema.safeParse(detail);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `detail.${i.path.join('.')}: ${i.message}`);
    return { kind: 'poison', reason: 'invalid-detail', message: issues.join('; '), detailType };
  }
  if (parsed.data.clusterId !== clusterId) {
    return { kind: 'poison', reason: 'wrong-cluster', message: `for cluster "${parsed.data.clusterId}", this is "${clusterId}"`, detailType };
  }
  return { kind: 'command', command: { type, ...parsed.data } as Command };
}
