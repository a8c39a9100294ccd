import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { reconcile, type ReconcileDeps, type ReconcileOutcome } from '../../shared/app/reconcile.ts';
import { reconcileJobSet } from '../../shared/app/reconcile-jobset.ts';
import { parseStreamKey, streamKey } from '../../shared/app/stream-key.ts';
import type { StreamId } from '../../shared/app/event-store.ts';
import { logger, metrics } from '../commons/powertools.ts';
import { recordDecisionMetrics } from './decision-metrics.ts';
import type { TimerScheduler } from '../ports/index.ts';

export interface ReconcileHandlerDeps extends ReconcileDeps {
  readonly timers: TimerScheduler;
  /**
   * The kinds of streams this trigger reconciles (default both). Where the log writer
   * (writer-handler.ts) owns Job logs, pass ['JobSet']: a Job reconciled here at clock() time
   * beside the writer would decide at times the log does not hold.
   */
  readonly kinds?: readonly StreamId['kind'][];
}

/**
 * Reconciles one Job and schedules its wake-up; records the metrics of what was decided:
 * jobs_finished_total by reason, pods_terminated_total, and the decision latency from the
 * newest observation to the commands.
 */
export async function reconcileAndSchedule(deps: ReconcileHandlerDeps, stream: StreamId): Promise<ReconcileOutcome> {
  if (stream.kind === 'JobSet') return reconcileJobSetStream(deps, stream);
  const outcome = await reconcile(deps, stream);
  if (outcome.wakeAt) await deps.timers.schedule(stream, outcome.wakeAt);
  recordDecisionMetrics(outcome, deps.clock());
  return outcome;
}

/**
 * JobSets: settle the JobSet fold and schedule its wake-up (a finished JobSet's TTL); its
 * outcome is reported in the Job outcome's shape.
 */
async function reconcileJobSetStream(deps: ReconcileHandlerDeps, stream: StreamId): Promise<ReconcileOutcome> {
  const outcome = await reconcileJobSet(deps, stream);
  if (outcome.wakeAt) await deps.timers.schedule(stream, outcome.wakeAt);
  return { ...outcome, decisions: [], commands: [], latestObservedAt: undefined };
}

/**
 * reconcile: DynamoDB Streams delivers new log entries; every Job named in the batch is
 * reconciled once. A Job whose reconcile fails reports its records as failed, so Lambda
 * retries from there (partial batch response); the others are done.
 */
export function createReconcileHandler(deps: ReconcileHandlerDeps) {
  return middy(async (event: DynamoDBStreamEvent, _context: Context): Promise<DynamoDBBatchResponse> => {
    const byStream = new Map<string, { stream: StreamId; sequenceNumbers: string[] }>();
    for (const record of event.Records) {
      const key = record.dynamodb?.NewImage?.['pk']?.S ?? record.dynamodb?.Keys?.['pk']?.S;
      const stream = key ? parseStreamKey(key) : undefined;
      const sequenceNumber = record.dynamodb?.SequenceNumber ?? '';
      if (!stream || !(deps.kinds ?? ['Job', 'JobSet']).includes(stream.kind)) continue;
      const group = byStream.get(streamKey(stream)) ?? { stream, sequenceNumbers: [] };
      group.sequenceNumbers.push(sequenceNumber);
      byStream.set(streamKey(stream), group);
    }
    const failures: { itemIdentifier: string }[] = [];
    await Promise.all(
      [...byStream.values()].map(async ({ stream, sequenceNumbers }) => {
        try {
          await reconcileAndSchedule(deps, stream);
        } catch (error) {
          logger.error('reconcile failed', { stream, error: error as Error });
          for (const itemIdentifier of sequenceNumbers) failures.push({ itemIdentifier });
        }
      }),
    );
    return { batchItemFailures: failures };
  })
    .use(injectLambdaContext(logger))
    .use(logMetrics(metrics));
}
