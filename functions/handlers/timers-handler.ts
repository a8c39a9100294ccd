import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { z } from 'zod';
import type { EventStore } from '../../shared/app/event-store.ts';
import { observationEntry } from '../../shared/app/log-codec.ts';
import { TimeSchema } from '../../shared/k8s/schema-helpers.ts';
import { logger } from '../commons/powertools.ts';

/** What a schedule hands the timers function: which Job, and the time it was due. */
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

/**
 * A timer fired: append a Tick observed at the due time, so the Job's deadline or backoff is
 * evaluated at that time. The Tick's eventId names the due time, so a schedule firing twice
 * appends one Tick.
 */
export async function fireTimer(store: EventStore, input: TimerInput, now: string): Promise<void> {
  const { stream, at } = input;
  const tick = { type: 'Tick' as const, eventId: `tick/${at}`, clusterId: stream.clusterId, observedAt: at };
  await store.append(stream, [observationEntry(tick)], now);
}

export function createTimersHandler(deps: { store: EventStore; clock: () => string }) {
  return middy(async (event: unknown, _context: Context): Promise<void> => {
    const input = TimerInputSchema.safeParse(event);
    if (!input.success) {
      logger.error('timer input rejected', { issues: input.error.issues });
      return;
    }
    await fireTimer(deps.store, input.data, deps.clock());
  }).use(injectLambdaContext(logger));
}
