import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';

/**
 * One Logger and one Metrics per process, named by POWERTOOLS_SERVICE_NAME and
 * POWERTOOLS_METRICS_NAMESPACE (set by the CDK stack; defaults for local runs).
 */
export const logger = new Logger({ serviceName: process.env['POWERTOOLS_SERVICE_NAME'] ?? 'jobfold' });

export const metrics = new Metrics({
  namespace: process.env['POWERTOOLS_METRICS_NAMESPACE'] ?? 'jobfold',
  serviceName: process.env['POWERTOOLS_SERVICE_NAME'] ?? 'jobfold',
});

/** Metric names, as documented in README and docs/operations.md. */
export const METRIC = {
  jobsFinished: 'jobs_finished_total',
  podsTerminated: 'pods_terminated_total',
  decisionLatency: 'decision_latency_ms',
  eventsIngested: 'events_ingested_total',
  eventsRejected: 'events_rejected_total',
  // An eventId the Job's log holds with another content: the first stays, this one is refused and recorded.
  conflictingDuplicates: 'conflicting_duplicates_total',
  commandsPublished: 'commands_published_total',
  reconcileConflicts: 'reconcile_conflicts_total',
  snapshotsSkipped: 'snapshots_skipped_total',
  jobsStalled: 'jobs_stalled',
  eventsDeadLettered: 'events_dead_lettered_total',
  // A Job's log write that failed and is left to the stream's retries (a store outage, a race lost 8 times).
  writeFailures: 'write_failures_total',
  // The dead-letter triage (functions/handlers/triage-handler.ts): records it wrote or put back
  // into the stream, and entries it parked with their error (alarmed: EventsParked).
  eventsRedriven: 'events_redriven_total',
  eventsParked: 'events_parked_total',
} as const;

/**
 * The one middleware chain of the event-driven handlers (writer, publish, triage): the Lambda
 * context in every log line, and the metrics a handler added flushed as EMF when it returns.
 */
export function lambdaHandler<E, R>(handler: (event: E, context: Context) => Promise<R>) {
  return middy(handler).use(injectLambdaContext(logger)).use(logMetrics(metrics));
}

/**
 * The chain of the request handlers (query, kube, kube-authorizer): the Lambda context in every
 * log line. They add no metrics of their own, so no flush.
 */
export function requestHandler<E, R>(handler: (event: E, context: Context) => Promise<R>) {
  return middy(handler).use(injectLambdaContext(logger));
}
