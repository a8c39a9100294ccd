import type { EventStore, StreamId } from '../../../shared/app/event-store.ts';
import type { PodArchive } from '../../../shared/app/pod-archive.ts';
import { sweepPending } from '../../../shared/app/publish.ts';
import { StateCache } from '../../../shared/decide/state-cache.ts';
import type { OutboundEvent } from '../../../shared/contract/outbound.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/job/constants.ts';
import type { Observation } from '../../../shared/job/events.ts';
import { anIndexedJob, aPod, at, CLUSTER, jobObserved, podDeleted, podObserved } from '../../support/builders.ts';
import { CrashableStore, RecordingPublisher, SimulatedCrash, type CrashPoint } from '../../support/service-harness.ts';
import { writeDeps, writeJob } from './write-support.ts';

// The Jobs and the crashing runs of exactly-once.spec.ts (in memory) and of
// test/integration/service/writer-exactly-once.spec.ts (DynamoDB Local).

export const limits = { pageBytes: 300, stepBytes: 1 };
export const points: CrashPoint[] = ['commit', 'afterCommit'];

export interface Scenario {
  readonly stream: StreamId;
  readonly batches: readonly (readonly Observation[])[];
}

export function aJobScenario(uid: string, managed: boolean, outcome: 'leader succeeds' | 'a pod fails'): Scenario {
  const stream: StreamId = { kind: 'Job', clusterId: CLUSTER, namespace: 'default', uid };
  const pods = 8;
  const spec = {
    successPolicy: { rules: [{ succeededIndexes: '0' }] },
    podFailurePolicy: { rules: [{ action: 'FailJob' as const, onExitCodes: { operator: 'In' as const, values: [3] } }] },
    ...(managed ? { managedBy: JOBFOLD_CONTROLLER_NAME } : {}),
  };
  const job = jobObserved(anIndexedJob(pods, spec, { uid }), at(0));
  const pod = (i: number, options: Parameters<typeof aPod>[0] = {}) => aPod({ index: i, uid: `${uid}-${i}`, ...options });
  const indexes = Array.from({ length: pods }, (_, i) => i);
  const tipper = outcome === 'leader succeeds' ? 0 : 5;
  const tipping = outcome === 'leader succeeds' ? pod(0, { phase: 'Succeeded' }) : pod(5, { phase: 'Failed', exitCode: 3 });
  const others = indexes.filter((i) => i !== tipper);
  return {
    stream,
    batches: [
      [job],
      indexes.flatMap((i) => [podObserved(pod(i, { phase: 'Pending', nodeName: null }), at(1)), podObserved(pod(i, { ready: true }), at(1))]),
      [podObserved(tipping, at(2))],
      // the cluster applies the terminations: each pod fails as it is deleted, then is gone
      others.map((i) => podObserved(pod(i, { phase: 'Failed', exitCode: 143, deletionTimestamp: at(3) }), at(3))),
      [...indexes.map((i) => podDeleted(`${uid}-${i}`, at(4)))],
    ],
  };
}

export interface Crash {
  readonly batch: number;
  readonly step: number;
  readonly point: CrashPoint;
}

/** Writes the scenario's batches, crashing once where told; Kinesis redelivers a failed batch. */
export async function run(scenario: Scenario, inner: EventStore & PodArchive, crash?: Crash) {
  const store = new CrashableStore(inner);
  const deps = writeDeps(store, { limits, cache: new StateCache() });
  const bus = new RecordingPublisher();
  const stepsPerBatch: number[] = [];
  let crashes = 0;
  for (const [b, batch] of scenario.batches.entries()) {
    let commits = 0;
    store.beforeCommit = async () => {
      commits += 1;
      if (crash?.batch === b && crash.step === commits) store.crashOnce(crash.point);
    };
    for (let delivered = false; !delivered; ) {
      try {
        await writeJob(deps, scenario.stream, [...batch]);
        delivered = true;
      } catch (error) {
        if (!(error instanceof SimulatedCrash)) throw error;
        if (++crashes > 1) throw new Error('crashed twice');
      }
      await sweepPending({ store, publisher: bus, clock: () => at(9) });
    }
    stepsPerBatch.push(commits);
  }
  store.beforeCommit = undefined;
  const log = (await store.read(scenario.stream)).entries.map(({ seq, eventId, type, body, hash }) => ({ seq, eventId, type, body, hash }));
  return { log, sent: bus.sent, stepsPerBatch, crashes };
}

export const kinds = (sent: readonly OutboundEvent[]) => {
  const counts: Record<string, number> = {};
  for (const e of sent) counts[e.detailType] = (counts[e.detailType] ?? 0) + 1;
  return counts;
};

export const ids = (sent: readonly OutboundEvent[]) => sent.map((e) => `${e.detailType} ${e.commandId}`).sort();

/** Every crash point of the run without a crash: each step of each batch, before and after. */
export function crashesOf(stepsPerBatch: readonly number[]): Crash[] {
  return stepsPerBatch.flatMap((steps, batch) =>
    Array.from({ length: steps }, (_, i) => points.map((point) => ({ batch, step: i + 1, point }))).flat());
}
