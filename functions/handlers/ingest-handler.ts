import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { ingest, type IngestDeps } from '../../shared/app/ingest.ts';
import type { InboundError } from '../../shared/contract/parse-inbound.ts';
import { logger, METRIC, metrics } from '../commons/powertools.ts';

/**
 * ingest: the bus delivers cluster events to the ingest queue; each SQS record's body is one
 * EventBridge event. Valid events are appended to their Job's log (idempotently, by
 * eventId); invalid ones are refused with their reasons, and never fail the rest of the batch.
 */
export interface IngestHandlerDeps extends IngestDeps {
  /** The ingest queue's redrive maxReceiveCount (cdk/constructs/secure-queue.ts). */
  readonly maxReceiveCount?: number;
}

/** cdk/constructs/secure-queue.ts MAX_RECEIVE_COUNT (test/cdk checks they agree). */
export const INGEST_MAX_RECEIVES = 5;

export function createIngestHandler(deps: IngestHandlerDeps) {
  const maxReceives = deps.maxReceiveCount ?? INGEST_MAX_RECEIVES;
  const processor = new BatchProcessor(EventType.SQS);
  const recordHandler = async (record: SQSRecord): Promise<void> => {
    let event: unknown;
    try {
      event = JSON.parse(record.body);
    } catch {
      await deps.rejections.reject(record.body, [{ path: '', message: 'the message body is not JSON' }]);
      metrics.addMetric(METRIC.eventsRejected, MetricUnit.Count, 1);
      return;
    }
    // The rejection sink gets the message body as it arrived: that is the original, and
    // serialising a hostile event again (10,000 levels deep) would overflow the stack.
    const rejections = { reject: (_event: unknown, errors: readonly InboundError[]) => deps.rejections.reject(record.body, errors) };
    let result: Awaited<ReturnType<typeof ingest>>;
    try {
      result = await ingest({ ...deps, rejections }, event);
    } catch (error) {
      // The last receive: SQS would move the message to the DLQ saying nothing of why. Put it
      // in the rejected-events destination with the error instead, and let the queue go on.
      const receives = Number(record.attributes?.ApproximateReceiveCount ?? 1);
      if (receives < maxReceives) throw error;
      const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      logger.error('inbound event dead-lettered', { error: error as Error, messageId: record.messageId, receives });
      await deps.rejections.reject(record.body, [{ path: '', message: `dead-lettered after ${receives} receives: ${text}` }]);
      metrics.addMetric(METRIC.eventsDeadLettered, MetricUnit.Count, 1);
      return;
    }
    if (result.status === 'rejected') {
      logger.warn('inbound event rejected', { errors: result.errors, messageId: record.messageId });
      metrics.addMetric(METRIC.eventsRejected, MetricUnit.Count, 1);
    } else {
      metrics.addMetric(METRIC.eventsIngested, MetricUnit.Count, 1);
    }
  };
  return middy(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
    // In order: records of one Job appended in parallel would only race for the log head.
    processPartialResponse(event, recordHandler, processor, { context, throwOnFullBatchFailure: false, processInParallel: false }),
  )
    .use(injectLambdaContext(logger))
    .use(logMetrics(metrics));
}
