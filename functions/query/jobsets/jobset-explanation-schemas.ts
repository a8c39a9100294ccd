import * as z from 'zod';
import { JOBSET_DECISION_TYPES } from '../../../shared/jobset/index.ts';
import { ConditionViewSchema, ObjectIdentitySchema, TimeViewSchema } from '../schemas/common-schemas.ts';
import { explanationSchema } from '../schemas/explanation-schemas.ts';
import { apiSchemas } from '../schemas/registry.ts';

// `explainJobSet` (shared/jobset/explain.ts) as the explain route serves it (the shape every
// kind shares, with the JobSet's fields), and the JobSet fold's decisions
// (shared/jobset/decision-events.ts, interfaces there) as the log holds them.

const count = z.number().int().min(0);
const seq = z.number().int().min(1);

const ConditionUpdateSchema = z
  .strictObject({ type: z.string(), status: z.enum(['True', 'False']), reason: z.string(), message: z.string() })
  .register(apiSchemas, { id: 'JobSetConditionUpdate', description: 'The condition a decision wrote (its time is the decision\'s `at`).' });

const RuleEvidenceSchema = z
  .strictObject({ index: count, name: z.string(), action: z.string() })
  .register(apiSchemas, { id: 'JobSetRuleEvidence', description: 'The failure policy rule applied: its position in `failurePolicy.rules`, its name and action.' });

const FailedJobEvidenceSchema = z
  .strictObject({
    name: z.string(),
    replicatedJob: z.string().optional(),
    reason: z.string().meta({ description: "The child Job's Failed reason, e.g. PodFailurePolicy_ExitCode3." }),
    message: z.string(),
    failedAt: TimeViewSchema.optional(),
    observedAt: seq.meta({ description: 'Log position of the observation that reported the failure.' }),
  })
  .register(apiSchemas, { id: 'JobSetFailedJobEvidence', description: 'The child Job whose failure the decision acted on.' });

const tippedBy = seq.meta({ description: 'Log position of the observation that tipped the decision.' });
const decided = { at: TimeViewSchema };

export const JobSetDecisionSchema = z
  .discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('JobSetConditionChanged'),
      ...decided,
      condition: ConditionUpdateSchema,
      since: TimeViewSchema.optional().meta({ description: 'A condition the cluster wrote at this earlier time, on evidence that reached the log late: placed before the conditions written after it.' }),
      movedBefore: z.string().optional().meta({ description: 'The condition, unchanged, moved to just before the condition of this type: the cluster wrote it first, as evidence that reached the log late says (an InOrder walk begun on a JobSet older than the suspension placed first).' }),
      retracted: z
        .strictObject({
          deletedJobs: z.array(z.strictObject({ name: z.string(), uid: z.string().optional(), startedAt: TimeViewSchema, deletedAt: TimeViewSchema })),
        })
        .optional()
        .meta({ description: "The condition, as it stood, taken out: the cluster never wrote it, as evidence that reached the log late shows (an InOrder walk's StartupPolicyCompleted, where the deletion of a Job that completed the walk in the fold's view came before the walk could complete). The child Jobs shown started, then deleted, that show it." }),
      tippedBy,
    }),
    z.strictObject({
      type: z.literal('JobSetRestarted'),
      ...decided,
      action: z.enum(['RestartJobSet', 'RestartJobSetAndIgnoreMaxRestarts']),
      rule: RuleEvidenceSchema.nullable().meta({ description: 'null: no rule matched and the default action applied.' }),
      failedJob: FailedJobEvidenceSchema,
      restarts: count,
      restartsCountTowardsMax: count,
      condition: ConditionUpdateSchema,
      tippedBy,
      corrects: seq.optional().meta({ description: 'Logs written before JobSetOutcomeCorrected (JOBSET_FOLD_VERSION .10): log position of the restart this one corrects (same attempt and counters).' }),
    }),
    z.strictObject({
      type: z.literal('JobSetFailed'),
      ...decided,
      rule: RuleEvidenceSchema.nullable(),
      failedJob: FailedJobEvidenceSchema,
      condition: ConditionUpdateSchema,
      tippedBy,
      corrects: seq.optional().meta({ description: 'Logs written before JobSetOutcomeCorrected (JOBSET_FOLD_VERSION .10): log position of the JobSetRestarted this one corrects, taking it back.' }),
    }),
    z.strictObject({
      type: z.literal('JobSetCompleted'),
      ...decided,
      operator: z.string(),
      targetReplicatedJobs: z.array(z.string()),
      succeededJobs: z.array(z.string()).meta({ description: 'The succeeded current-attempt Jobs the success policy counted.' }),
      required: count,
      condition: ConditionUpdateSchema,
      tippedBy,
      corrects: seq.optional().meta({ description: 'Logs written before JobSetOutcomeCorrected (JOBSET_FOLD_VERSION .10): log position of the JobSetFailed this one corrects, taking it back.' }),
    }),
    z.strictObject({
      type: z.literal('JobSetOutcomeCorrected'),
      ...decided,
      retracted: z.array(ConditionViewSchema).meta({ description: 'The conditions taken back, as they stood (RestartingJobSet of a restart, Failed of a failure).' }),
      retractedMetAt: TimeViewSchema.optional().meta({ description: 'When the criterion of the decision taken back was met on the cluster\'s clock.' }),
      corrects: seq.meta({ description: 'Log position of the decision taken back.' }),
      reason: z.string().meta({ description: 'The reason of what the cluster\'s controller decided instead (the decision logged next).' }),
      message: z.string(),
      evidence: z.strictObject({ tippedBy, metAt: TimeViewSchema.optional().meta({ description: 'When the criterion decided instead was met on the cluster\'s clock.' }) }),
      restarts: count.meta({ description: 'The global restarts the correction leaves: fewer when the restart itself is taken back.' }),
      restartsCountTowardsMax: count,
    }),
    z.strictObject({
      type: z.literal('JobSetRejected'),
      ...decided,
      errors: z.array(z.strictObject({ field: z.string(), type: z.string(), detail: z.string() })),
      tippedBy,
    }),
    z.strictObject({
      type: z.literal('CreateJobIssued'),
      ...decided,
      commandId: z.string(),
      name: z.string(),
      replicatedJob: z.string(),
      jobIndex: count,
      restartAttempt: count,
      suspend: z.boolean(),
      parallelism: count,
      completions: count.optional(),
    }),
    z.strictObject({
      type: z.enum(['DeleteJobIssued', 'SuspendJobIssued', 'ResumeJobIssued']),
      ...decided,
      commandId: z.string(),
      name: z.string(),
    }),
    z.strictObject({
      type: z.literal('JobSetDeletionRequested'),
      ...decided,
      commandId: z.string(),
      name: z.string().meta({ description: 'The JobSet.' }),
      ttlSecondsAfterFinished: count,
      finishedAt: TimeViewSchema.meta({ description: 'The transition time of the Completed or Failed condition.' }),
      expiredAt: TimeViewSchema.meta({ description: 'finishedAt + ttlSecondsAfterFinished.' }),
      tippedBy,
    }),
    z.strictObject({
      type: z.literal('ChildJobEventReleased'),
      ...decided,
      name: z.string().meta({ description: 'The child Job the event released is about, or the JobSet for one of its observations.' }),
      count: count.optional().meta({ description: "The newest of the forwarder's jobSetSeq counts it carried: it was kept aside until every child Job event sent before it arrived." }),
      tippedBy,
    }),
  ])
  .register(apiSchemas, { id: 'JobSetDecision', description: 'A decision of the JobSet fold as logged, with its evidence.' });

