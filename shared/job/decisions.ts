import * as z from 'zod';
import { outcomeCorrectionFields } from '../decide/outcome-correction.ts';
import { optional, TimeSchema } from '../k8s/schema-helpers.ts';
import { EvidenceSchema, PodRefSchema } from '../policies/evidence.ts';
import { FinalizerRemovalCauseSchema } from './finalizer-guard.ts';

// Decision events: what jobfold concluded, each with its evidence, written to the log by the
// reconciler so that the history can say why. Their eventIds are derived from the Job uid and
// the log position they were decided at, so two reconcilers deciding the same thing collide.

export const JobConditionSchema = z.object({
  type: z.string(),
  status: z.string(),
  reason: z.string(),
  message: z.string(),
  lastTransitionTime: TimeSchema,
});

const decided = { eventId: z.string().min(1), at: TimeSchema, seq: optional(z.number().int()) };

export const TerminationCauseSchema = z.enum([
  'JobFinishing', // a FailureTarget or SuccessCriteriaMet decision: the outcome is known
  'JobFinished', // a pod appeared after the Job finished
  'JobSuspended',
  'ExcessPods',
  'InvalidIndex',
  'DuplicateIndex',
]);
export type TerminationCause = z.infer<typeof TerminationCauseSchema>;

export const DecisionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('StartTimeSet'), ...decided, startTime: TimeSchema }),
  z.object({
    type: z.literal('JobConditionChanged'),
    ...decided,
    condition: JobConditionSchema,
    evidence: EvidenceSchema,
  }),
  z.object({
    type: z.literal('PodsTerminationRequested'),
    ...decided,
    cause: TerminationCauseSchema,
    reason: z.string(),
    message: z.string(),
    /** manageJob removes the tracking finalizer before deleting, so the pods never count. */
    finalizersRemoved: z.boolean(),
    pods: z.array(PodRefSchema),
    /**
     * A decision over many pods is logged in pages (shared/job/page-decisions.ts), so its
     * size never depends on the Job's: pages 1, 2, … continue the decision logged just before.
     */
    page: optional(z.number().int().positive()),
  }),
  /**
   * Jobs jobfold runs: pods whose deletion (one the forwarder's guard may refuse,
   * shared/job/deletion-guard.ts) was not seen within the expectations timeout. They are active
   * again in jobfold's view, as upstream's are once its deletion expectations expire, and the
   * next sync decides on them afresh (shared/job/termination-lapse.ts).
   */
  z.object({ type: z.literal('PodsTerminationExpired'), ...decided, pods: z.array(PodRefSchema) }),
  z.object({
    type: z.literal('PodCreationsRequested'),
    ...decided,
    count: z.number().int().positive(),
    indexes: optional(z.array(z.number().int().nonnegative())),
  }),
  z.object({ type: z.literal('JobStatusSent'), ...decided, hash: z.string() }),
  /**
   * Jobs jobfold does not run: evidence that arrived late shows that another criterion was met
   * first on the cluster's clock (or at the same instant, ahead in syncJob's order) than the one
   * jobfold decided on. The interim condition jobfold wrote, and the terminal one after it, are
   * taken back (`retracted`), with what finishing counted; the conditions of the criterion met
   * first (`reason`, `message`, `evidence` with its `metAt`) follow as the next entries. The
   * fields are every kind's (shared/decide/outcome-correction.ts); a Job's tells `retractedMetAt`
   * always and names no `corrects`.
   */
  z.object({ type: z.literal('JobOutcomeCorrected'), ...decided, ...outcomeCorrectionFields(EvidenceSchema) }),
  /**
   * Managed Jobs: the pods whose tracking finalizer jobfold removes. Their outcome is already
   * in the log (it plays the part of upstream's uncountedTerminatedPods), so nothing is lost
   * if jobfold or the forwarder restarts between the count and the removal.
   */
  z.object({
    type: z.literal('PodFinalizersRemovalRequested'),
    ...decided,
    pods: z.array(PodRefSchema),
    /**
     * Why each pod's finalizer goes (shared/job/finalizer-guard.ts), at the same index as in
     * `pods`; the forwarder checks the live pod by it. Absent in logs written before causes.
     */
    causes: optional(z.array(FinalizerRemovalCauseSchema)),
  }),
  z.object({
    type: z.literal('JobUpdateRefused'),
    ...decided,
    /** eventId of the Job Observed whose spec was refused. */
    refusedEventId: z.string(),
    errors: z.array(
      z.object({ field: z.string(), type: z.string(), detail: z.string(), message: z.string() }),
    ),
  }),
  /**
   * An observation the writer did not fold, logged where it would have stood so the history
   * shows it (issue 24): `ConflictingDuplicate`, an eventId the log already holds with another
   * content (the first stays; `conflict` gives both contents' SHA-256); `UidReused`, a Job
   * observation whose uid the log holds under another name. The fold takes nothing from it.
   */
  z.object({
    type: z.literal('ObservationRefused'),
    ...decided,
    refusedEventId: z.string(),
    refusedType: z.string(),
    reason: z.enum(['ConflictingDuplicate', 'UidReused']),
    message: z.string(),
    conflict: optional(z.object({ firstSeq: z.number().int().positive(), firstHash: z.string(), refusedHash: z.string() })),
  }),
  /**
   * A Job jobfold does not run, finished on evidence that met its criterion at `was`: evidence
   * that arrived after the finish met it earlier, at `metAt` (the cluster's clock). The finish's
   * instant moves back with it, and what the cluster saw only after that instant leaves the final
   * status (late-outcome.ts leaveOutUnseenPods). Logged by decide, which reads the pods' instants
   * once per sync, so that the fold does not walk every pod at each late outcome.
   */
  z.object({ type: z.literal('CriterionMetEarlier'), ...decided, metAt: TimeSchema, was: TimeSchema }),
  z.object({
    type: z.literal('JobRejected'),
    ...decided,
    errors: z.array(
      z.object({ field: z.string(), type: z.string(), detail: z.string(), message: z.string() }),
    ),
  }),
]);
export type Decision = z.infer<typeof DecisionSchema>;
export type DecisionOf<T extends Decision['type']> = Extract<Decision, { type: T }>;
