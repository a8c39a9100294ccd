import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, DynamoDBStreamEvent, ScheduledEvent } from 'aws-lambda';
import { publishPending, type PublishDeps, type PublishOutcome } from '../../shared/app/publish.ts';
import { lambdaHandler, logger, METRIC, metrics } from '../commons/powertools.ts';

/**
 * publish: a new outbox item on the table's stream, or the schedule (rate 1 minute), wakes
 * the publisher, which puts every pending command on the bus, oldest first, and marks an item
 * published only once the bus accepted all its events. A crash between commit and publish only
 * delays commands; a failed item is retried on the next wake-up. Throwing on a stream batch
 * makes Lambda retry it, which is what we want while anything failed.
 */
export function createPublishHandler(deps: PublishDeps) {
  return lambdaHandler(async (_event: DynamoDBStreamEvent | ScheduledEvent, _context: Context): Promise<PublishOutcome> => {
    let outcome: PublishOutcome;
    let total = 0;
    do {
      outcome = await publishPending(deps);
      total += outcome.published;
    } while (outcome.items > 0 && outcome.failedItems.length === 0);
    if (total > 0) metrics.addMetric(METRIC.commandsPublished, MetricUnit.Count, total);
    if (outcome.failedItems.length > 0) {
      logger.warn('outbox items not fully published; will retry', { items: outcome.failedItems });
      throw new Error(`${outcome.failedItems.length} outbox items not published`);
    }
    return outcome;
  });
}
