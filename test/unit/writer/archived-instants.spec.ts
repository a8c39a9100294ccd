import { describe, expect, it } from 'vitest';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { loadState } from '../../../shared/decide/load-log.ts';
import { jobDecider } from '../../../shared/job/index.ts';
import { outcomeSeenAt } from '../../../shared/job/pod-record.ts';
import type { JobState } from '../../../shared/job/state.ts';
import { aJob, anIndexedJob, aPod, at, CLUSTER, JOB_UID, jobObserved, podObserved, tick } from '../../support/builders.ts';
import { evolve, type JobEvent } from '../../../shared/job/evolve.ts';
import { entryEvent } from '../../../shared/job/log-codec.ts';
import { DEFAULT_FOLD_CONFIG, initialState } from '../../../shared/job/state.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { NoMarkersStore, writeDeps, writeJob } from './write-support.ts';

// Issues 20, 21: "same log => same status", whatever the snapshot cadence. A Job with a success
// policy decides between criteria by the instants its pods' outcomes were seen
// (criterion-instants.ts), so a cold load from a snapshot puts back every archived pod with its
// instant, as the warm state and a fold of the whole log hold it. Other Jobs read back only the
// archived pods their new events name, and the whole archive only to decide again a batch whose
// decisions read every pod (interim-instants.ts readsEveryPod): an interim condition logs the
// instant its criterion was met, read from every pod, and a finish waits for the cluster's.

const stream: StreamId = { kind: 'Job', clusterId: CLUSTER, namespace: 'default', uid: JOB_UID };

async function writtenColdWithSnapshots(spec: Parameters<typeof anIndexedJob>[1]) {
  const store = new NoMarkersStore();
  // A snapshot after every batch and no state cache: every batch loads the Job cold.
  const deps = writeDeps(store, { snapshotEvery: 1 });
  await writeJob(deps, stream, [jobObserved(anIndexedJob(3, spec), at(0))]);
  // index 1 succeeded, seen tracked at 0:05, then its finalizer gone: counted, settled, archived
  await writeJob(deps, stream, [podObserved(aPod({ index: 1, phase: 'Succeeded' }), at(5))]);
  await writeJob(deps, stream, [podObserved(aPod({ index: 1, phase: 'Succeeded', finalizer: false }), at(6))]);
  // later batches name only index 0's pod
  await writeJob(deps, stream, [podObserved(aPod({ index: 0 }), at(10))]);
  await writeJob(deps, stream, [podObserved(aPod({ index: 0, ready: at(11) }), at(12))]);
  const cold = (await loadState(jobDecider(deps.config), store, stream)).state;
  const whole = (await loadState(jobDecider(deps.config), store, stream, { fromStart: true })).state;
  return { store, cold, whole };
}

const instantOf = (state: JobState, uid: string) => {
  const pod = state.pods.get(uid);
  return pod === undefined ? 'not loaded' : outcomeSeenAt(pod);
};

describe('a cold load from a snapshot', () => {
  it('puts back every archived pod of a Job with a success policy, with the instant its outcome was seen', async () => {
    // given a Job with a success policy whose index-1 pod was archived, later batches naming only index 0
    const { store, cold, whole } = await writtenColdWithSnapshots({ successPolicy: { rules: [{ succeededIndexes: '0-1' }] } });

    // when loaded cold from its last snapshot, then pod-1 is back, its instant 0:05 as in the fold of the whole log
    expect((await store.loadAllArchivedPods(stream)).map((pod) => pod.uid)).toContain('pod-1');
    expect(instantOf(whole, 'pod-1')).toBe(Date.parse(at(5)));
    expect(instantOf(cold, 'pod-1')).toBe(Date.parse(at(5)));
    expect(cold.pods.get('pod-1')?.fromArchive).toBe(true);
  });

  it('puts them back with the instant they were first seen (cluster-finish.ts), as the whole log holds it', async () => {
    // given the same log of a Job with a success policy
    const { cold, whole } = await writtenColdWithSnapshots({ successPolicy: { rules: [{ succeededIndexes: '0-1' }] } });

    // when loaded cold, then pod-1 was first seen at 0:05, as in the fold of the whole log
    expect(whole.pods.get('pod-1')?.firstSeenAt).toBe(Date.parse(at(5)));
    expect(cold.pods.get('pod-1')?.firstSeenAt).toBe(Date.parse(at(5)));
  });

  it('reads back only the archived pods the tail names for a Job without a success policy', async () => {
    // given the same log of a Job without a success policy
    const { store, cold } = await writtenColdWithSnapshots({});

    // when loaded cold, then the archived pod-1 is not read back (nothing of it is asked)
    expect((await store.loadAllArchivedPods(stream)).map((pod) => pod.uid)).toContain('pod-1');
    expect(instantOf(cold, 'pod-1')).toBe('not loaded');
  });

  it('decides FailureTarget of a Job without a success policy again on the whole archive, logging the criterion\'s instant a replay reads', async () => {
    const store = new NoMarkersStore();
    const wholeReads = { count: 0 };
    const loadAll = store.loadAllArchivedPods.bind(store);
    store.loadAllArchivedPods = async (s) => {
      wholeReads.count += 1;
      return loadAll(s);
    };
    // given a Job (backoffLimit 0) written cold with a snapshot after every batch, whose sync asked for 2 pods at 0:00
    const deps = writeDeps(store, { snapshotEvery: 1 });
    await writeJob(deps, stream, [jobObserved(aJob({ parallelism: 2, completions: 2, backoffLimit: 0 }), at(0))]);
    await writeJob(deps, stream, [tick(at(0))]);
    // and p0 seen failed at 0:01, alone (the sync waits for the other creation): counted, archived
    await writeJob(deps, stream, [podObserved(aPod({ name: 'p0', phase: 'Failed' }), at(1))]);
    expect(wholeReads.count).toBe(0);

    // when p1 is first seen at 6:41, after the expectations' timeout
    await writeJob(deps, stream, [podObserved(aPod({ name: 'p1' }), at(401))]);

    // then the batch was decided again on the whole archive, once, and FailureTarget logs 0:01 (p0's failure)
    expect(wholeReads.count).toBe(1);
    const { entries } = await store.read(stream, { afterSeq: 0 });
    const log: JobEvent[] = entries.map(entryEvent);
    const failureTarget = log.find((e) => e.type === 'JobConditionChanged' && e.condition.type === 'FailureTarget');
    expect(failureTarget?.type === 'JobConditionChanged' ? failureTarget.evidence.metAt : 'none').toBe(at(1));
    // and the status is a replay's: p1, seen after the cluster finished the Job (5:01), is not counted
    const replay = initialState(DEFAULT_FOLD_CONFIG);
    for (const event of log) evolve(replay, event);
    const cold = (await loadState(jobDecider(deps.config), store, stream)).state;
    expect(jobStatus(cold)).toEqual(jobStatus(replay));
    expect(jobStatus(replay)).toMatchObject({ failed: 1 });
  });
});
