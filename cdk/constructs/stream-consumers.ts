import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule, type IEventBus } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ATTR, ITEM_TYPE } from '../../functions/adapters/table-layout.ts';
import { CONTROL_SOURCE, RECONCILED_EVENT_TYPES } from '../bus-contract.ts';
import { deadLetterQueue } from './secure-queue.ts';
import { ServiceFunction } from './service-function.ts';

/** The prefix of every JobSet log's partition key (`JobSet#<cluster>#<namespace>#<uid>`, shared/app/stream-key.ts). */
const JOBSET_KEY_PREFIX = 'JobSet#';

/**
 * The table's stream drives the two steps after a commit:
 * - reconcile, on new observations of a **JobSet** (its own events, and its child Jobs' statuses
 *   and deletions, which the writer appends to the JobSet's log): fold, decide, commit. A Job's
 *   log is decided by its writer (cdk/constructs/writer.ts) in the same invocation that appends;
 * - publish, on new outbox items and once a minute: put pending commands on the bus.
 * A batch that keeps failing is retried a bounded number of times (halved on each function error
 * for reconcile), then described in a failures queue; stream records expire after 24 hours, so an
 * alarm on iterator age watches that neither falls behind. Two readers per shard is the most
 * DynamoDB Streams recommends, so a third consumer belongs on the bus, not on the stream.
 */
export class StreamConsumers extends Construct {
  readonly reconcile: ServiceFunction;
  readonly publish: ServiceFunction;
  readonly reconcileFailures: Queue;
  readonly publishFailures: Queue;

  constructor(scope: Construct, id: string, props: { table: ITable; bus: IEventBus }) {
    super(scope, id);
    const { table, bus } = props;
    const insertOf = (type: string, more: Record<string, unknown> = {}) => FilterCriteria.filter({
      eventName: FilterRule.isEqual('INSERT'),
      dynamodb: { NewImage: { [ATTR.type]: { S: FilterRule.isEqual(type) }, ...more } },
    });

    this.reconcileFailures = deadLetterQueue(this, 'ReconcileFailures', 'stream batches reconcile failed after its retries');
    this.reconcile = new ServiceFunction(this, 'Reconcile', {
      entry: 'reconcile',
      description: 'jobfold reconcile: folds a JobSet log, decides, commits decisions and commands',
      timeout: Duration.seconds(60),
      environment: { SNAPSHOT_EVERY: '50', FEATURE_GATES: '' },
    });
    this.reconcile.bindTable(table, 'readWrite');
    this.reconcile.addEventSource(new DynamoEventSource(table, {
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: 100,
      // Records of one Job keep their order at any factor (per partition key); conflicts between
      // Jobs' reconcilers are settled by the conditional commit.
      parallelizationFactor: 4,
      filters: [insertOf(ITEM_TYPE.entry, {
        [ATTR.pk]: { S: FilterRule.beginsWith(JOBSET_KEY_PREFIX) },
        [ATTR.eventType]: { S: FilterRule.or(...RECONCILED_EVENT_TYPES) },
      })],
      // The handler reports the records of the Jobs it could not reconcile; the rest are done.
      reportBatchItemFailures: true,
      bisectBatchOnError: true,
      retryAttempts: 10,
      maxRecordAge: Duration.hours(6),
      onFailure: new SqsDlq(this.reconcileFailures),
    }));

    this.publishFailures = deadLetterQueue(this, 'PublishFailures', 'publish wake-ups and sweeps that failed after their retries');
    this.publish = new ServiceFunction(this, 'Publish', {
      entry: 'publish',
      description: 'jobfold publish: puts pending outbox commands on the bus',
      timeout: Duration.seconds(60),
      environment: { BUS_NAME: bus.eventBusName },
      // The minute sweep invokes asynchronously: a failed sweep is kept, and the next one retries anyway.
      onFailure: new SqsDestination(this.publishFailures),
    });
    this.publish.bindTable(table, 'readWrite');
    this.publish.addToRolePolicy(new PolicyStatement({
      actions: ['events:PutEvents'],
      resources: [bus.eventBusArn],
      conditions: { StringEquals: { 'events:source': CONTROL_SOURCE } },
    }));
    // A stream record only wakes the publisher, which publishes the whole pending outbox, so there
    // is no per-record outcome to report and nothing to bisect: a failed wake-up is retried a few
    // times, and the minute sweep covers whatever is still pending.
    this.publish.addEventSource(new DynamoEventSource(table, {
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: 100,
      filters: [insertOf(ITEM_TYPE.command)],
      retryAttempts: 3,
      maxRecordAge: Duration.hours(1),
      onFailure: new SqsDlq(this.publishFailures),
    }));
    for (const fn of [this.reconcile, this.publish]) acknowledgeListStreams(fn);
    new Rule(this, 'Sweep', {
      description: 'jobfold publish sweep: commands left pending by a failed or missed wake-up',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaFunction(this.publish, { deadLetterQueue: this.publishFailures, retryAttempts: 2, maxEventAge: Duration.minutes(5) })],
    });
  }
}

/** The stream event source grants dynamodb:ListStreams on `*`, the only resource that action accepts. */
function acknowledgeListStreams(fn: ServiceFunction): void {
  Validations.of(fn.serviceRole).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason: 'Only dynamodb:ListStreams, which has no resource-level permissions (Service Authorization Reference); '
      + 'the reads that return data (DescribeStream, GetRecords, GetShardIterator) are scoped to the table stream ARN.',
  });
}
