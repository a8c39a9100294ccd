import type { EventStore, StreamId } from '../../shared/app/event-store.ts';

// After a restart on a kept database (`npm start -- --data DIR`), what was in flight lived in
// memory only: the timers (in AWS, EventBridge Scheduler keeps them), the table stream's
// triggers and the publish loop's wake-ups. Each Job not finished gets back the timer its
// writer last asked for (a batch cut short by the stop is redelivered from the stream's journal,
// and its writer finishes it): nothing decides a Job beside its writer, at a time its log does
// not hold. Every JobSet is reconciled once (its commits are conditioned on the head), and the
// publish loop sends any outbox item left unsent.

const PAGE = 100;

export interface ResumeTargets {
  /** A Job not finished: re-arm the timer its writer last asked for, if any. */
  readonly wakeJob: (stream: StreamId) => void;
  /** A JobSet: a reconcile, as the table stream's trigger runs it. */
  readonly reconcileJobSet: (stream: StreamId) => void;
  readonly publish: () => void;
}

/** Wakes every stored Job not finished and reconciles every JobSet, then a publish sweep; returns how many. */
export async function resumeStoredWork(store: EventStore, targets: ResumeTargets): Promise<number> {
  let count = 0;
  for (const kind of ['Job', 'JobSet'] as const) {
    let cursor: string | undefined;
    do {
      const page = await store.listJobs({ kind, limit: PAGE, ...(cursor === undefined ? {} : { cursor }) });
      for (const { clusterId, namespace, uid, finishedAt } of page.items) {
        const stream: StreamId = { kind, clusterId, namespace, uid };
        if (kind === 'JobSet') targets.reconcileJobSet(stream);
        else if (finishedAt === undefined) targets.wakeJob(stream);
        else continue;
        count++;
      }
      cursor = page.cursor;
    } while (cursor !== undefined);
  }
  targets.publish();
  return count;
}
