import type { EventStore, StreamId } from '../../../shared/log/event-store.ts';
import type { PodArchive } from '../../../shared/log/pod-archive.ts';
import { JOBFOLD_JOBSET_CONTROLLER_NAME } from '../../../shared/jobset/constants.ts';
import { StateCache } from '../../../shared/decide/state-cache.ts';
import { writeBatch } from '../../../shared/decide/write-batch.ts';
import { jobSetDecider, type JobSetLogObservation } from '../../../shared/jobset/index.ts';
import { crashingRun, ids, type Crash } from '../../support/crashing-run.ts';
import { at, jobObserved, jobSetObserved } from '../jobset/support/builders.ts';

// The JobSet and the crashing runs of exactly-once.spec.ts (in memory) and of
// test/integration/service/writer-exactly-once.spec.ts (DynamoDB Local): a managed JobSet of 70
// child Jobs, whose first sync takes several commit steps (steps cut small), then its Job 0
// failed, which restarts it (70 deletions).

export const limits = { stepBytes: 4_000 };
export const REPLICAS = 70;

const logged = (observation: ReturnType<typeof jobSetObserved>, eventId: string): JobSetLogObservation => ({ ...observation, eventId });

export function jobSetBatches(uid: string): readonly (readonly JobSetLogObservation[])[] {
  const failed = { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'x', lastTransitionTime: at(5) };
  return [
    [logged(jobSetObserved({ replicatedJobs: [{ name: 'workers', replicas: REPLICAS }], managedBy: JOBFOLD_JOBSET_CONTROLLER_NAME, failurePolicy: { maxRestarts: 2 } }, { uid }), `${uid}/observed`)],
    [logged(jobObserved('workers', 0, { seconds: 5, failed: 1, conditions: [failed] }), `${uid}/failed-0`)],
  ];
}

/** Writes the JobSet's batches, crashing once where told; the batch is delivered again (a new process, no warm state). */
export async function run(uid: string, inner: EventStore & PodArchive, crash?: Crash) {
  const stream: StreamId = { kind: 'JobSet', clusterId: 'c1', namespace: 'default', uid };
  let cache = new StateCache();
  const outcome = await crashingRun(inner, {
    stream,
    batches: jobSetBatches(uid),
    write: async (store, batch, afterCrash) => {
      if (afterCrash) cache = new StateCache();
      await writeBatch(jobSetDecider(), { store, clock: () => at(60), cache, limits }, stream, batch);
    },
    publishedAt: at(90),
  }, crash);
  return { ...outcome, ids: ids(outcome.sent) };
}
