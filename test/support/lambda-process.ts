import type { Context } from 'aws-lambda';
import { createWriterHandler } from '../../functions/handlers/writer-handler.ts';
import type { EventStore } from '../../shared/log/event-store.ts';
import type { PodArchive } from '../../shared/log/pod-archive.ts';
import { sweepPending } from '../../shared/publish/publish.ts';
import { DEFAULT_FOLD_CONFIG } from '../../shared/job/state.ts';
import { at } from './builders.ts';
import { kinesisEvent } from './kinesis-records.ts';
import type { RecordingPublisher } from './service-harness.ts';

// One Lambda process of the write side, for tests that kill processes: a writer handler with its
// own empty cache (a cold start) and a publisher, over a store the test may make crash
// (service-harness.ts CrashableStore). What a process acknowledged is what AWS will not redeliver.

const context = { functionName: 'writer', awsRequestId: 'crash', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;

export interface LambdaProcess {
  /** Delivers one Kinesis batch; true when the writer acknowledged all of it. */
  write(batch: readonly unknown[]): Promise<boolean>;
  /** Runs the publisher until the outbox is empty (throws what a crash throws). */
  publishAll(): Promise<void>;
}

export function lambdaProcess(store: EventStore & PodArchive, bus: RecordingPublisher): LambdaProcess {
  const writer = createWriterHandler({
    store, clock: () => at(10), config: DEFAULT_FOLD_CONFIG,
    rejections: { reject: async (_text, errors) => { throw new Error(`refused: ${JSON.stringify(errors)}`); } },
    timers: { schedule: async () => undefined },
  });
  return {
    write: async (batch) => {
      const response = await writer(kinesisEvent(batch), context).catch(() => undefined);
      return response !== undefined && response.batchItemFailures.length === 0;
    },
    publishAll: async () => {
      const { failedItems } = await sweepPending({ store, publisher: bus, clock: () => at(11) });
      if (failedItems.length > 0) throw new Error(`outbox items not published: ${failedItems.join(', ')}`);
    },
  };
}
