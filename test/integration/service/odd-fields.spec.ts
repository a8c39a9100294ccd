import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { entryEvent } from '../../../shared/job/log-codec.ts';
import { evolve } from '../../../shared/job/evolve.ts';
import { countAtSync } from '../../../shared/job/observe-pod.ts';
import { archivePod, restoreSnapshot, type JobSnapshot } from '../../../shared/job/snapshot.ts';
import type { PodRecord } from '../../../shared/job/pod-record.ts';
import { DEFAULT_FOLD_CONFIG, initialState, type JobState } from '../../../shared/job/state.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { EXPECTATIONS_TIMEOUT_MS, JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import { aJob, anIndexedJob, aPod, at, type PodOptions } from '../../support/builders.ts';
import { inboundEvent, jobObservedEvent, jobStream, podObservedEvent, type InboundEnvelope } from '../../support/inbound-events.ts';
import { at as jobSetAt, SEED_002_FIXTURE } from '../../unit/jobset-service/support.ts';
import { loadState } from '../../../shared/decide/load-log.ts';
import { jobSetDecider } from '../../../shared/jobset/index.ts';
import { constructJob } from '../../../shared/jobset/construct-job.ts';
import type { DefaultedJobSet } from '../../../shared/jobset/defaulting.ts';
import type { LogEntry } from '../../../shared/log/event-store.ts';
import { createServiceHarness, type ServiceHarness } from '../../support/service-harness.ts';
import { jobPath, queryClient, type Get } from '../../unit/query/support/query-client.ts';
import { freshTable, localClient } from '../store/local-table.ts';

// The guide's rule for odd input (docs/events.md, "Inbound"), for the fields
// added last: what the contract takes, however odd, is folded as a fold of the whole log folds
// it, and stored so that it reads back exactly. Given Jobs whose pods carry odd but valid
// identities (names without the `<job>-<index>-` prefix the stored forms code away, or with
// another index's; uids that are no UUID: astral, accented, upper-case, 128 characters; resourceVersions at
// and past int64, with leading zeros, 100 KB of text) and order stamps at their extremes
// (epoch 0, counts at 2^53 - 1), when the writer on DynamoDB Local folds them with a snapshot
// after every batch, archiving each pod as it settles, then nothing is refused or failed, every
// snapshot and archived pod decodes to what a fold of the log from its start holds, and the
// query answers at every position what that fold says. (The refusals of stamps past 2^53 - 1,
// of 0 and of text are bad-input cases: hostile-events.ts.)

let client: DynamoDBClient;
let store: DynamoDbEventStore;
let get: Get;
beforeAll(async () => {
  client = localClient();
  store = new DynamoDbEventStore({ client, tableName: await freshTable(client) });
  get = queryClient({ store, config: DEFAULT_FOLD_CONFIG });
});
afterAll(() => client?.destroy());

/** Delivers events one batch of `size` at a time; the writer must neither fail nor refuse any. */
async function deliverAll(h: ServiceHarness, events: readonly InboundEnvelope[], size = 2): Promise<void> {
  const failed = await h.deliver(events, size);
  expect({ failed, rejected: h.rejected.map((r) => r.reason) }).toEqual({ failed: [], rejected: [] });
}

/** A fold of the log's first `seq` entries from its start, counted as the sync at that position counted. */
async function replay(stream: StreamId, seq = Number.MAX_SAFE_INTEGER): Promise<JobState> {
  const { entries } = await store.read(stream, { afterSeq: 0, limit: Math.min(seq, 100_000) });
  const state = initialState(DEFAULT_FOLD_CONFIG);
  for (const entry of entries) evolve(state, entryEvent(entry));
  countAtSync(state);
  return state;
}

/**
 * A pod record as the stored forms keep it: its order as epoch and seq (snapshot.ts); the
 * stamp's jobSeq is the Job's count, which the fold keeps in `podCounts`, compared whole.
 */
function asStored(pod: PodRecord | undefined): PodRecord | undefined {
  return pod?.order === undefined ? pod : { ...pod, order: { epoch: pod.order.epoch, seq: pod.order.seq } };
}
const asJson = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
const without = <T extends object>(value: T, key: string) => Object.fromEntries(Object.entries(value).filter(([k]) => k !== key));

