/**
 * JobSet vocabulary, verbatim from `kubernetes-sigs/jobset` (`api/jobset/v1alpha2/jobset_types.go`,
 * `pkg/constants/constants.go`). Condition types, reasons and messages are compared byte for byte
 * by the conformance corpus, so they live in one place.
 */

export const JOBSET_API_VERSION = 'jobset.x-k8s.io/v1alpha2';

/** `JobSetControllerName`: the `spec.managedBy` value reserved for the built-in controller. */
export const JOBSET_CONTROLLER_NAME = 'jobset.sigs.k8s.io/jobset-controller';

/** `spec.managedBy` of a JobSet that jobfold controls (it creates and deletes the child Jobs). */
export const JOBFOLD_JOBSET_CONTROLLER_NAME = 'jobfold.io/jobset-controller';

/** Labels (and annotations) the controller stamps on every child Job. */
export const LABELS = {
  jobSetName: 'jobset.sigs.k8s.io/jobset-name',
  jobSetUid: 'jobset.sigs.k8s.io/jobset-uid',
  replicatedJobName: 'jobset.sigs.k8s.io/replicatedjob-name',
  replicatedJobReplicas: 'jobset.sigs.k8s.io/replicatedjob-replicas',
  globalReplicas: 'jobset.sigs.k8s.io/global-replicas',
  jobIndex: 'jobset.sigs.k8s.io/job-index',
  jobGlobalIndex: 'jobset.sigs.k8s.io/job-global-index',
  jobKey: 'jobset.sigs.k8s.io/job-key',
  restartAttempt: 'jobset.sigs.k8s.io/restart-attempt',
  groupName: 'jobset.sigs.k8s.io/group-name',
  groupReplicas: 'jobset.sigs.k8s.io/group-replicas',
  jobGroupIndex: 'jobset.sigs.k8s.io/job-group-index',
  /** Only with `spec.coordinator`: the coordinator pod's endpoint (`CoordinatorKey`). */
  coordinator: 'jobset.sigs.k8s.io/coordinator',
} as const;

export const CONDITION_TYPES = {
  completed: 'Completed',
  failed: 'Failed',
  suspended: 'Suspended',
  startupPolicyInProgress: 'StartupPolicyInProgress',
  startupPolicyCompleted: 'StartupPolicyCompleted',
  restartingJobSet: 'RestartingJobSet',
} as const;

export const REASONS = {
  allJobsCompleted: 'AllJobsCompleted',
  failedJobs: 'FailedJobs',
  failJobSetAction: 'FailJobSetFailurePolicyAction',
  reachedMaxRestarts: 'ReachedMaxRestarts',
  suspendedJobs: 'SuspendedJobs',
  resumeJobs: 'ResumeJobs',
  inOrderStartupPolicyInProgress: 'InOrderStartupPolicyInProgress',
  inOrderStartupPolicyCompleted: 'InOrderStartupPolicyCompleted',
  restartingDefaultFailurePolicy: 'DefaultFailurePolicy',
  restartingJobsReady: 'JobsReady',
  restartingJobSetFailed: 'JobSetFailed',
  restartingJobSetCompleted: 'JobSetCompleted',
  restartingJobSetSuspended: 'JobSetSuspended',
} as const;

/** `RestartingJobSetReasonFailurePolicyFormat`: the reason names the matched rule. */
export const restartingReasonForRule = (ruleName: string): string => `FailurePolicy_${ruleName}`;

export const MESSAGES = {
  allJobsCompleted: 'jobset completed successfully',
  failedJobs: 'jobset failed due to one or more job failures',
  failJobSetAction: 'applying FailJobSet failure policy action',
  reachedMaxRestarts: 'jobset failed due to reaching max number of restarts',
  restartJobSetAction: 'applying RestartJobSet failure policy action',
  restartJobSetAndIgnoreMaxRestartsAction:
    'applying RestartJobSetAndIgnoreMaxRestarts failure policy action',
  suspended: 'jobset is suspended',
  resumed: 'jobset is resumed',
  inOrderStartupPolicyInProgress: 'in order startup policy is in progress',
  inOrderStartupPolicyCompleted: 'in order startup policy has completed',
  jobsReady: 'all jobs are ready',
  jobSetFailed: 'jobset failed',
} as const;

/** `messageWithFirstFailedJob` (failure_policy.go). */
export const withFirstFailedJob = (message: string, jobName: string): string =>
  `${message} (first failed job: ${jobName})`;

/** `defaultRuleNameFmt` (jobset_webhook.go). */
export const defaultRuleName = (index: number): string => `failurePolicyRule${index}`;

/** Reasons a batch/v1 Job's Failed condition can carry (`validOnJobFailureReasons`). */
export const JOB_FAILURE_REASONS = [
  'BackoffLimitExceeded',
  'DeadlineExceeded',
  'FailedIndexes',
  'MaxFailedIndexesExceeded',
  'PodFailurePolicy',
] as const;

/** Failure policy actions; the `RestartJob*` pair is gated behind `RestartJob` (off by default). */
export const FAILURE_POLICY_ACTIONS = [
  'FailJobSet',
  'RestartJobSet',
  'RestartJobSetAndIgnoreMaxRestarts',
  'RestartJob',
  'RestartJobAndIgnoreMaxRestarts',
] as const;
export type FailurePolicyAction = (typeof FAILURE_POLICY_ACTIONS)[number];

export const GATED_FAILURE_POLICY_ACTIONS: readonly string[] = [
  'RestartJob',
  'RestartJobAndIgnoreMaxRestarts',
];
