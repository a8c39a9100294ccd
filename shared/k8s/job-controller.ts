/** Kubernetes names the Job controller reads and writes, verbatim from upstream. */

export const JOB_COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
export const JOB_INDEX_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-failure-count';
export const JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION =
  'batch.kubernetes.io/job-index-ignored-failure-count';
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';

/** `spec.managedBy` values: the built-in controller, and jobfold itself. */
export const JOB_CONTROLLER_NAME = 'kubernetes.io/job-controller';
export const JOBFOLD_CONTROLLER_NAME = 'jobfold.io/job-controller';

/**
 * Set by the forwarder on every pod it creates: the CreatePod command's id, so a redelivered
 * command finds its pod, and the log shows which command made which pod.
 */
export const COMMAND_ID_ANNOTATION = 'jobfold.io/command-id';

export const ConditionType = {
  Suspended: 'Suspended',
  Complete: 'Complete',
  Failed: 'Failed',
  FailureTarget: 'FailureTarget',
  SuccessCriteriaMet: 'SuccessCriteriaMet',
} as const;
export type ConditionType = (typeof ConditionType)[keyof typeof ConditionType];

export const Reason = {
  PodFailurePolicy: 'PodFailurePolicy',
  BackoffLimitExceeded: 'BackoffLimitExceeded',
  DeadlineExceeded: 'DeadlineExceeded',
  MaxFailedIndexesExceeded: 'MaxFailedIndexesExceeded',
  FailedIndexes: 'FailedIndexes',
  SuccessPolicy: 'SuccessPolicy',
  CompletionsReached: 'CompletionsReached',
  JobSuspended: 'JobSuspended',
  JobResumed: 'JobResumed',
} as const;

export const Message = {
  BackoffLimitExceeded: 'Job has reached the specified backoff limit',
  DeadlineExceeded: 'Job was active longer than specified deadline',
  MaxFailedIndexesExceeded: 'Job has exceeded the specified maximal number of failed indexes',
  FailedIndexes: 'Job has failed indexes',
  CompletionsReached: 'Reached expected number of succeeded pods',
  JobSuspended: 'Job suspended',
  JobResumed: 'Job resumed',
} as const;

/** Upstream `ExpectationsTimeout`: unobserved creations/deletions stop blocking after this. */
export const EXPECTATIONS_TIMEOUT_MS = 300_000;
/** Upstream `MaxPodCreateDeletePerSync`. */
export const MAX_POD_CREATE_DELETE_PER_SYNC = 500;
