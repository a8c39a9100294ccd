import * as z from 'zod';
import { TimeSchema } from '../../../shared/k8s/schema-helpers.ts';

// A timer (a Job's deadline, backoff or expectations running out) reaches its Job as a record
// in the ingest stream, beside the cluster's events: the writer turns it into a Tick observed
// at the due time (stream-records.ts).

/** Which Job (or JobSet) a timer is for, and the time it was due. */
export const TimerInputSchema = z.object({
  stream: z.object({
    kind: z.enum(['Job', 'JobSet']),
    clusterId: z.string().min(1),
    namespace: z.string().min(1),
    uid: z.string().min(1),
  }),
  at: TimeSchema,
});
export type TimerInput = z.infer<typeof TimerInputSchema>;

/**
 * A timer as it travels to the writer: a record in the ingest stream, shaped like an EventBridge
 * event so the writer reads cluster events and timers alike. The Scheduler puts it (its
 * templated Kinesis target, functions/aws/scheduler-timers.ts); locally LocalTimers does.
 */
export const TIMER_SOURCE = 'jobfold.timer';
export const TIMER_DETAIL_TYPE = 'Timer Fired';
export const TimerRecordSchema = z.object({
  source: z.literal(TIMER_SOURCE),
  'detail-type': z.literal(TIMER_DETAIL_TYPE),
  detail: TimerInputSchema,
});
export type TimerRecord = z.infer<typeof TimerRecordSchema>;

/** The record a timer puts into the stream for `stream`, due at `at`. */
export function timerRecord(stream: TimerInput['stream'], at: string): TimerRecord {
  return { source: TIMER_SOURCE, 'detail-type': TIMER_DETAIL_TYPE, detail: { stream, at } };
}

/** A timer's partition key: the uid of its Job (or JobSet), as the forwarder keys its events. */
export const timerPartitionKey = (stream: TimerInput['stream']): string => stream.uid;
