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
        // Scheduler has second granularity: round up, so the Job is never woken before it is due.
        ScheduleExpression: `at(${new Date(Math.ceil(Date.parse(at) / 1000) * 1000).toISOString().slice(0, 19)})`,
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
