// The shapes of the query API responses the console reads (docs/openapi.yaml), the parts it uses.

export type FleetState = 'Running' | 'Suspended' | 'Succeeded' | 'Failed' | 'Rejected';
export type Kind = 'Job' | 'JobSet';

export interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastTransitionTime: string;
}

export interface Identity {
  clusterId: string;
  namespace: string;
  name: string;
  uid: string;
}

export interface FleetItem extends Identity {
  kind: Kind;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
  latestCondition?: Partial<Condition> & { type: string; status: string };
  state: FleetState;
  reason: string;
  /** Set while every reconcile of the Job fails with this error (it is parked, not decided). */
  stalled?: Stalled;
  /** The latest update the API server would refuse; the Job folds under its last valid spec. */
  refusedUpdate?: { eventId: string; errors: string[] };
}

export interface Stalled {
  error: string;
  since: string;
}

export interface FleetOverview {
  items: FleetItem[];
  total: number;
  offset: number;
  nextOffset?: number;
  attention: { stalled: number; refusedUpdate: number };
  counts: { kind: Kind; state: FleetState; reason: string; count: number }[];
  clusters: string[];
  namespaces: string[];
}

export interface JobStatus {
  conditions: Condition[];
  startTime: string | null;
  completionTime: string | null;
  active: number;
  ready: number;
  terminating: number;
  succeeded: number;
  failed: number;
  completedIndexes: string;
  failedIndexes: string | null;
  uncountedTerminatedPods?: unknown;
}

export interface JobCommand {
  type: 'TerminatePod' | 'CreatePod' | 'UpdateJobStatus' | 'RemovePodFinalizer';
  seq: number;
  at: string;
  dispatched: boolean;
  cause?: string;
  reason?: string;
  message?: string;
  pods?: { name: string; uid: string; index?: number }[];
  count?: number;
  indexes?: number[];
  /** Pod commands: what the cluster reported afterwards about their pods (no acknowledgement exists). */
  observed?: { count: number; of: number; lastSeq?: number; lastAt?: string };
  /** `…/commands` only: the deciding decision's type, and which slice of its pods this item lists. */
  decision?: string;
  podsFrom?: number;
  podsOf?: number;
}

export interface JobSetCommand { seq: number; at: string; type: string; commandId: string; name: string }

/** One page of `…/commands` (every command decided, oldest first). */
export interface CommandsPage<T> {
  object: Identity;
  head: number;
  /** Every command decided at or before this log position is on this page or an earlier one. */
  through: number;
  items: T[];
  nextCursor?: string;
}

export interface JobView {
  job: Identity & { creationTimestamp?: string };
  deleted: boolean;
  spec: {
    completionMode: 'Indexed' | 'NonIndexed';
    parallelism: number;
    completions: number | null;
    backoffLimit: number;
    backoffLimitPerIndex: number | null;
    maxFailedIndexes: number | null;
    activeDeadlineSeconds: number | null;
    suspend: boolean;
    managedBy: string | null;
    podReplacementPolicy: string | null;
    successPolicy: unknown;
    podFailurePolicy: unknown;
  } | null;
  status: JobStatus;
  commands: JobCommand[];
  /** The first log position `commands` covers: > 1 when earlier commands are only in `…/commands`. */
  commandsFrom: number;
  explanation: { outcome: string; summary: string; rejection: string[] };
  log: { head: number; lastRecordedAt?: string };
  refusedUpdate: { eventId: string; observedAt: string; errors: { field: string; type: string; message: string }[] } | null;
  stalled: Stalled | null;
}

export interface ExplainedCondition extends Condition {
  sentence: string;
  evidence?: Record<string, unknown>;
  decidedBy?: number;
  tippingEvent?: { seq: number; type: string; eventId: string; at: string };
}

export interface JobExplanation {
  outcome: string;
  summary: string;
  conditions: ExplainedCondition[];
  terminatedPods: unknown[];
  rejection: string[];
}

export interface StatusAt {
  at: { seq: number; recordedAt?: string };
  head: number;
  outcome: string;
  status: JobStatus;
}

export interface JobIndexes {
  at: { seq: number; recordedAt?: string };
  head: number;
  completions: number | null;
  succeeded: string;
  failed: string;
  active: string;
  terminating: string;
}

export interface Transition {
  seq: number;
  at: string;
  type: string;
  status: string;
  reason: string;
  message: string;
}

export interface JobTimeline {
  head: number;
  firstRecordedAt?: string;
  lastRecordedAt?: string;
  transitions: Transition[];
}

export interface HistoryEntry {
  seq: number;
  eventId: string;
  type: string;
  category: 'observation' | 'decision' | 'command';
  observedAt?: string;
  at?: string;
  recordedAt: string;
  body: Record<string, unknown>;
}

export interface HistoryPage {
  head: number;
  entries: HistoryEntry[];
  nextAfter?: number;
}

export interface JobSetView {
  jobSet: Identity;
  deleted: boolean;
  spec: {
    replicatedJobs: { name: string; groupName: string; replicas: number; parallelism: number; completions: number | null }[];
    successPolicy: { operator: string; targetReplicatedJobs: string[] };
    startupPolicy: { startupPolicyOrder: string };
    failurePolicy: {
      maxRestarts: number;
      restartStrategy: string;
      rules: { name: string; action: string; onJobFailureReasons: string[]; onJobFailureMessagePatterns: string[]; targetReplicatedJobs: string[] }[];
    } | null;
    suspend: boolean;
    managedBy: string | null;
  } | null;
  status: {
    conditions: Condition[];
    restarts: number;
    restartsCountTowardsMax: number;
    terminalState: '' | 'Completed' | 'Failed';
    replicatedJobsStatus: { name: string; ready: number; succeeded: number; failed: number; active: number; suspended: number }[];
  };
  childJobs: { name: string; replicatedJob?: string; jobIndex?: number; restartAttempt?: number; suspend: boolean; terminating: boolean }[];
  commands: JobSetCommand[];
  commandsFrom: number;
  explanation: { outcome: string; summary: string; conditions: { type: string; status: string; reason: string; sentence: string }[]; rejection: string[]; waiting: string[] };
  log: { head: number; lastRecordedAt?: string };
}
