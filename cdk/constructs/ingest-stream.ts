import { Duration } from 'aws-cdk-lib';
import { Match, Rule, type IEventBus } from 'aws-cdk-lib/aws-events';
import { KinesisStream, SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { Stream, StreamEncryption, StreamMode } from 'aws-cdk-lib/aws-kinesis';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { CLUSTER_SOURCE_PREFIX, REJECTION_DETAIL_TYPE, REJECTION_SOURCE } from '../bus-contract.ts';
import { deadLetterQueue, TARGET_RETRY, triagedQueue } from './secure-queue.ts';

/** The forwarder puts the Job's (or JobSet's) uid here; EventBridge keys by the event id without it. */
export const PARTITION_KEY_PATH = '$.detail.partitionKey';
/** A week: time to fix a writer that keeps failing before a record expires (its iterator age alarms after 5 minutes). */
export const STREAM_RETENTION = Duration.days(7);

/**
 * Cluster events into the ingest stream: bus → rule (`jobfold.cluster.*`) → Kinesis Data
 * Stream, partitioned by the Job's uid, so that one Job's events reach one writer, in order
 * (cdk/constructs/writer.ts reads it). Timers put their records into the same stream
 * (cdk/constructs/timers.ts). On demand (it scales with the fleet), encrypted with KMS under the
 * AWS managed key `aws/kinesis` (cdk-nag KDS3: producers and the consumer need no key grants).
 * What EventBridge cannot put into the stream is dead-lettered with the event and its error, and
 * the dead-letter triage refuses it or puts it back (cdk/constructs/triage.ts); events the
 * writer refuses come back on the bus as `Inbound Event Rejected`, with their reasons, and a
 * second rule files them in the rejected-events queue for an operator.
 */
export class IngestStream extends Construct {
  readonly stream: Stream;
  /** Cluster events EventBridge could not put into the stream (after 24 h of retries); the triage consumes it. */
  readonly deadLetterQueue: Queue;
  readonly rejected: Queue;

  constructor(scope: Construct, id: string, props: { bus: IEventBus }) {
    super(scope, id);
    const { bus } = props;
    this.stream = new Stream(this, 'Stream', {
      streamMode: StreamMode.ON_DEMAND,
      encryption: StreamEncryption.MANAGED,
      retentionPeriod: STREAM_RETENTION,
    });
    this.deadLetterQueue = triagedQueue(this, 'Dlq', 'cluster events and rejections EventBridge could not deliver');
    new Rule(this, 'InboundRule', {
      eventBus: bus,
      description: 'Cluster events (source jobfold.cluster.<id>) to the ingest stream, keyed by their Job',
      eventPattern: { source: Match.prefix(CLUSTER_SOURCE_PREFIX) },
      targets: [new KinesisStream(this.stream, { partitionKeyPath: PARTITION_KEY_PATH, deadLetterQueue: this.deadLetterQueue, ...TARGET_RETRY })],
    });

    this.rejected = deadLetterQueue(this, 'Rejected', 'inbound events the writer refused, with their reasons');
    new Rule(this, 'RejectionRule', {
      eventBus: bus,
      description: 'Inbound events the writer refused, with their reasons, to the rejected-events queue',
      eventPattern: { source: [REJECTION_SOURCE], detailType: [REJECTION_DETAIL_TYPE] },
      targets: [new SqsQueue(this.rejected, { deadLetterQueue: this.deadLetterQueue, ...TARGET_RETRY })],
    });
  }
}