/**
 * What the store holds of `stream` reads back as the log's fold: the query's status at every
 * position, each snapshot's state and live pods, and every archived pod.
 */
async function expectStoredAsFolded(stream: StreamId, name: string): Promise<void> {
  const status = jobPath(stream.clusterId, stream.namespace, name, '/status');
  const head = (await get(status)).body.head as number;
  let snapshots = 0;
  for (let seq = 1; seq <= head; seq++) {
    const replayed = await replay(stream, seq);
    const { status: code, body } = await get(status, { at: String(seq) });
    expect({ seq, code, status: body.status }).toEqual({ seq, code: 200, status: asJson(jobStatus(replayed)) });
    const snapshot = await store.loadSnapshot(stream, { atOrBefore: seq });
    if (snapshot?.seq !== seq) continue;
    snapshots += 1;
    const restored = restoreSnapshot(snapshot.state as JobSnapshot);
    expect({ seq, counts: asJson(restored.podCounts) }).toEqual({ seq, counts: asJson(replayed.podCounts) });
    for (const [uid, pod] of restored.pods) expect({ seq, pod: asJson(pod) }).toEqual({ seq, pod: asJson(asStored(replayed.pods.get(uid))) });
  }
  expect(snapshots).toBeGreaterThan(3);
  const final = await replay(stream);
  const archived = await store.loadAllArchivedPods(stream);
  expect(archived.length).toBeGreaterThan(0);
  for (const pod of archived) {
    const folded = final.pods.get(pod.uid);
    expect(folded, `archived pod ${pod.uid}`).toBeDefined();
    expect(asJson(without(pod, 'archivedAt'))).toEqual(asJson(without(archivePod(folded!), 'archivedAt')));
  }
}

describe('pods with odd identities, through the writer on DynamoDB Local', () => {
  const uid = 'odd-ids-job';
  const job = anIndexedJob(7, {}, { uid, name: 'odd' });
  // Every field the stored forms code (pod-field-codes.ts), at an edge of its code.
  // A uid is bounded at 128 characters (code points: 512 UTF-8 bytes at most).
  const pods: (PodOptions & { index: number; uid: string; resourceVersion: string })[] = [
    { index: 0, name: 'odd-0-a', uid: 'ü-é-€-😀', resourceVersion: '0' },
    { index: 1, name: 'odd-1', uid: '0C3A8F52-7D14-4E8B-9A6B-1F2E3D4C5B6A', resourceVersion: '007' },
    { index: 2, name: 'odd-5-x', uid: '😀'.repeat(128), resourceVersion: '9223372036854775807' },
    { index: 3, name: `odd-3-${'z'.repeat(247)}`, uid: '0c3a8f52-7d14-4e8b-9a6b-1f2e3d4c5b6b', resourceVersion: `1${'0'.repeat(39)}` },
    { index: 4, name: 'odd-4-odd-4-q', uid: 'u'.repeat(128), resourceVersion: `1${'0'.repeat(40)}` },
    { index: 5, name: 'odd-5', uid: '0c3a8f52-7d14-4e8b-9a6b-1f2e3d4c5b6c', resourceVersion: randomBytes(70_000).toString('base64') },
    { index: 6, name: 'x', uid: 'odd/6', resourceVersion: 'ẞ-ünïcödé' },
  ];

  it('folds them, and stores snapshots and an archive that read back as the fold of the log', { timeout: 120_000 }, async () => {
    // given the Job and its pods, each running, then succeeding at its own time
    const h = createServiceHarness({ store, snapshotEvery: 1, now: at(60) });
    const events: InboundEnvelope[] = [jobObservedEvent(job, at(0))];
    // The forwarder's eventId, `<uid>/<resourceVersion>` (the stored forms code it away), where it fits.
    const eventId = (uid: string, rest: string) => (`${uid}/${rest}`.length <= 256 ? `${uid}/${rest}` : `${uid.length}/${rest}`);
    for (const pod of pods) events.push(podObservedEvent(aPod(pod), job, at(1), { eventId: eventId(pod.uid, pod.resourceVersion.slice(0, 100)) }));
    for (const pod of pods) {
      const done = { ...pod, phase: 'Succeeded' as const, resourceVersion: pod.resourceVersion === '0' ? '1' : `${pod.resourceVersion}9` };
      events.push(podObservedEvent(aPod(done), job, at(2 + pod.index), { eventId: eventId(pod.uid, 'done') }));
    }

    // when the writer folds them, two at a time
    await deliverAll(h, events);

    // then the Job is complete, every pod counted once, and what is stored reads back as folded
    expect(await h.status(jobStream(job))).toMatchObject({ succeeded: 7, failed: 0, completedIndexes: '0-6' });
    await expectStoredAsFolded(jobStream(job), 'odd');
  });
});

