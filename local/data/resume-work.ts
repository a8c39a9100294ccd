import type { EventStore, StreamId } from '../../shared/log/event-store.ts';

// After a restart on a kept database (`npm start -- --data DIR`), what was in flight lived in
// memory only: the timers (in AWS, EventBridge Scheduler keeps them), the table stream's
// and the publish loop's wake-ups. Each Job not finished gets back the timer its writer last
// asked for (a batch cut short by the stop is redelivered from the stream's journal, and its
// writer finishes it, JobSets' included): nothing decides a log beside its writer, at a time the
// log does not hold. The publish loop sends any outbox item left unsent.

const PAGE = 100;

export interface ResumeTargets {
  /** A Job not finished: re-arm the timer its writer last asked for, if any. */
  readonly wakeJob: (stream: StreamId) => void;
  readonly publish: () => void;
}

/** Wakes every stored Job not finished, then a publish sweep; returns how many Jobs. */
export async function resumeStoredWork(store: EventStore, targets: ResumeTargets): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await store.listJobs({ kind: 'Job', limit: PAGE, ...(cursor === undefined ? {} : { cursor }) });
    for (const { clusterId, namespace, uid, finishedAt } of page.items) {
      if (finishedAt !== undefined) continue;
      targets.wakeJob({ kind: 'Job', clusterId, namespace, uid });
      count++;
    }
    cursor = page.cursor;
  } while (cursor !== undefined);
  targets.publish();
  return count;
}
