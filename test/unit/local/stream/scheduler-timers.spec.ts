import { ConflictException, CreateScheduleCommand, UpdateScheduleCommand } from '@aws-sdk/client-scheduler';
import { describe, expect, it } from 'vitest';
import { schedulerTimers } from '../../../../functions/aws/scheduler-timers.ts';
import { TimerRecordSchema } from '../../../../functions/handlers/writer/timer-record.ts';

// Given a Job that asks to be woken up, when the writer schedules it, then the one-time
// schedule's target is the ingest stream itself: the timer record as input, keyed by the Job uid.

const STREAM_ARN = 'arn:aws:kinesis:eu-west-1:123456789012:stream/jobfold-ingest';
const stream = { kind: 'Job' as const, clusterId: 'c1', namespace: 'default', uid: 'job-uid-1' };
const options = { group: 'jobfold', targetArn: STREAM_ARN, roleArn: 'arn:aws:iam::123456789012:role/scheduler', deadLetterArn: 'arn:aws:sqs:eu-west-1:123456789012:timers-dlq' };

function client(conflict = false) {
  const sent: Array<CreateScheduleCommand | UpdateScheduleCommand> = [];
  return {
    sent,
    send: async (command: CreateScheduleCommand | UpdateScheduleCommand) => {
      sent.push(command);
      if (conflict && command instanceof CreateScheduleCommand) throw new ConflictException({ Message: 'exists', message: 'exists', $metadata: {} });
      return {};
    },
  };
}

describe('timers as Scheduler schedules targeting the ingest stream', () => {
  it('puts the timer record into the stream, keyed by the Job uid, at the due time rounded up to the whole minute (the Scheduler fires within it, never before)', async () => {
    const fake = client();
    await schedulerTimers(fake as never, options).schedule(stream, '2026-01-01T00:00:05.200Z');

    const input = (fake.sent[0] as CreateScheduleCommand).input;
    expect(input).toMatchObject({
      GroupName: 'jobfold',
      ScheduleExpression: 'at(2026-01-01T00:01:00)',
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: STREAM_ARN, KinesisParameters: { PartitionKey: 'job-uid-1' }, DeadLetterConfig: { Arn: options.deadLetterArn } },
    });
    expect(TimerRecordSchema.parse(JSON.parse(input.Target!.Input!))).toEqual({
      source: 'jobfold.timer', 'detail-type': 'Timer Fired', detail: { stream, at: '2026-01-01T00:00:05.200Z' },
    });
  });

  it('keeps a time due on a whole minute as it is', async () => {
    const fake = client();
    await schedulerTimers(fake as never, options).schedule(stream, '2026-01-01T00:02:00Z');
    expect((fake.sent[0] as CreateScheduleCommand).input.ScheduleExpression).toBe('at(2026-01-01T00:02:00)');
  });

  it('moves an existing schedule of the Job instead of creating a second one', async () => {
    const fake = client(true);
    await schedulerTimers(fake as never, options).schedule(stream, '2026-01-01T00:01:00Z');

    expect(fake.sent.map((c) => c.constructor.name)).toEqual(['CreateScheduleCommand', 'UpdateScheduleCommand']);
    expect((fake.sent[1] as UpdateScheduleCommand).input.Name).toBe((fake.sent[0] as CreateScheduleCommand).input.Name);
  });
});
