import * as z from 'zod';
import { CONTROL_SOURCE } from '../../shared/contract/inbound.ts';
import { OutboundDetailType } from '../../shared/contract/outbound.ts';
import {
  commandDetailSchemas, CreationDetailSchema, FinalizerRemovalDetailSchema, jobCommandDetailSchemas, jobSetCommandDetailSchemas, TerminationDetailSchema,
} from '../../shared/contract/command-details.ts';

/**
 * The commands a cluster's queue carries: EventBridge events (source `jobfold.control`) that a
 * rule delivered to SQS, so the message body is the event JSON. Each detail is parsed with the
 * schema jobfold builds it against (shared/contract/command-details.ts), but for what older or
 * newer jobfold versions write, which a forwarder must still apply:
 * - `Pod Creation Requested` without `indexFailureCount`/`indexIgnoredFailureCount` (before
 *   df9c7c6: no backoffLimitPerIndex counts);
 * - a `Pod Termination Requested` whose `cause` this forwarder does not know (the forwarder
 *   deletes the pod whatever the cause; a newer jobfold may name a new one);
 * - a `Pod Finalizer Removal Requested` without `cause` (before causes: FOLD .67), or with one
 *   this forwarder does not know: the finalizer goes only from a pod that ended or is being
 *   deleted (shared/job/finalizer-guard.ts).
 */
const readSchemas = {
  ...jobCommandDetailSchemas,
  TerminatePod: TerminationDetailSchema.extend({ cause: z.string() }),
  RemovePodFinalizer: FinalizerRemovalDetailSchema.extend({ cause: z.string().optional() }),
  CreatePod: CreationDetailSchema.partial({ indexFailureCount: true, indexIgnoredFailureCount: true }),
  ...jobSetCommandDetailSchemas,
} as const satisfies Record<keyof typeof commandDetailSchemas, z.ZodObject>;

type ReadSchemas = typeof readSchemas;
type CommandOf<Type extends keyof ReadSchemas> = { readonly type: Type } & z.output<ReadSchemas[Type]>;
export type Command = { [Type in keyof ReadSchemas]: CommandOf<Type> }[keyof ReadSchemas];
export type JobSetCommand = Extract<Command, { type: keyof typeof jobSetCommandDetailSchemas }>;

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

/** The command type and detail schema of each command's detail-type. */
const detailSchemas: ReadonlyMap<string, { readonly type: Command['type']; readonly schema: z.ZodObject }> = new Map(
  (Object.keys(readSchemas) as Array<Command['type']>).map((type) => [OutboundDetailType[type], { type, schema: readSchemas[type] }]),
);

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
  const read = detailSchemas.get(detailType);
  if (read === undefined) return { kind: 'poison', reason: 'unknown-detail-type', message: `detail-type "${detailType}"`, detailType };
  const { type, schema } = read;
  const parsed = schema.safeParse(detail) as z.ZodSafeParseResult<{ readonly clusterId: string }>;
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `detail.${i.path.join('.')}: ${i.message}`);
    return { kind: 'poison', reason: 'invalid-detail', message: issues.join('; '), detailType };
  }
  if (parsed.data.clusterId !== clusterId) {
    return { kind: 'poison', reason: 'wrong-cluster', message: `for cluster "${parsed.data.clusterId}", this is "${clusterId}"`, detailType };
  }
  return { kind: 'command', command: { type, ...parsed.data } as Command };
}
