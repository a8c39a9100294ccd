import { describe, expect, it } from 'vitest';
import type { LogEntry, StreamId } from '../../../shared/log/event-store.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { JOBFOLD_JOBSET_CONTROLLER_NAME } from '../../../shared/jobset/index.ts';
import { createServiceHarness } from '../../support/service-harness.ts';
import { at, jobObserved } from '../../support/builders.ts';
import { childJobStatusEntry } from '../../../shared/job/child-job-status.ts';
import { evolve } from '../../../shared/job/evolve.ts';
import { initialState } from '../../../shared/job/state.ts';
import { JobSchema } from '../../../shared/k8s/job.ts';
import { saidBy } from '../../../shared/k8s/sent-counts.ts';

// Issue 20, the cost of issue 21's count route (a) (docs/ordering.md, "JobSets: the count"): a
// child Job event that changes no status the JobSet's log holds is reported for its `jobSetSeq`
// only. Its count rides on the next entry of the JobSet's batch that carries later counts, so the
// JobSet's log gets no entry for it, and still notes every count, none before one sent ahead of it.

const CLUSTER = 'c1';
const EPOCH = 1_700_000_000_000;
const jobSetStream: StreamId = { kind: 'JobSet', clusterId: CLUSTER, namespace: 'default', uid: 'js-uid' };

const jobSetEvent = {
  source: `jobfold.cluster.${CLUSTER}`,
  'detail-type': 'JobSet Observed',
  detail: {
    eventId: 'js/1',
    observedAt: at(0),
    object: {
      apiVersion: 'jobset.x-k8s.io/v1alpha2', kind: 'JobSet',
      metadata: { name: 'js', namespace: 'default', uid: 'js-uid', creationTimestamp: at(0), resourceVersion: '1' },
      spec: {
        managedBy: JOBFOLD_JOBSET_CONTROLLER_NAME,
        replicatedJobs: ['a', 'b'].map((name) => ({ name, replicas: 1, template: { spec: { parallelism: 1, completions: 1, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } } } })),
      },
    },
  },
};

/** Child Job `name` as the forwarder sends it at `seconds`, with the JobSet's count `count` and the Job's own `seq`. */
function childJob(name: 'a' | 'b', seconds: number, count: number, seq: number, changes: { suspend?: boolean; annotation?: string } = {}) {
  const jobName = `js-${name}-0`;
  return {
    source: `jobfold.cluster.${CLUSTER}`,
    'detail-type': 'Job Observed',
    detail: {
      eventId: `${jobName}/${count}`,
      observedAt: at(seconds),
      sequence: { epoch: EPOCH, seq, jobSetSeq: count },
      object: {
        apiVersion: 'batch/v1', kind: 'Job',
        metadata: {
          name: jobName, namespace: 'default', uid: `${jobName}-uid`, resourceVersion: String(10 + count), creationTimestamp: at(1),
          labels: { 'jobset.sigs.k8s.io/jobset-name': 'js', 'jobset.sigs.k8s.io/replicatedjob-name': name, 'jobset.sigs.k8s.io/job-index': '0', 'jobset.sigs.k8s.io/restart-attempt': '0' },
          annotations: { note: changes.annotation ?? '' },
          ownerReferences: [{ apiVersion: 'jobset.x-k8s.io/v1alpha2', kind: 'JobSet', name: 'js', uid: 'js-uid', controller: true }],
        },
        spec: { parallelism: 1, completions: 1, suspend: changes.suspend ?? false, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } },
        status: {},
      },
    },
  };
}

/** The JobSet log's child status entries, each as `<Job> [counts]`. */
const childStatuses = (log: readonly LogEntry[]) =>
  log.flatMap((entry) => {
    const body = entry.body as { job?: { metadata: { name: string } }; jobSetSeq?: { counts: number[] } };
    return entry.type === 'JobObserved' && body.job !== undefined ? [`${body.job.metadata.name} [${(body.jobSetSeq?.counts ?? []).join(',')}]`] : [];
  });