describe('order stamps at their extremes, through the writer on DynamoDB Local', () => {
  it('folds epoch 0 and counts of 2^53 - 1, waits for the counts missing no longer than upstream waits, and stores what it folded', { timeout: 120_000 }, async () => {
    // given a Job jobfold runs, of two pods whose forwarder stamped epoch 0, a pod's seq at
    // 2^53 - 1, and the second pod's success with jobSeq 2^53 - 1: every count from 4 up to it
    // is missing, and a Job jobfold runs decides nothing on a view with a hole (pod-view-gap.ts)
    const job = aJob({ completions: 2, parallelism: 2, managedBy: JOBFOLD_CONTROLLER_NAME }, { uid: 'odd-stamps-job', name: 'stamps' });
    const h = createServiceHarness({ store, snapshotEvery: 1, now: at(10) });
    const MAX = Number.MAX_SAFE_INTEGER;
    const stamped = (options: PodOptions, observedAt: string, sequence: Record<string, number>, eventId: string) => {
      const event = podObservedEvent(aPod(options), job, observedAt, { eventId });
      return { ...event, detail: { ...(event.detail as object), sequence } };
    };
    await deliverAll(h, [
      jobObservedEvent(job, at(0)),
      stamped({ name: 'a' }, at(1), { epoch: 0, seq: 1, jobSeq: 1 }, 'a/1'),
      stamped({ name: 'b' }, at(1), { epoch: 0, seq: MAX - 1, jobSeq: 2 }, 'b/1'),
      stamped({ name: 'a', phase: 'Succeeded' }, at(2), { epoch: 0, seq: 2, jobSeq: 3 }, 'a/2'),
      stamped({ name: 'b', phase: 'Succeeded' }, at(3), { epoch: 0, seq: MAX, jobSeq: MAX }, 'b/2'),
    ], 1);

    // when it is decided before and after upstream's expectation timeout
    const stream = jobStream(job);
    const held = await h.status(stream);
    h.clock.now = new Date(Date.parse(at(3)) + EXPECTATIONS_TIMEOUT_MS + 1_000).toISOString();
    const tick = await h.tick(stream);

    // then both pods are counted at once, the outcome waits for the missing counts, and the
    // Job completes once the wait runs out: never wedged by a count no forwarder will send
    expect(tick.batchItemFailures).toEqual([]);
    expect(held).toMatchObject({ succeeded: 2, conditions: [] });
    expect((await h.status(stream)).conditions.map((c) => c.type)).toEqual(['SuccessCriteriaMet', 'Complete']);

    // and when a relist (epoch 1: counts from 1 again) shows both pods' finalizers gone, then
    // they settle and are archived, and what is stored reads back as the fold of the log
    await deliverAll(h, [
      stamped({ name: 'a', phase: 'Succeeded', finalizer: false }, at(400), { epoch: 1, seq: 1, jobSeq: 1 }, 'a/3'),
      stamped({ name: 'b', phase: 'Succeeded', finalizer: false }, at(400), { epoch: 1, seq: 1, jobSeq: 2 }, 'b/3'),
    ], 1);
    await expectStoredAsFolded(stream, 'stamps');
  });
});

