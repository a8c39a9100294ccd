import * as z from 'zod';
import { TerminationCauseSchema } from '../job/decisions.ts';

// The detail of each Job command event, as jobfold writes it (outbound.ts builds the details
// against these types; docs/events.md and docs/schemas/ are generated from them). The
// forwarder parses the same events with its own, more tolerant schemas: it also reads the
// commands of older jobfold versions (forwarder/commands/command-message.ts).

/** What every Job command's detail names: the command and the Job it acts on. */
const jobTarget = {
  commandId: z.string(),
  clusterId: z.string(),
  namespace: z.string(),
  jobName: z.string(),
  jobUid: z.string(),
};

export const TerminationDetailSchema = z.object({
  commandId: z.string(),
  clusterId: z.string(),
  namespace: z.string(),
  podName: z.string(),
  podUid: z.string(),
  jobName: z.string(),
  jobUid: z.string(),
  reason: z.string(),
  message: z.string(),
  cause: TerminationCauseSchema,
});

export const CreationDetailSchema = z.object({
  ...jobTarget,
  index: z.number().int().nullable(),
  templateHash: z.string(),
  /** backoffLimitPerIndex: the new pod's `batch.kubernetes.io/job-index-failure-count`. */
  indexFailureCount: z.number().int().nullable(),
  /** backoffLimitPerIndex: its `batch.kubernetes.io/job-index-ignored-failure-count` (set when > 0). */
  indexIgnoredFailureCount: z.number().int().nullable(),
});

export const FinalizerRemovalDetailSchema = z.object({
  ...jobTarget,
  podName: z.string(),
  podUid: z.string(),
});

export const StatusDetailSchema = z.object({
  ...jobTarget,
  status: z.record(z.string(), z.unknown()),
});

/**
 * What a Job command's detail carries besides the command's and the Job's names. UpdateJobStatus
 * is left out: its status is a JobStatusView, an interface, where the schema says only "an object".
 */
type Fields<Schema extends z.ZodObject> = Omit<z.input<Schema>, keyof typeof jobTarget>;

export type JobCommandFields = {
  readonly TerminatePod: Fields<typeof TerminationDetailSchema>;
  readonly CreatePod: Fields<typeof CreationDetailSchema>;
  readonly RemovePodFinalizer: Fields<typeof FinalizerRemovalDetailSchema>;
};
