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
import { CONTROL_SOURCE } from '../bus-contract.ts';
import { deadLetterQueue } from './secure-queue.ts';
import { ServiceFunction } from './service-function.ts';

/**
 * The table's stream drives the step after a commit: publish, on new outbox items and once a
 * minute, puts pending commands on the bus. Every log (Jobs' and JobSets') is decided by its
 * writer (cdk/constructs/writer.ts) in the invocation that appends to it. A wake-up that keeps
 * failing is retried a bounded number of times, then described in a failures queue; stream
 * records expire after 24 hours, so an alarm on iterator age watches that it does not fall behind.
 */
export class StreamConsumers extends Construct {
  readonly publish: ServiceFunction;
  readonly publishFailures: Queue;

  constructor(scope: Construct, id: string, props: { table: ITable; bus: IEventBus }) {
    super(scope, id);
    const { table, bus } = props;
    const insertOf = (type: string, more: Record<string, unknown> = {}) => FilterCriteria.filter({
      eventName: FilterRule.isEqual('INSERT'),
      dynamodb: { NewImage: { [ATTR.type]: { S: FilterRule.isEqual(type) }, ...more } },
    });

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
    // The publisher publishes the items the batch's records name (read again by key, so a batch
    // delivered again sends nothing already published). A failed batch is retried a few times
    // as a whole, and the minute sweep covers whatever is still pending.
    this.publish.addEventSource(new DynamoEventSource(table, {
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: 100,
      filters: [insertOf(ITEM_TYPE.command)],
      retryAttempts: 3,
      maxRecordAge: Duration.hours(1),
      onFailure: new SqsDlq(this.publishFailures),
    }));
    acknowledgeListStreams(this.publish);
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
