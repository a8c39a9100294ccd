import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IStream } from 'aws-cdk-lib/aws-kinesis';
import { StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { KinesisEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { REJECTION_SOURCE } from '../bus-contract.ts';
import { triagedQueue } from './secure-queue.ts';
import { ServiceFunction } from './service-function.ts';
import type { Timers } from './timers.ts';

/** How the writer reads the ingest stream (test/cdk checks the mapping against these). */
/**
 * The memory of the functions that run the writer's code (the writer, the triage). Measured by
 * bench/writer-memory.ts on a 100,000-pod Job: at 1,024 MB the leader's success, terminating
 * 99,999 pods, peaked at 888 MB RSS (87 %); the target is at most 60 %. 1,769 MB is also one full
 * vCPU, which the CPU-bound worst batch (a full 6 MB of packed pods, ~36 s of CPU) needs within
 * the 2-minute timeout (docs/deploy.md, "Function sizing").
 */
export const WRITER_MEMORY_MB = 1769;

export const WRITER_SOURCE = {
  batchSize: 1000,
  maxBatchingWindow: Duration.seconds(1),
  // Up to 10 batches per shard at once; records of one partition key (one Job) still go to one
  // batch at a time, in order, at any factor.
  parallelizationFactor: 10,
  retryAttempts: 10,
} as const;

/**
 * The single writer per log: the ingest stream's event source mapping hands the writer batches
 * of one shard, and every Job's (and JobSet's) records in order, so a log's events are appended
 * (as log pages), decided at each position and committed by one invocation at a time; a JobSet's
 * log also takes its child Jobs' statuses, in the order of the records they came from. A Job that fails reports its lowest sequence number (partial batch
 * response) and is retried from there; a batch that throws is bisected; after the retries the
 * batch is described in the writer-failures queue (shard and sequence range, no error), which the
 * dead-letter triage consumes: it writes the records again, or parks them with the error
 * (cdk/constructs/triage.ts). The writer itself parks a Job whose failure is deterministic and
 * files its records as rejections with the error, so this path is for what kept failing otherwise.
 */
export class Writer extends Construct {
  readonly function: ServiceFunction;
  readonly failures: Queue;

  constructor(scope: Construct, id: string, props: { stream: IStream; table: ITable; bus: IEventBus; timers: Timers }) {
    super(scope, id);
    const { stream, table, bus, timers } = props;
    this.failures = triagedQueue(this, 'Failures', 'ingest stream batches the writer failed after its retries');
    this.function = new ServiceFunction(this, 'Function', {
      entry: 'writer',
      description: 'jobfold writer: appends each Job\'s events in order, decides at each position, commits decisions and commands',
      timeout: Duration.minutes(2),
      memorySize: WRITER_MEMORY_MB,
      environment: writerEnvironment(bus),
    });
    grantWriterCode(this.function, { table, bus, timers });
    this.function.addEventSource(new KinesisEventSource(stream, {
      startingPosition: StartingPosition.TRIM_HORIZON,
      ...WRITER_SOURCE,
      reportBatchItemFailures: true,
      bisectBatchOnError: true,
      onFailure: new SqsDlq(this.failures),
    }));
  }
}

/** The environment of a function that runs the writer's code: the writer, and the triage that writes failed batches again. */
export function writerEnvironment(bus: IEventBus): Record<string, string> {
  return { BUS_NAME: bus.eventBusName, SNAPSHOT_EVERY: '50', FEATURE_GATES: '' };
}

/** What the writer's code may do, wherever it runs (the writer, the triage). */
export function grantWriterCode(fn: ServiceFunction, props: { table: ITable; bus: IEventBus; timers: Timers }): void {
  fn.bindTable(props.table, 'readWrite');
  props.timers.grantScheduling(fn);
  // It may put only rejections on the bus, never an event that looks like a cluster's.
  fn.addToRolePolicy(new PolicyStatement({
    actions: ['events:PutEvents'],
    resources: [props.bus.eventBusArn],
    conditions: { StringEquals: { 'events:source': REJECTION_SOURCE } },
  }));
}
