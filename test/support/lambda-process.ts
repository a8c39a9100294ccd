import type { Context } from 'aws-lambda';
import { createWriterHandler } from '../../functions/handlers/writer-handler.ts';
import type { EventStore } from '../../shared/app/event-store.ts';
import type { PodArchive } from '../../shared/app/pod-archive.ts';
import { publishPending } from '../../shared/app/publish.ts';
import type { Publisher } from '../../shared/ports.ts';
import type { OutboundEvent } from '../../shared/contract/outbound.ts';
import { DEFAULT_FOLD_CONFIG } from '../../shared/job/state.ts';
import { at } from './builders.ts';
import { kinesisEvent } from './kinesis-records.ts';

// One Lambda process of the write side, for tests that kill processes: a writer handler with its
// own empty cache (a cold start) and a publisher, over a store the test may make crash
// (service-harness.ts CrashableStore). What a process acknowledged is what AWS will not redeliver.

const context = { functionName: 'writer', awsRequestId: 'crash', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;

/** The outbound bus: records every event published (at least once: a repeat keeps its commandId). */
export class RecordingPublisher implements Publisher {
  readonly sent: OutboundEvent[] = [];
  async publish(events: readonly OutboundEvent[]) {
    this.sent.push(...events);
    return { failed: [] };
  }
}

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
      for (let round = 0; round < 50; round++) {
        if ((await publishPending({ store, publisher: bus, clock: () => at(11) })).items === 0) return;
      }
      throw new Error('the outbox never drained');
    },
  };
}
