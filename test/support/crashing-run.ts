import type { EventStore, StreamId } from '../../shared/log/event-store.ts';
import type { PodArchive } from '../../shared/log/pod-archive.ts';
import { sweepPending } from '../../shared/publish/publish.ts';
import type { OutboundEvent } from '../../shared/contract/outbound.ts';
import { CrashableStore, RecordingPublisher, SimulatedCrash, type CrashPoint } from './service-harness.ts';

// Exactly once across crashes, for any kind: the writer dies once, before or after one commit
// step of one batch; the batch is delivered again (as Kinesis does); the publisher drains the
// outbox after every delivery. The Job and the JobSet specs (test/unit/writer/exactly-once*,
// test/unit/jobset-service/exactly-once*, and their DynamoDB Local runs in
// test/integration/service/writer-exactly-once.spec.ts) run their batches through this.

export interface Crash {
  readonly batch: number;
  readonly step: number;
  readonly point: CrashPoint;
}

export interface CrashingRun<B> {
  readonly stream: StreamId;
  readonly batches: readonly B[];
  /** Writes one batch; `afterCrash`: the delivery after the crash (a new process, if the caller models one). */
  readonly write: (store: CrashableStore, batch: B, afterCrash: boolean) => Promise<void>;
  /** The publisher's clock. */
  readonly publishedAt: string;
}

/** The log written (seq, eventId, type, body, hash), every event published, commits per batch, crashes. */
export async function crashingRun<B>(inner: EventStore & PodArchive, run: CrashingRun<B>, crash?: Crash) {
  const store = new CrashableStore(inner);
  const bus = new RecordingPublisher();
  const stepsPerBatch: number[] = [];
  let crashes = 0;
  for (const [b, batch] of run.batches.entries()) {
    let commits = 0;
    store.beforeCommit = async () => {
      commits += 1;
      if (crash?.batch === b && crash.step === commits) store.crashOnce(crash.point);
    };
    for (let delivered = false, afterCrash = false; !delivered; ) {
      try {
        await run.write(store, batch, afterCrash);
        delivered = true;
      } catch (error) {
        if (!(error instanceof SimulatedCrash)) throw error;
        if (++crashes > 1) throw new Error('crashed twice');
        afterCrash = true;
      }
      await sweepPending({ store, publisher: bus, clock: () => run.publishedAt });
    }
    stepsPerBatch.push(commits);
  }
  store.beforeCommit = undefined;
  const log = (await store.read(run.stream)).entries.map(({ seq, eventId, type, body, hash }) => ({ seq, eventId, type, body, hash }));
  return { log, sent: bus.sent, stepsPerBatch, crashes };
}

/** Every crash point of the run without a crash: each commit step of each batch, before and after. */
export function crashesOf(stepsPerBatch: readonly number[]): Crash[] {
  return stepsPerBatch.flatMap((steps, batch) =>
    Array.from({ length: steps }, (_, i) => (['commit', 'afterCommit'] as const).map((point) => ({ batch, step: i + 1, point }))).flat());
}

/** What was published, as comparable ids. */
export const ids = (sent: readonly OutboundEvent[]) => sent.map((e) => `${e.detailType} ${e.commandId}`).sort();

/** How many of each detail type were published. */
export const kinds = (sent: readonly OutboundEvent[]) => {
  const counts: Record<string, number> = {};
  for (const e of sent) counts[e.detailType] = (counts[e.detailType] ?? 0) + 1;
  return counts;
};

/**
 * `value` with the object's uid replaced and chain hashes left out (they cover the uid): runs
 * of one table each write their own object, and compare as if they wrote the same.
 */
export function withoutUid(value: unknown, uid: string): unknown {
  const text = JSON.stringify(value, (key, v: unknown) => (key === 'hash' || key === 'chainHead' ? undefined : v));
  return JSON.parse(text.replaceAll(uid, 'UID')) as unknown;
}
