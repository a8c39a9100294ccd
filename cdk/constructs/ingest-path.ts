import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Match, Rule, type IEventBus } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { CLUSTER_SOURCE_PREFIX, REJECTION_DETAIL_TYPE, REJECTION_SOURCE } from '../bus-contract.ts';
import { deadLetterQueue, QueueWithDlq, TARGET_RETRY } from './secure-queue.ts';
import { ServiceFunction } from './service-function.ts';

const INGEST_TIMEOUT = Duration.seconds(30);

/**
 * Cluster events into the log: bus → rule (`jobfold.cluster.*`) → ingest queue → ingest
 * function → table. Every hop has a dead end that keeps the event: EventBridge dead-letters
 * what it cannot deliver, and SQS moves a message that failed five receives, both to the ingest
 * DLQ. Events the function refuses go back on the bus as `Inbound Event Rejected`, with their
 * reasons, and a second rule files them in the rejected-events queue for an operator.
 */
export class IngestPath extends Construct {
  readonly queues: QueueWithDlq;
  readonly rejected: Queue;
  readonly function: ServiceFunction;

  constructor(scope: Construct, id: string, props: { bus: IEventBus; table: ITable }) {
    super(scope, id);
    const { bus, table } = props;
    // Six times the function timeout, as Lambda recommends for SQS sources, so a message is not
    // handed to a second invocation while the first is still working on it.
    this.queues = new QueueWithDlq(this, 'Ingest', { visibilityTimeout: Duration.seconds(INGEST_TIMEOUT.toSeconds() * 6) });
    new Rule(this, 'InboundRule', {
      eventBus: bus,
      description: 'Cluster events (source jobfold.cluster.<id>) to the ingest queue',
      eventPattern: { source: Match.prefix(CLUSTER_SOURCE_PREFIX) },
      targets: [new SqsQueue(this.queues.queue, { deadLetterQueue: this.queues.deadLetterQueue, ...TARGET_RETRY })],
    });

    this.rejected = deadLetterQueue(this, 'Rejected', 'inbound events the ingest function refused, with their reasons');
    new Rule(this, 'RejectionRule', {
      eventBus: bus,
      description: 'Inbound events the ingest function refused, with their reasons, to the rejected-events queue',
      eventPattern: { source: [REJECTION_SOURCE], detailType: [REJECTION_DETAIL_TYPE] },
      targets: [new SqsQueue(this.rejected, { deadLetterQueue: this.queues.deadLetterQueue, ...TARGET_RETRY })],
    });

    this.function = new ServiceFunction(this, 'Function', {
      entry: 'ingest',
      description: 'jobfold ingest: validates cluster events and appends them to the Job logs',
      timeout: INGEST_TIMEOUT,
      environment: { BUS_NAME: bus.eventBusName },
    });
    this.function.bindTable(table, 'readWrite');
    // The function may put only rejections on the bus, never an event that looks like a cluster's.
    this.function.addToRolePolicy(new PolicyStatement({
      actions: ['events:PutEvents'],
      resources: [bus.eventBusArn],
      conditions: { StringEquals: { 'events:source': REJECTION_SOURCE } },
    }));
    this.function.addEventSource(new SqsEventSource(this.queues.queue, {
      batchSize: 10,
      // One bad event never fails its batch: the handler reports only the failed messages.
      reportBatchItemFailures: true,
      // Leaves the account's concurrency for reconcile and the API during a burst.
      maxConcurrency: 50,
    }));
  }
}
