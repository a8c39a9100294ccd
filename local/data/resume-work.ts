import type { EventStore, StreamId } from '../../shared/app/event-store.ts';

// After a restart on a kept database (`npm start -- --data DIR`), what was in flight lived in
// memory only: the table stream's triggers, the timers (in AWS, EventBridge Scheduler keeps
// them) and the publish loop's wake-ups. Reconciling every Job and JobSet once brings them back:
// a reconcile decides only what its log does not hold yet (commits are conditioned on the head),
// and schedules the Job's next wake-up; the publish loop then sends any outbox item left unsent.

const PAGE = 100;

export interface ResumeTargets {
  readonly reconcile: (stream: StreamId) => void;
  readonly publish: () => void;
}

/** Triggers a reconcile of every stored Job and JobSet and a publish sweep; returns how many. */
export async function resumeStoredWork(store: EventStore, targets: ResumeTargets): Promise<number> {
  let count = 0;
  for (const kind of ['Job', 'JobSet'] as const) {
    let cursor: string | undefined;
    do {
      const page = await store.listJobs({ kind, limit: PAGE, ...(cursor === undefined ? {} : { cursor }) });
      for (const { clusterId, namespace, uid } of page.items) {
        targets.reconcile({ kind, clusterId, namespace, uid });
        count++;
      }
      cursor = page.cursor;
    } while (cursor !== undefined);
  }
  targets.publish();
  return count;
}
