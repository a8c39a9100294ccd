import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { KinesisClient } from '@aws-sdk/client-kinesis';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { DynamoDbEventStore } from '../adapters/dynamodb-event-store.ts';
import { busRejectionSink } from '../aws/bus-rejection-sink.ts';
import { eventBridgePublisher } from '../aws/eventbridge-publisher.ts';
import { kinesisRangeReader } from '../aws/kinesis-range-reader.ts';
import { kinesisRecordPutter } from '../aws/kinesis-record-putter.ts';
import { sqsParkedSink } from '../aws/sqs-parked-sink.ts';
import { sqsRequeue } from '../aws/sqs-requeue.ts';
import { createRecordWriter } from '../handlers/writer-handler.ts';
import type { TriageHandlerDeps } from '../handlers/triage-handler.ts';
import { schedulerTimers } from '../aws/scheduler-timers.ts';
import { cursorKeyFrom } from '../query/list-cursor.ts';
import { foldConfig, readEnv, type Env } from './config.ts';
import type { KubeDeps } from '../kube/fleet-reads.ts';
import { LogCache } from '../kube/log-cache.ts';

// Wiring for Lambda: the real AWS clients, configured from the environment. Clients are
// created once per cold start and reused across invocations; each function's environment is
// parsed once (a zod parse at cold start costs milliseconds: bench/cold-start.ts).

const clock = () => new Date().toISOString();

function store(env: Env) {
  return new DynamoDbEventStore({ client: new DynamoDBClient({}), tableName: env.TABLE_NAME });
}

export function awsIngestDeps() {
  const env = readEnv();
  return { store: store(env), rejections: busRejectionSink(new EventBridgeClient({}), env.BUS_NAME), clock };
}

/** Timers as Scheduler schedules that put a timer record into the ingest stream (cdk/constructs/timers.ts). */
export function awsTimers(env: Env = readEnv()) {
  return schedulerTimers(new SchedulerClient({}), {
    group: env.SCHEDULE_GROUP,
    targetArn: env.TIMERS_TARGET_ARN,
    roleArn: env.SCHEDULER_ROLE_ARN,
    deadLetterArn: env.TIMERS_DLQ_ARN,
  });
}

/** The log writer: the store, the fold's gates, timers, and where refused records go. */
export function awsWriterDeps(env: Env = readEnv()) {
  return {
    store: store(env),
    clock,
    config: foldConfig(env.FEATURE_GATES, env.CLOCK_SKEW_SECONDS),
    snapshotEvery: env.SNAPSHOT_EVERY,
    timers: awsTimers(env),
    rejections: busRejectionSink(new EventBridgeClient({}), env.BUS_NAME),
  };
}

/** The dead-letter triage: the writer's own code and deps, the ingest stream, the parked queue. */
export function awsTriageDeps(): TriageHandlerDeps {
  const env = readEnv();
  const writer = awsWriterDeps(env);
  const kinesis = new KinesisClient({});
  const sqs = new SQSClient({});
  return {
    write: createRecordWriter(writer),
    reader: kinesisRangeReader(kinesis, env.STREAM_ARN),
    stream: kinesisRecordPutter(kinesis, env.STREAM_ARN),
    rejections: writer.rejections,
    parked: sqsParkedSink(sqs, env.PARKED_QUEUE_URL),
    requeue: sqsRequeue(sqs),
    maxReceives: env.TRIAGE_MAX_RECEIVES,
  };
}

export function awsPublishDeps() {
  const env = readEnv();
  return { store: store(env), publisher: eventBridgePublisher(new EventBridgeClient({}), env.BUS_NAME), clock };
}

export function awsStoreDeps() {
  const env = readEnv();
  return { store: store(env), clock, config: foldConfig(env.FEATURE_GATES, env.CLOCK_SKEW_SECONDS) };
}

export function awsQueryDeps() {
  const env = readEnv();
  return { store: store(env), config: foldConfig(env.FEATURE_GATES, env.CLOCK_SKEW_SECONDS), cursorKey: cursorKeyFrom(env.CURSOR_KEY) };
}

/** The kube API: the query API's store and cursor key, the clock, and jobfold's version (JOBFOLD_VERSION). */
export function awsKubeDeps(): KubeDeps {
  return { ...awsQueryDeps(), now: Date.now, jobfoldVersion: process.env['JOBFOLD_VERSION'] ?? 'unknown', logCache: new LogCache() };
}
