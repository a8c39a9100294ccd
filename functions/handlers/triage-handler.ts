import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { lambdaHandler, logger, METRIC, metrics } from '../commons/powertools.ts';
import { triageFailedBatch, type RecordWriter } from '../triage/failed-batch.ts';
import { onFailureRecordOf } from '../triage/on-failure-record.ts';
import { errorOf } from '../triage/parked-entry.ts';
import { triageEvent } from '../triage/triage-event.ts';
import type { ParkedEntry, TriageMessage } from '../../shared/contract/dead-letters.ts';
import type { ParkedSink, RecordPutter, RejectionSink, ShardRangeReader, TriageRequeue } from '../../shared/ports.ts';

export interface TriageHandlerDeps {
  /** The writer's own code (createRecordWriter), to write a failed batch once more. */
  readonly write: RecordWriter;
  readonly reader: ShardRangeReader;
  readonly stream: RecordPutter;
  readonly rejections: RejectionSink;
  readonly parked: ParkedSink;
  /** The attempt on which the triage parks instead of retrying; the queues have no redrive, so nothing leaves them unparked. */
  readonly maxReceives: number;
  /** Without it (or when it fails) a failed message is retried in place, by SQS's visibility timeout, without the error. */
  readonly requeue?: TriageRequeue;
}

/**
 * triage: the dead-letter triage of the ingest path (issue 14: every inbound event stored or
 * refused with its reason; a dead letter carries its error). It consumes two queues:
 * - the writer-failures queue, where Lambda describes an ingest-stream batch it gave up on
 *   (shard and sequence range, no data, no error): the records are read back and written once
 *   more by the writer's code (failed-batch.ts);
 * - the ingest DLQ, where EventBridge puts an event it could not put into the stream: refused
 *   with the writer's reasons, or put back (triage-event.ts).
 * What fails is sent back to its queue for a later attempt, carrying this attempt's error
 * (TRIAGE_ERROR, TRIAGE_ATTEMPTS; SQS's visibility timeout retries it in place if that fails); on
 * the last attempt it is parked with its error, where an operator reads it, and counted.
 */
export function createTriageHandler(deps: TriageHandlerDeps) {
  return lambdaHandler(async (event: SQSEvent, _context: Context): Promise<SQSBatchResponse> => {
    const batchItemFailures: { itemIdentifier: string }[] = [];
    for (const record of event.Records) {
      try {
        const message = messageOf(record);
        const outcome = await triageMessage(deps, message);
        if (outcome !== 'done' && !(await requeued(deps, message, outcome.retry, record.eventSourceARN))) {
          batchItemFailures.push({ itemIdentifier: record.messageId });
        }
      } catch (error) {
        // Parking itself failed: the message stays in its queue and comes back.
        logger.error('dead-letter triage failed; the message is retried', { messageId: record.messageId, error: error as Error });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  });
}

/** Sends the message back with this attempt's error; false when there is no requeue or it failed (then SQS retries it in place). */
async function requeued(deps: TriageHandlerDeps, message: TriageMessage, error: string, sourceArn: string): Promise<boolean> {
  if (!deps.requeue) return false;
  try {
    await deps.requeue.requeue(message, error, sourceArn);
    return true;
  } catch (requeueError) {
    logger.warn('could not requeue with the error; retried in place', { error: requeueError as Error });
    return false;
  }
}

export function messageOf(record: SQSRecord): TriageMessage {
  const errorCode = record.messageAttributes['ERROR_CODE']?.stringValue;
  const errorMessage = record.messageAttributes['ERROR_MESSAGE']?.stringValue;
  const earlier = Number(record.messageAttributes['TRIAGE_ATTEMPTS']?.stringValue) || 0;
  return {
    body: record.body,
    receiveCount: earlier + (Number(record.attributes.ApproximateReceiveCount) || 1),
    ...(errorCode === undefined ? {} : { errorCode }),
    ...(errorMessage === undefined ? {} : { errorMessage }),
  };
}

/** Settles one message: `done` (written, refused, put back or parked: delete it) or retry, with this attempt's error. Throws only when parking fails. */
export async function triageMessage(deps: TriageHandlerDeps, message: TriageMessage): Promise<'done' | { readonly retry: string }> {
  const last = message.receiveCount >= deps.maxReceives;
  const park = async (entries: readonly ParkedEntry[]) => {
    for (const entry of entries) {
      await deps.parked.park(entry);
      logger.error('parked with its error', { code: entry.code, reason: entry.reason, error: entry.error, job: entry.job, shardId: entry.shardId, sequenceNumber: entry.sequenceNumber });
    }
    if (entries.length > 0) metrics.addMetric(METRIC.eventsParked, MetricUnit.Count, entries.length);
  };
  const body = parseMaybe(message.body);
  if (typeof body === 'object' && body !== null && 'KinesisBatchInfo' in body) {
    const record = onFailureRecordOf(body);
    if (!record) {
      await park([unrecognised(message, 'a writer-failures message whose KinesisBatchInfo is not as Lambda writes it')]);
      return 'done';
    }
    const outcome = await triageFailedBatch({ info: record.KinesisBatchInfo, text: message.body, receiveCount: message.receiveCount, last }, deps);
    await park(outcome.parked);
    if (outcome.outcome === 'written') {
      logger.info('failed batch written by the dead-letter triage', { ...record.KinesisBatchInfo, records: outcome.records });
      metrics.addMetric(METRIC.eventsRedriven, MetricUnit.Count, outcome.records);
      return 'done';
    }
    logger.warn(last ? 'failed batch parked' : 'failed batch failed again; retried later', { ...record.KinesisBatchInfo, receiveCount: message.receiveCount, error: outcome.error });
    return last ? 'done' : { retry: outcome.error };
  }
  const deliveryError = [message.errorCode, message.errorMessage].filter(Boolean).join(': ') || 'no error given';
  const result = await triageEvent(message.body, deliveryError, deps);
  switch (result.outcome) {
    case 'refused':
      logger.warn('undelivered event refused', { reason: result.reason });
      metrics.addMetric(METRIC.eventsRejected, MetricUnit.Count, 1);
      return 'done';
    case 'redriven':
      metrics.addMetric(METRIC.eventsRedriven, MetricUnit.Count, 1);
      return 'done';
    case 'park':
      await park([{ code: 'RejectionUndelivered', reason: result.reason, error: { name: message.errorCode ?? 'Error', message: deliveryError }, receiveCount: message.receiveCount, original: message.body }]);
      return 'done';
    case 'failed':
      if (!last) return { retry: `${errorOf(result.error).name}: ${errorOf(result.error).message}` };
      await park([{
        code: 'RedriveFailed', receiveCount: message.receiveCount, original: message.body, error: errorOf(result.error),
        reason: `an event the ingest stream did not take (${deliveryError}) could neither be refused nor put back, on ${message.receiveCount} attempts`,
      }]);
      return 'done';
  }
}

function unrecognised(message: TriageMessage, reason: string): ParkedEntry {
  return { code: 'Unrecognised', reason, error: { name: 'Unrecognised', message: reason }, receiveCount: message.receiveCount, original: message.body };
}

function parseMaybe(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
