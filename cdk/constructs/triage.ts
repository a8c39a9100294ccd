import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IStream } from 'aws-cdk-lib/aws-kinesis';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { IQueue, Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { deadLetterQueue, MAX_RECEIVE_COUNT } from './secure-queue.ts';
import { ServiceFunction } from './service-function.ts';
import type { Timers } from './timers.ts';
import { grantWriterCode, WRITER_MEMORY_MB, writerEnvironment } from './writer.ts';

/** The receive on which the triage parks instead of retrying (TRIAGE_MAX_RECEIVES). */
export const TRIAGE_MAX_RECEIVES = MAX_RECEIVE_COUNT;

/** How the triage reads its queues: one failed batch at a time (up to 1,000 records each); events ten at a time. */
export const TRIAGE_SOURCES = { writerFailures: { batchSize: 1 }, ingestDlq: { batchSize: 10 } } as const;

/**
 * The dead-letter triage of the ingest path (functions/handlers/triage-handler.ts). It consumes
 * the writer-failures queue (Lambda's description of a stream batch it gave up on: the triage
 * reads the records back from the stream and writes them with the writer's code once more) and
 * the ingest DLQ (events EventBridge could not put into the stream: refused with the writer's
 * reasons, or put back). What still fails goes back to its queue, 15 minutes later, carrying
 * the attempt's error (TRIAGE_ERROR); on the last attempt it goes to the parked queue with its error (attributes ERROR_CODE, ERROR_MESSAGE, JOB, SHARD_ID,
 * SEQUENCE_NUMBER; the body says why and holds the original). Its role may read the ingest
 * stream's records and put records into it, consume the two queues and send to them and to the parked queue,
 * and do what the writer does (table, timers, rejections on the bus).
 */
export class Triage extends Construct {
  readonly function: ServiceFunction;
  readonly parked: Queue;

  constructor(scope: Construct, id: string, props: {
    stream: IStream; table: ITable; bus: IEventBus; timers: Timers; writerFailures: IQueue; ingestDlq: IQueue;
  }) {
    super(scope, id);
    const { stream, table, bus, timers, writerFailures, ingestDlq } = props;
    this.parked = deadLetterQueue(this, 'Parked', 'records and events the dead-letter triage could neither write, refuse nor put back, each with its error');
    this.function = new ServiceFunction(this, 'Function', {
      entry: 'triage',
      description: 'jobfold triage: writes again what the writer gave up on, refuses or puts back what EventBridge could not deliver, parks the rest with its error',
      timeout: Duration.minutes(2),
      // It runs the writer's code on the writer's batches: the writer's memory.
      memorySize: WRITER_MEMORY_MB,
      environment: {
        ...writerEnvironment(bus),
        STREAM_ARN: stream.streamArn, PARKED_QUEUE_URL: this.parked.queueUrl, TRIAGE_MAX_RECEIVES: String(TRIAGE_MAX_RECEIVES),
      },
    });
    // What the writer may do, since the triage runs the writer's code.
    grantWriterCode(this.function, { table, bus, timers });
    // Read a range back (no ListShards, no DescribeStream: the on-failure record names the shard) and put back.
    this.function.addToRolePolicy(new PolicyStatement({
      actions: ['kinesis:GetShardIterator', 'kinesis:GetRecords', 'kinesis:PutRecord'],
      resources: [stream.streamArn],
    }));
    // Park; and send a failed message back to its own queue with the attempt's error (sqs-requeue.ts).
    this.function.addToRolePolicy(new PolicyStatement({
      actions: ['sqs:SendMessage'], resources: [this.parked.queueArn, writerFailures.queueArn, ingestDlq.queueArn],
    }));
    this.function.addEventSource(new SqsEventSource(writerFailures, { ...TRIAGE_SOURCES.writerFailures, reportBatchItemFailures: true }));
    this.function.addEventSource(new SqsEventSource(ingestDlq, { ...TRIAGE_SOURCES.ingestDlq, reportBatchItemFailures: true }));
  }
}