/** The child Jobs the JobSet's log decided to create, as the cluster would create them (seed-002-stories.spec.ts). */
function pendingCreates(log: readonly LogEntry[], jobSet: DefaultedJobSet) {
  return log.flatMap((entry) => {
    const body = entry.body as { type: string; replicatedJob: string; jobIndex: number; restartAttempt: number };
    if (body.type !== 'CreateJobIssued') return [];
    const replicated = jobSet.spec.replicatedJobs.find((r) => r.name === body.replicatedJob)!;
    return [constructJob(jobSet, replicated, body.jobIndex, body.restartAttempt)];
  });
}

describe('a JobSet\'s child Jobs with odd uids and extreme jobSetSeq, through the writer on DynamoDB Local', () => {
  it('folds them into the JobSet\'s log, and a fold from its snapshots is the fold from its start', { timeout: 120_000 }, async () => {
    // given the seed-002 JobSet, snapshotted after every batch
    const h = createServiceHarness({ store, snapshotEvery: 1, now: jobSetAt(0) });
    const jobSet = { ...SEED_002_FIXTURE.jobset, metadata: { ...SEED_002_FIXTURE.jobset.metadata, uid: 'odd-jobset', creationTimestamp: jobSetAt(0) } };
    const stream: StreamId = { kind: 'JobSet', clusterId: 'cluster-a', namespace: 'default', uid: 'odd-jobset' };
    const send = async (detailType: string, object: unknown, seconds: number, eventId: string, sequence?: Record<string, number>) => {
      h.clock.now = jobSetAt(seconds);
      await deliverAll(h, [inboundEvent(detailType, { eventId, observedAt: jobSetAt(seconds), object, ...(sequence ? { sequence } : {}) })], 1);
    };
    const folds = async () => ({
      fromSnapshot: asJson((await loadState(jobSetDecider(), store, stream)).state),
      fromStart: asJson((await loadState(jobSetDecider(), store, stream, { fromStart: true })).state),
    });
    await send('JobSet Observed', jobSet, 0, 'odd-jobset/0');
    const { state } = await loadState(jobSetDecider(), store, stream);
    const creates = state.jobSet === undefined ? [] : pendingCreates(await h.log(stream), state.jobSet);
    expect(creates).toHaveLength(4);

    // when its child Jobs come with uids that are no UUID, stamped from epoch 0, the last count
    // at 2^53 - 1 (every count between missing), then one is deleted, named by its odd uid
    // (A Job's uid keys its log: at most 128 bytes, so 32 astral characters; hostile-events.ts.)
    const uids = ['ü-é-€-😀', '😀'.repeat(32), '0C3A8F52-7D14-4E8B-9A6B-1F2E3D4C5B6A', 'u'.repeat(128)];
    const children = creates.map((job, i) => ({ ...job, metadata: { ...job.metadata, uid: uids[i], creationTimestamp: jobSetAt(1) } }));
    for (const [i, child] of children.entries()) await send('Job Observed', child, 1, `child-${i}/1`, { epoch: 0, seq: 1, jobSetSeq: i + 1 });
    await send('Job Observed', children[3], 2, 'child-3/2', { epoch: 0, seq: 2, jobSetSeq: Number.MAX_SAFE_INTEGER });
    const waiting = await folds();
    await send('Job Deleted', { kind: 'Job', metadata: children[1]!.metadata }, 3, 'child-1/deleted', { epoch: 0, seq: 2 });
    h.clock.now = new Date(Date.parse(jobSetAt(2)) + EXPECTATIONS_TIMEOUT_MS + 1_000).toISOString();
    expect((await h.tick(stream)).batchItemFailures).toEqual([]);

    // then nothing was refused or failed, and the JobSet reads back from its snapshots as
    // folded from its first entry, while it waited for the counts and after
    expect(waiting.fromSnapshot).toEqual(waiting.fromStart);
    const after = await folds();
    expect(after.fromSnapshot).toEqual(after.fromStart);
    expect(JSON.stringify(after.fromStart)).toContain(uids[1]);
    expect((await store.loadSnapshot(stream))?.seq).toBeGreaterThan(5);
  });
});
