import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, DynamoDBStreamEvent, ScheduledEvent } from 'aws-lambda';
import { publishNamed, sweepPending, type PublishDeps, type PublishOutcome } from '../../shared/publish/publish.ts';
import { streamedCommandIds } from '../adapters/dynamodb-outbox.ts';
import { lambdaHandler, logger, METRIC, metrics } from '../commons/powertools.ts';

/**
 * publish: the outbox items a commit inserted (the table's stream) and, every minute, whatever
 * is still pending (the sweep) go through one path, shared/publish/publish.ts `publishItems`: each
 * item's events onto the bus, resumable mid-item, marked published once all were accepted. A
 * stream wake-up publishes the items its records name, read again by key (no index query, so a
 * commit's commands leave as soon as its records arrive); the sweep takes the pending index,
 * oldest first, for items whose wake-up failed or never came. Throwing on a stream batch makes
 * Lambda deliver it again, which is safe: an item published meanwhile is not read back as pending.
 */
export function createPublishHandler(deps: PublishDeps) {
  return lambdaHandler(async (event: DynamoDBStreamEvent | ScheduledEvent, _context: Context): Promise<PublishOutcome> => {
    const outcome = 'Records' in event ? await publishNamed(deps, streamedCommandIds(event.Records)) : await sweepPending(deps);
    if (outcome.published > 0) metrics.addMetric(METRIC.commandsPublished, MetricUnit.Count, outcome.published);
    if (outcome.failedItems.length > 0) {
      logger.warn('outbox items not fully published; will retry', { items: outcome.failedItems });
      throw new Error(`${outcome.failedItems.length} outbox items not published`);
    }
    return outcome;
  });
}
