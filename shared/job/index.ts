/**
 * The Job fold's public surface: `evolve` folds a logged event into the state, `decide`
 * reconciles the state at a time and returns new decisions and commands, `explain` says why the
 * Job stands where it does (its read model), `jobStatus` reads the batch/v1 status, and the
 * snapshot functions persist the state.
 */
export { jobDecider, type JobDecider } from './decider.ts';

export { decide, type Reconciliation } from './decide.ts';
export { evolve, type JobEvent } from './evolve.ts';
/** A reader's fold ends where a sync may have counted: the count it made (the decider's `settle`). */
export { countAtSync } from './observe-pod.ts';
export { initialState, DEFAULT_FOLD_CONFIG, type FoldConfig, type JobState } from './state.ts';
export { jobStatus, type JobStatusView } from './status.ts';
export {
  conditionSentence,
  explainJob,
  jobCorrectionSentence,
  jobOutcome,
  successRuleText,
  terminatedPod,
  LINGERING_CONDITIONS,
  type ConditionEvidence,
  type ExplainedJobCondition,
  type SentenceFacts,
  type Explanation,
  type JobOutcome,
  type TerminatedPod,
  type TippingEvent,
} from './explain.ts';
export type { JobCommand, TerminatePod, CreatePod, UpdateJobStatus } from './commands.ts';
export { DecisionSchema, type Decision, type TerminationCause } from './decisions.ts';
export { EvidenceSchema, type Evidence, type PodRefData } from '../policies/evidence.ts';
export { ObservationSchema, type Observation } from './events.ts';
export { JOBFOLD_DEFAULT_GATES, UPSTREAM_DEFAULT_GATES, type FeatureGates } from '../k8s/feature-gates.ts';
export { takeSnapshot, restoreSnapshot, restoreArchived, cloneState, isSettled, archivePod } from './snapshot.ts';
export type { JobSnapshot, ArchivedPod } from './snapshot.ts';
export { encodeArchivedPods, decodeArchivedPods } from './archive-codec.ts';
export { foldFromSnapshot } from './archive-restore.ts';
export type { JobCondition } from './conditions.ts';
export { CORRECTED_TO } from './outcome-correction.ts';

// What the adapters (functions/, cli/, local/, bench/, forwarder/) read besides the fold itself:
// nothing outside shared/ imports a file behind this one (test/unit/architecture/layers.spec.ts).
export { boundedText } from '../k8s/bounded-text.ts';
export { DEFAULT_CLOCK_SKEW_MS } from './cluster-clock.ts';
export { hasTrueCondition } from './conditions.ts';
export {
  COMMAND_ID_ANNOTATION,
  CONTROLLER_UID_LABEL,
  JOB_COMPLETION_INDEX_ANNOTATION,
  JOB_NAME_LABEL,
  JOB_TRACKING_FINALIZER,
  JOBFOLD_CONTROLLER_NAME,
  JOB_CONTROLLER_NAME,
} from '../k8s/job-controller.ts';
export { JobConditionSchema, TerminationCauseSchema, type DecisionOf } from './decisions.ts';
export { ClusterIdSchema, PodObservedSchema, type PodDeleted, type Tick } from './events.ts';
export { stableHash } from './stable-hash.ts';
// The forwarder's last word on a CreatePod (issue 21), applied by the closed loop's cluster too.
export { creationRefusal, onlyReplaceFailedPods, type CreationRefusal, type LiveJob, type LivePod, type WantedPod } from './creation-guard.ts';
// Its last word on a TerminatePod (issue 21), applied by the closed loop's cluster too.
export { deletionRefusal, isGuardedCause, readsJobPods, type DeletionRefusal, type LiveDeletionJob } from './deletion-guard.ts';
// And on a RemovePodFinalizer, by the cause the command carries (issue 21).
export { finalizerRemovalRefusal, FinalizerRemovalCauseSchema, type FinalizerRefusal, type FinalizerRemovalCause } from './finalizer-guard.ts';
// The Job's log entries, read back by the query routes and the replays, and written by the benches.
export { decisionEntry, entryEvent, entryPart, observationEntry } from './log-codec.ts';
export { jobSummary } from './job-summary.ts';
export { pageTermination } from './page-decisions.ts';
export { validateJob, validateJobUpdate, type FieldError, type ValidationOptions } from './validation/index.ts';
