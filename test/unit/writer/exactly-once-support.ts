import type { EventStore, StreamId } from '../../../shared/log/event-store.ts';
import type { PodArchive } from '../../../shared/log/pod-archive.ts';
import { StateCache } from '../../../shared/decide/state-cache.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import type { Observation } from '../../../shared/job/events.ts';
import { anIndexedJob, aPod, at, CLUSTER, jobObserved, podDeleted, podObserved } from '../../support/builders.ts';
import { crashingRun, type Crash } from '../../support/crashing-run.ts';
import { writeDeps, writeJob } from './write-support.ts';

// The Jobs and the crashing runs of exactly-once.spec.ts (in memory) and of
// test/integration/service/writer-exactly-once.spec.ts (DynamoDB Local).

export const limits = { pageBytes: 300, stepBytes: 1 };

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

/** Writes the scenario's batches, crashing once where told; Kinesis redelivers a failed batch. */
export function run(scenario: Scenario, inner: EventStore & PodArchive, crash?: Crash) {
  const cache = new StateCache();
  return crashingRun(inner, {
    stream: scenario.stream,
    batches: scenario.batches,
    write: async (store, batch) => void await writeJob(writeDeps(store, { limits, cache }), scenario.stream, [...batch]),
    publishedAt: at(9),
  }, crash);
}
