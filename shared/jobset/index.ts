export {
  jobSetDecider, jobSetEntryEvent, jobSetSummary, knownJobSetObservation, JOBSET_FOLD_VERSION,
  type JobSetDecider, type JobSetLogDecision, type JobSetLogObservation,
} from './decider.ts';

export { decide, type JobSetDecision } from './decide.ts';
export { evolve, fold } from './evolve.ts';
export { initialState, type ChildJobView, type JobSetState, type TerminalState } from './state.ts';
export { settle, type Settled } from './settle.ts';
export { jobSetStatus, listChildJobs, type ChildJobSummary, type JobSetStatus } from './status.ts';
export { startedReplicatedJobs, type ReplicatedJobStatus } from './replicated-jobs-status.ts';
export type { JobSetCondition } from './conditions.ts';
export {
  conditionEvidence,
  decisionSentence,
  explainJobSet,
  jobSetCorrection,
  jobSetOutcome,
  type ExplainedJobSetCondition,
  type ExplainedJobSetDecision,
  type JobSetExplanation,
  type JobSetOutcome,
  type LoggedJobSetDecision,
} from './explain.ts';
export {
  JobDeletedSchema,
  JobObservedSchema,
  JobSetDeletedSchema,
  JobSetObservationSchema,
  JobSetObservedSchema,
  JobSetTickSchema,
  type JobSetEvent,
  type JobSetObservation,
} from './events.ts';
export { isJobSetDecisionType } from './decision-events.ts';
export type {
  CreateJobIssued,
  FailedJobEvidence,
  JobCommandIssued,
  JobSetCompleted,
  JobSetConditionChanged,
  JobSetDecisionEvent,
  JobSetFailed,
  JobSetOutcomeCorrected,
  JobSetRejected,
  JobSetRestarted,
  RuleEvidence,
} from './decision-events.ts';
export type { CreateJob, DeleteJob, JobManifest, JobSetCommand, ResumeJob, SuspendJob } from './commands.ts';
export { ChildJobSchema, JobSetSchema, JobSetSpecSchema, type ChildJob, type JobSet, type JobSetSpec } from './schemas.ts';
export { defaultJobSet, type DefaultedJobSet, type DefaultedJobSetSpec } from './defaulting.ts';
export { validateJobSet } from './validation.ts';
export { isAcceptedJobFailureReason } from './failure-policy-validation.ts';
export type { FieldErrorType, JobSetFeatureGates, JobSetValidationError } from './validation-error.ts';

// What the adapters (functions/, cli/, local/, bench/) read besides the fold itself:
// nothing outside shared/ imports a file behind this one (test/unit/architecture/layers.spec.ts).
export { parseLabelInt } from './child-jobs.ts';
export { JOBFOLD_JOBSET_CONTROLLER_NAME, LABELS } from './constants.ts';
// The child Jobs a JobSet's controller creates, as a simulated cluster makes them (bench/jobset-child-reports.ts).
export { constructJob } from './construct-job.ts';
export { JOBSET_DECISION_TYPES } from './decision-events.ts';
export type { JobSetTick } from './events.ts';