export const JobSetOutcomeSchema = z
  .enum(['Pending', 'Rejected', 'Running', 'Suspended', 'Restarting', 'Completed', 'Failed'])
  .register(apiSchemas, { id: 'JobSetOutcome', description: 'Where the JobSet stands, in one word (Restarting: RestartingJobSet is True).' });

const DECISION_TYPES = JOBSET_DECISION_TYPES;

const WaitReasonSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('dependency'),
      dependency: z.string(),
      status: z.string().meta({ description: 'Ready or Complete.' }),
      reached: count.meta({ description: 'Ready: ready + succeeded + failed Jobs of the dependency; Complete: its succeeded Jobs.' }),
      needed: count.meta({ description: "The dependency's replicas." }),
      finished: count.meta({ description: 'Ready: the succeeded and failed Jobs counted in `reached`.' }),
    }),
    z.strictObject({ kind: z.literal('startupOrder'), previous: z.string(), started: count, replicas: count }),
    z.strictObject({ kind: z.literal('blockingRecreate'), previousJobs: count }),
    z.strictObject({ kind: z.literal('nameTaken'), jobs: z.array(z.string()) }),
  ])
  .register(apiSchemas, { id: 'JobSetWaitReason', description: 'Why Jobs of a replicated job are not created yet: a dependsOn dependency not reached, the InOrder startup order, or Jobs of an earlier restart attempt still being deleted.' });

export const JobSetExplanationSchema = explanationSchema('JobSet', {
  outcome: JobSetOutcomeSchema,
  evidence: JobSetDecisionSchema.meta({ description: 'The decision that wrote the condition as it stands.' }),
  condition: {
    status: z.enum(['True', 'False']),
    tippedBy: seq.optional().meta({ description: 'Log position of the observation that tipped it.' }),
  },
  fields: {
    jobSet: ObjectIdentitySchema,
    restarts: count,
    restartsCountTowardsMax: count,
    events: z
      .array(
        z.strictObject({
          seq,
          type: z.enum(DECISION_TYPES),
          at: TimeViewSchema,
          tippedBy: seq.optional().meta({ description: 'Absent for commands issued.' }),
          sentence: z.string(),
          decision: JobSetDecisionSchema,
        }),
      )
      .meta({ description: 'The decisions at log positions from `eventsFrom` on, in log order.' }),
    eventsFrom: z.number().int().min(1).meta({
      description:
        'The first log position `events` covers: 1 (every decision) unless the log is longer than 5,000 entries; '
        + 'then the last 5,000 entries, and the earlier decisions are in `…/history`. Each condition cites its '
        + 'decision wherever it lies.',
    }),
    waiting: z
      .array(z.strictObject({ replicatedJob: z.string(), missing: count, replicas: count, reason: WaitReasonSchema, sentence: z.string() }))
      .meta({ description: 'Replicated jobs whose Jobs are not all created yet, and why (e.g. `waiting for driver to be Ready: 1 of 2 ready`), in spec order.' }),
  },
  rejection: 'Admission violations of a rejected spec: `field: detail`.',
}).register(apiSchemas, { id: 'JobSetExplanation', description: 'Why the JobSet is where it is, with the evidence jobfold logged.' });
