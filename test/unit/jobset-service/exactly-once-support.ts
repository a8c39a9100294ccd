import type { EventStore, StreamId } from '../../../shared/app/event-store.ts';
import type { PodArchive } from '../../../shared/app/pod-archive.ts';
import { sweepPending } from '../../../shared/app/publish.ts';
import { JOBFOLD_JOBSET_CONTROLLER_NAME } from '../../../shared/contract/jobset-outbound.ts';
import type { OutboundEvent } from '../../../shared/contract/outbound.ts';
import { StateCache } from '../../../shared/decide/state-cache.ts';
import { writeBatch } from '../../../shared/decide/write-batch.ts';
import { jobSetDecider, type JobSetLogObservation } from '../../../shared/jobset/index.ts';
import { CrashableStore, RecordingPublisher, SimulatedCrash, type CrashPoint } from '../../support/service-harness.ts';
import { at, jobObserved, jobSetObserved } from '../jobset/support/builders.ts';

// The JobSet and the crashing runs of exactly-once.spec.ts (in memory) and of
// test/integration/service/jobset-exactly-once.spec.ts (DynamoDB Local): a managed JobSet of 70
// child Jobs, whose first sync takes several commit steps (steps cut small), then its Job 0
// failed, which restarts it (70 deletions).

export const limits = { stepBytes: 4_000 };
export const REPLICAS = 70;

export interface Crash {
  readonly batch: number;
  readonly step: number;
  readonly point: CrashPoint;
}

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
  const store = new CrashableStore(inner);
  const deps = { store, clock: () => at(60), cache: new StateCache(), limits };
  const bus = new RecordingPublisher();
  const commitsPerBatch: number[] = [];
  let crashes = 0;
  for (const [b, batch] of jobSetBatches(uid).entries()) {
    let commits = 0;
    store.beforeCommit = async () => {
      if (++commits === crash?.step && crash.batch === b) store.crashOnce(crash.point);
    };
    for (let done = false; !done;) {
      try {
        await writeBatch(jobSetDecider(), deps, stream, batch);
        done = true;
      } catch (error) {
        if (!(error instanceof SimulatedCrash)) throw error;
        crashes += 1;
        deps.cache = new StateCache();
      }
      await sweepPending({ store, publisher: bus, clock: () => at(90) });
    }
    commitsPerBatch.push(commits);
  }
  store.beforeCommit = undefined;
  const log = (await store.read(stream)).entries.map(({ seq, eventId, type, body, hash }) => ({ seq, eventId, type, body, hash }));
  return { log, commitsPerBatch, crashes, ids: bus.sent.map((e) => `${e.detailType} ${e.commandId}`).sort() };
}

/** Every crash point of the run without a crash: each commit step of each batch, before and after. */
export function crashesOf(commitsPerBatch: readonly number[]): Crash[] {
  return commitsPerBatch.flatMap((steps, batch) =>
    Array.from({ length: steps }, (_, i) => (['commit', 'afterCommit'] as const).map((point) => ({ batch, step: i + 1, point }))).flat());
}
