import {
  ConflictException,
  CreateScheduleCommand,
  UpdateScheduleCommand,
  type SchedulerClient,
} from '@aws-sdk/client-scheduler';
import type { StreamId } from '../../shared/log/event-store.ts';
import { stableHash } from '../../shared/job/index.ts';
import { timerPartitionKey, timerRecord } from '../handlers/writer/timer-record.ts';
import type { TimerScheduler } from '../../shared/ports.ts';

export interface SchedulerTimersOptions {
  readonly group: string;
  /** The ingest stream (a Kinesis data stream) the timer record goes into. */
  readonly targetArn: string;
  readonly roleArn: string;
  /** Dead-letter queue for timers the Scheduler could not deliver (empty: none). */
  readonly deadLetterArn?: string;
}

const MINUTE_MS = 60_000;

/**
 * When a timer due at `at` is scheduled (epoch ms): the whole minute at or after it. EventBridge
 * Scheduler invokes its target with 60-second precision: a schedule set to run at 1:00 invokes it
 * between 1:00:00 and 1:00:59, with no flexible time window (docs, "Schedule types on EventBridge
 * Scheduler"), and which second of its minute a schedule set to 1:00:30 fires in is not said: it
 * may fire before it. A Tick that fires early is read at the time asked for, ahead of the
 * cluster's events of the seconds before it, and decides on a view the cluster has not reached (a
 * deadline met early deletes running pods: the closed loop, test/property/job/managed-histories.ts,
 * measured it). Scheduled for the next whole minute, it fires in that minute, never before the
 * Job is due and at most 119 seconds after.
 */
export const scheduledAt = (at: string): number => Math.ceil(Date.parse(at) / MINUTE_MS) * MINUTE_MS;

/** EventBridge Scheduler's documented precision: a schedule fires within this many seconds of the minute it names. */
export const SCHEDULER_PRECISION_SECONDS = 60;

/**
 * Timers as EventBridge Scheduler one-time schedules: one per Job (named from its stream key),
 * moved when the Job needs an earlier or later wake-up, deleted by the Scheduler after firing.
 * The target is the ingest stream (the Scheduler's templated Kinesis PutRecord target): the timer
 * record, keyed by the Job's uid, reaches the Job's writer in order with its events, and the
 * writer appends the Tick and decides.
 */
export function schedulerTimers(client: Pick<SchedulerClient, 'send'>, options: SchedulerTimersOptions): TimerScheduler {
  return {
    async schedule(stream: StreamId, at: string) {
      const input = {
        Name: `jobfold-${stableHash(stream)}`,
        GroupName: options.group,
        ScheduleExpression: `at(${new Date(scheduledAt(at)).toISOString().slice(0, 19)})`,
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' as const },
        ActionAfterCompletion: 'DELETE' as const,
        Target: {
          Arn: options.targetArn,
          RoleArn: options.roleArn,
          Input: JSON.stringify(timerRecord(stream, at)),
          KinesisParameters: { PartitionKey: timerPartitionKey(stream) },
          ...(options.deadLetterArn ? { DeadLetterConfig: { Arn: options.deadLetterArn } } : {}),
        },
      };
      try {
        await client.send(new CreateScheduleCommand(input));
      } catch (error) {
        if (!(error instanceof ConflictException)) throw error;
        await client.send(new UpdateScheduleCommand(input));
      }
    },
  };
}
