// The bus contract as the stacks route it. The values are those of shared/contract/inbound.ts,
// shared/contract/outbound.ts and functions/aws/bus-rejection-sink.ts, repeated here because
// cdk/ imports nothing from shared/; test/cdk/bus-contract.spec.ts checks they agree.

/** Inbound events: `jobfold.cluster.<clusterId>`; IAM lets each cluster's role use only its own. */
export const CLUSTER_SOURCE_PREFIX = 'jobfold.cluster.';

/** Outbound events (commands and `Job Condition Changed`). */
export const CONTROL_SOURCE = 'jobfold.control';

/**
 * The commands a forwarder applies (for Jobs, then for the child Jobs of JobSets, and a JobSet's
 * own deletion); `Job Condition Changed` and `JobSet Condition Changed` are for other
 * subscribers, not clusters.
 */
export const COMMAND_DETAIL_TYPES = ['Pod Termination Requested', 'Pod Creation Requested', 'Job Status Update Requested',
  'Pod Finalizer Removal Requested',
  'Job Creation Requested', 'Job Deletion Requested', 'Job Suspension Requested', 'Job Resume Requested',
  'JobSet Deletion Requested'];

/** What the ingest function puts on the bus for an event it refuses. */
export const REJECTION_SOURCE = 'jobfold.ingest';
export const REJECTION_DETAIL_TYPE = 'Inbound Event Rejected';