describe('Given a JobSet jobfold runs, whose child Jobs a and b have been seen (counts 1, 2)', () => {
  it("when a's next event changes nothing (count 3) and b's suspension follows in the batch (count 4), then b's status carries both counts and a's has no entry", async () => {
    const h = createServiceHarness({ store: new InMemoryEventStore(), now: at(0) });
    expect(await h.deliver([jobSetEvent])).toEqual([]);
    expect(await h.deliver([childJob('a', 1, 1, 1), childJob('b', 1, 2, 1)])).toEqual([]);
    expect(await h.deliver([childJob('a', 2, 3, 2, { annotation: 'resynced' }), childJob('b', 2, 4, 2, { suspend: true })])).toEqual([]);
    const log = await h.log(jobSetStream);
    expect(childStatuses(log)).toEqual(['js-a-0 [1]', 'js-b-0 [2]', 'js-b-0 [3,4]']);
    // No hole was ever seen: nothing kept aside, nothing released.
    expect(log.filter((e) => e.type === 'ChildJobEventReleased')).toEqual([]);
  });

  it("when a's log is next written cold (another writer), then its last report, sent again, is dropped: the JobSet holds that status and its count", async () => {
    const store = new InMemoryEventStore();
    const h = createServiceHarness({ store, now: at(0) });
    await h.deliver([jobSetEvent]);
    await h.deliver([childJob('a', 1, 1, 1), childJob('b', 1, 2, 1)]);
    await h.deliver([childJob('a', 2, 3, 2, { annotation: 'resynced' }), childJob('b', 2, 4, 2, { suspend: true })]);
    // A new writer (cold states): a's log sends its last report again, the one whose count rode on b's.
    const cold = createServiceHarness({ store, now: at(0) });
    expect(await cold.deliver([childJob('a', 3, 5, 3, { suspend: true })])).toEqual([]);
    expect(childStatuses(await cold.log(jobSetStream))).toEqual(['js-a-0 [1]', 'js-b-0 [2]', 'js-b-0 [3,4]', 'js-a-0 [5]']);
  });

  it("when a's unchanged event is the batch's last, then it keeps an entry of its own, carrying its count", async () => {
    const h = createServiceHarness({ store: new InMemoryEventStore(), now: at(0) });
    await h.deliver([jobSetEvent]);
    await h.deliver([childJob('a', 1, 1, 1), childJob('b', 1, 2, 1)]);
    await h.deliver([childJob('b', 2, 3, 2, { suspend: true }), childJob('a', 2, 4, 2, { annotation: 'resynced' })]);
    expect(childStatuses(await h.log(jobSetStream))).toEqual(['js-a-0 [1]', 'js-b-0 [2]', 'js-b-0 [3]', 'js-a-0 [4]']);
  });

  it('when counts arrive out of their order in one batch (4 before 3), then none rides: each keeps its entry, as without riding', async () => {
    const h = createServiceHarness({ store: new InMemoryEventStore(), now: at(0) });
    await h.deliver([jobSetEvent]);
    await h.deliver([childJob('a', 1, 1, 1), childJob('b', 1, 2, 1)]);
    await h.deliver([childJob('a', 2, 4, 2, { annotation: 'resynced' }), childJob('b', 2, 3, 2, { suspend: true })]);
    expect(childStatuses(await h.log(jobSetStream))).toEqual(['js-a-0 [1]', 'js-b-0 [2]', 'js-a-0 [4]', 'js-b-0 [3]']);
  });
});

describe("A finished child Job's status", () => {
  const finished = JobSchema.parse({
    metadata: {
      name: 'js-a-0', namespace: 'default', uid: 'child-uid', creationTimestamp: at(0),
      labels: { 'jobset.sigs.k8s.io/replicatedjob-name': 'a', 'jobset.sigs.k8s.io/restart-attempt': '0' },
      ownerReferences: [{ apiVersion: 'jobset.x-k8s.io/v1alpha2', kind: 'JobSet', name: 'js', uid: 'js-uid', controller: true }],
    },
    spec: { completions: 1, parallelism: 1, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main' }] } } },
    status: {
      succeeded: 1,
      conditions: [
        { type: 'SuccessCriteriaMet', status: 'True', reason: 'CompletionsReached', lastTransitionTime: at(5) },
        { type: 'Complete', status: 'True', reason: 'CompletionsReached', lastTransitionTime: at(5) },
      ],
    },
  });

  it('says something new in its first report with a count, though the status repeats: that count orders its finish (finish-order.ts), so it does not ride', () => {
    const state = initialState();
    evolve(state, jobObserved(finished, at(5)));
    const uncounted = childJobStatusEntry(state, at(5));
    evolve(state, { ...jobObserved(finished, at(6)), eventId: 'job/3', sequence: { epoch: EPOCH, seq: 2, jobSetSeq: 3 } });
    const counted = childJobStatusEntry(state, at(6));
    expect(counted?.entry.body).toMatchObject({ job: { status: { conditions: [{ type: 'SuccessCriteriaMet' }, { type: 'Complete' }] } }, jobSetSeq: { counts: [3] } });
    expect(saidBy(counted?.entry.eventId ?? '')).toBe(uncounted?.entry.eventId);
    expect(counted?.says).not.toBe(uncounted?.says);
    evolve(state, { ...jobObserved(finished, at(7)), eventId: 'job/4', sequence: { epoch: EPOCH, seq: 3, jobSetSeq: 4 } });
    expect(childJobStatusEntry(state, at(7))?.says).toBe(counted?.says);
  });
});
