import '../local/quiet-powertools.ts';
import type { KinesisStreamRecord } from 'aws-lambda';
import { fileURLToPath } from 'node:url';
import { pageItems } from '../functions/adapters/log-page-codec.ts';
import { itemBytes } from '../functions/adapters/metered-table.ts';
import { foldConfig } from '../functions/commons/config.ts';
import { createRecordWriter } from '../functions/handlers/writer-handler.ts';
import { ObjectSequencer } from '../forwarder/watch/object-sequencer.ts';
import { constructJob, defaultJobSet, JOBFOLD_JOBSET_CONTROLLER_NAME, type JobSet } from '../shared/jobset/index.ts';
import type { CommitInput, CommitResult, StreamId } from '../shared/log/event-store.ts';
import { InMemoryEventStore } from '../shared/log/in-memory-event-store.ts';

// What a JobSet's log is written for its child Jobs' events (issue 21's count route (a),
// docs/ordering.md "JobSets: the count"; issue 20's write cost): a JobSet jobfold runs, of `jobs`
// child Jobs of `pods` pods each, run by the cluster's Job controller as upstream's runs them,
// fed through the writer (functions/handlers/writer-handler.ts, the in-memory store) as one
// Kinesis shard hands it over: a batch per second of the cluster's events (the event source's
// 1-second batching window; at most 1,000 records). Each child Job's watch events follow
// upstream's Job controller: created; its pods created and `active`; `ready` as pods become
// ready (one status update per second at most: its pod-update batch period); each second's
// finished pods first in `uncountedTerminatedPods`, their tracking finalizers removed, then
// counted in `succeeded`; `SuccessCriteriaMet`, then `Complete`. A pod's events: created
// (Pending), Running and ready, Succeeded, its finalizer removed.
//
// Fed twice: with the forwarder's `jobSetSeq` on each child Job event (the current forwarder: every
// child Job event becomes a JobSet-log entry) and without (older forwarders: an entry per child
// status jobfold's fold of the Job changed). Figures, never assertions, for the JobSet's log only
// (its partition key: 1,000 WCU/s):
//   childJobEvents, podEvents       the cluster's events fed
//   entries                         JobSet-log entries: child statuses (carrying counts), the JobSet's own, decisions
//   pageBytes, pageWcu              its log pages as log-page-codec.ts writes them (brotli), and their write
//                                   units as DynamoDB bills a conditional PutItem (1 per started KB) and its
//                                   change-index entry (1); 2 per KB in a transaction (a commit with commands).
//                                   Summaries and snapshots are left out (the same in both feeds).
//   perChildJobEvent                entries and page units per child Job event
//   peakWcuPerSecond                the most page units one second's batch wrote
// Run: `node bench/jobset-child-reports.ts [--jobs N] [--pods N] [--json]`.

const CLUSTER = 'bench-js';
const T0 = Date.parse('2026-01-01T00:00:00Z');
const KINESIS_BATCH_RECORDS = 1000;

export interface JobSetChildReportsOptions {
  readonly jobs?: number;
  readonly pods?: number;
}

export interface FeedFigures {
  readonly childJobEvents: number;
  readonly podEvents: number;
  readonly entries: {
    readonly total: number;
    readonly childStatuses: number;
    readonly carryingCounts: number;
    /** Child statuses that change what the JobSet reads of the Job (jobSetReads). */
    readonly changingWhatTheJobSetReads: number;
    /** Child statuses that change nothing the JobSet reads and carry no count. */
    readonly unchangedUncounted: number;
    readonly other: number;
  };
  readonly commits: number;
  readonly pageBytes: number;
  readonly pageWcu: number;
  readonly perChildJobEvent: { readonly entries: number; readonly pageBytes: number; readonly pageWcu: number };
  readonly peakWcuPerSecond: number;
  readonly seconds: number;
  /** The other entries by type: the JobSet's own observations and its decisions. */
  readonly otherTypes: Readonly<Record<string, number>>;
}

/** One cluster event as the forwarder sends it, at `at` seconds. */
interface ClusterEvent {
  readonly at: number;
  readonly detailType: 'Job Observed' | 'Pod Observed' | 'JobSet Observed';
  readonly kind: 'Job' | 'Pod' | 'JobSet';
  readonly uid: string;
  /** The owner whose count the event takes (a pod's Job, a child Job's JobSet). */
  readonly owner?: string;
  readonly partitionKey: string;
  readonly object: Record<string, unknown>;
}

const time = (at: number) => new Date(T0 + Math.round(at * 1000)).toISOString();
/** A fraction in [0, 1) from a number, the same every run. */
const spread = (n: number) => ((Math.sin(n * 12.9898) * 43758.5453) % 1 + 1) % 1;

function jobSetObject(jobs: number, pods: number): JobSet {
  return {
    apiVersion: 'jobset.x-k8s.io/v1alpha2',
    kind: 'JobSet',
    metadata: { name: 'train', namespace: 'bench', uid: 'js-bench-uid', creationTimestamp: time(0), resourceVersion: '1' },
    spec: {
      managedBy: JOBFOLD_JOBSET_CONTROLLER_NAME,
      replicatedJobs: [{
        name: 'workers',
        replicas: jobs,
        template: { spec: { parallelism: pods, completions: pods, completionMode: 'Indexed', backoffLimit: 0, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'registry.example.com/train:1' }] } } } },
      }],
    },
  } as unknown as JobSet;
}

/** The cluster's events for the JobSet's life, in the cluster's order. */
export function clusterEvents(jobs: number, pods: number): ClusterEvent[] {
  const jobSet = jobSetObject(jobs, pods);
  const defaulted = defaultJobSet(jobSet);
  const rjob = defaulted.spec.replicatedJobs[0] as (typeof defaulted.spec.replicatedJobs)[number];
  const jobSetUid = jobSet.metadata.uid as string;
  const events: ClusterEvent[] = [{ at: 0, detailType: 'JobSet Observed', kind: 'JobSet', uid: jobSetUid, partitionKey: jobSetUid, object: jobSet as unknown as Record<string, unknown> }];
  let version = 1;
  for (let k = 0; k < jobs; k++) {
    const manifest = constructJob(defaulted, rjob, k, 0);
    const uid = `job-${String(k).padStart(4, '0')}`;
    const created = 0.5 + k * 0.02;
    const job = (at: number, status: Record<string, unknown>) =>
      events.push({
        at, detailType: 'Job Observed', kind: 'Job', uid, owner: jobSetUid, partitionKey: jobSetUid,
        object: { ...manifest, metadata: { ...manifest.metadata, uid, resourceVersion: String(++version), creationTimestamp: time(created) }, status },
      });
    const pod = (at: number, i: number, phase: string, ready: boolean, finalizer = true) => {
      const { labels } = manifest.spec.template.metadata ?? {};
      events.push({
        at, detailType: 'Pod Observed', kind: 'Pod', uid: `${uid}-pod-${i}`, owner: uid, partitionKey: uid,
        object: {
          apiVersion: 'v1', kind: 'Pod',
          metadata: {
            name: `${manifest.metadata.name}-${i}-x7k2p`, namespace: 'bench', uid: `${uid}-pod-${i}`, resourceVersion: String(++version), creationTimestamp: time(created + 0.1),
            labels: { ...labels, 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': manifest.metadata.name, 'batch.kubernetes.io/job-completion-index': String(i) },
            annotations: { 'batch.kubernetes.io/job-completion-index': String(i) },
            ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: manifest.metadata.name, uid, controller: true, blockOwnerDeletion: true }],
            ...(finalizer ? { finalizers: ['batch.kubernetes.io/job-tracking'] } : {}),
          },
          spec: { nodeName: `node-${i % 16}`, restartPolicy: 'Never' },
          status: {
            phase,
            conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', ...(phase === 'Succeeded' ? { reason: 'PodCompleted' } : {}), lastTransitionTime: time(at) }],
            containerStatuses: [{
              name: 'main', ready, restartCount: 0,
              state: phase === 'Succeeded' ? { terminated: { exitCode: 0, reason: 'Completed', finishedAt: time(at) } } : phase === 'Running' ? { running: { startedAt: time(at) } } : { waiting: { reason: 'ContainerCreating' } },
            }],
          },
        },
      });
    };
    const startTime = time(created + 0.1);
    job(created, {});
    for (let i = 0; i < pods; i++) pod(created + 0.1 + i * 0.001, i, 'Pending', false);
    job(created + 0.2, { active: pods, ready: 0, terminating: 0, startTime, uncountedTerminatedPods: {} });
    // Each pod ready 3–23 s in, done 60–120 s in; the Job controller writes once a second at most.
    const readyAt = Array.from({ length: pods }, (_, i) => created + 3 + 20 * spread(k * 1000 + i));
    const doneAt = Array.from({ length: pods }, (_, i) => created + 60 + 60 * spread(k * 1000 + i + 0.5));
    readyAt.forEach((at, i) => pod(at, i, 'Running', true));
    doneAt.forEach((at, i) => pod(at, i, 'Succeeded', false));
    const seconds = (times: number[]) => [...new Set(times.map((t) => Math.floor(t) + 1))].sort((a, b) => a - b);
    for (const s of seconds(readyAt)) {
      const ready = readyAt.filter((t) => t < s).length;
      job(s + 0.05 + (k % 10) * 0.01, { active: pods, ready, terminating: 0, startTime, uncountedTerminatedPods: {} });
    }
    let counted = 0;
    for (const s of seconds(doneAt)) {
      const done = doneAt.map((t, i) => ({ t, i })).filter(({ t }) => t < s && t >= s - 1);
      const at = s + 0.3 + (k % 10) * 0.01;
      const uids = done.map(({ i }) => `${uid}-pod-${i}`);
      const active = pods - counted - done.length;
      job(at, { active, ready: active, terminating: 0, startTime, succeeded: counted, uncountedTerminatedPods: { succeeded: uids } });
      done.forEach(({ t, i }) => pod(at + 0.05 + i * 0.0001, i, 'Succeeded', false, false));
      counted += done.length;
      job(at + 0.1, { active, ready: active, terminating: 0, startTime, succeeded: counted, uncountedTerminatedPods: {} });
    }
    const end = (doneAt.reduce((a, b) => Math.max(a, b), 0) | 0) + 2;
    const met = { type: 'SuccessCriteriaMet', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods', lastProbeTime: time(end), lastTransitionTime: time(end) };
    job(end + 0.5, { active: 0, ready: 0, terminating: 0, startTime, succeeded: pods, uncountedTerminatedPods: {}, conditions: [met] });
    job(end + 0.6, { active: 0, ready: 0, terminating: 0, startTime, completionTime: time(end + 0.6), succeeded: pods, uncountedTerminatedPods: {}, conditions: [met, { ...met, type: 'Complete', lastProbeTime: time(end + 0.6), lastTransitionTime: time(end + 0.6) }] });
  }
  // The cluster's order: by time, then as made.
  return events.map((e, i) => ({ e, i })).sort((a, b) => a.e.at - b.e.at || a.i - b.i).map(({ e }) => e);
}

/** The Detail the forwarder puts for each event, stamped as its sequencer stamps it (with or without `jobSetSeq`). */
function details(events: readonly ClusterEvent[], counted: boolean): { at: number; detailType: string; detail: Record<string, unknown> }[] {
  const sequencer = new ObjectSequencer(() => T0);
  return events.map((e) => {
    const watched = e.kind === 'Pod' || (e.kind === 'Job' && counted) ? { owner: e.owner } : undefined;
    const kind = e.kind === 'JobSet' ? undefined : e.kind;
    let sequence: Record<string, unknown> | undefined;
    if (kind !== undefined) {
      const stamp = sequencer.peek(kind, e.uid, watched);
      sequencer.commit(e.uid, stamp);
      if (watched !== undefined) sequencer.sent(kind, e.uid, watched.owner, stamp);
      sequence = { ...stamp };
    }
    const metadata = e.object['metadata'] as { resourceVersion: string };
    return { at: e.at, detailType: e.detailType, detail: { eventId: `${e.uid}/${metadata.resourceVersion}`, observedAt: time(e.at), partitionKey: e.partitionKey, object: e.object, ...(sequence ? { sequence } : {}) } };
  });
}

let sequenceNumber = 49_000_000_000_000_000_000n;
function record(detailType: string, detail: Record<string, unknown>): KinesisStreamRecord {
  sequenceNumber += 1n;
  const data = JSON.stringify({ version: '0', id: `jr-${sequenceNumber}`, 'detail-type': detailType, source: `jobfold.cluster.${CLUSTER}`, account: '000000000000', time: '2026-01-01T00:00:00Z', region: 'eu-west-1', resources: [], detail });
  return {
    kinesis: { data: Buffer.from(data).toString('base64'), sequenceNumber: String(sequenceNumber), partitionKey: String(detail['partitionKey']), kinesisSchemaVersion: '1.0', approximateArrivalTimestamp: 0 },
    eventSource: 'aws:kinesis', eventVersion: '1.0', eventID: `shardId-000000000000:${sequenceNumber}`, eventName: 'aws:kinesis:record',
    invokeIdentityArn: 'arn:aws:iam::000000000000:role/jobfold-writer', awsRegion: 'eu-west-1', eventSourceARN: 'arn:aws:kinesis:eu-west-1:000000000000:stream/jobfold-ingest',
  };
}

/** The in-memory store, noting what each commit of a JobSet's log wrote. */
class JobSetCommits extends InMemoryEventStore {
  readonly commits: { readonly input: CommitInput; readonly result: CommitResult }[] = [];
  override async commit(stream: StreamId, input: CommitInput): Promise<CommitResult> {
    const result = await super.commit(stream, input);
    if (stream.kind === 'JobSet') this.commits.push({ input, result });
    return result;
  }
}

interface ChildSnapshot {
  readonly metadata: { readonly name: string; readonly uid?: string; readonly labels?: Record<string, string> };
  readonly spec: { readonly parallelism: number; readonly completions?: number; readonly suspend: boolean };
  readonly status: { readonly active?: number; readonly ready?: number; readonly succeeded?: number; readonly conditions?: readonly { type: string; status: string; reason?: string; message?: string }[] };
}

/**
 * What the JobSet reads of a child Job's status (shared/jobset/replicated-jobs-status.ts, child-jobs.ts
 * observeChildJob's finish and failure): ready (succeeded + ready reach its pods), active, suspended,
 * and its conditions; not how many pods are active, ready or succeeded.
 */
function jobSetReads({ metadata, spec, status }: ChildSnapshot): string {
  const pods = spec.completions !== undefined && spec.completions < spec.parallelism ? spec.completions : spec.parallelism;
  const ready = (status.succeeded ?? 0) + (status.ready ?? 0) >= pods;
  const conditions = (status.conditions ?? []).map((c) => [c.type, c.status, c.reason, c.message]);
  return JSON.stringify([metadata.labels, spec.suspend, ready, (status.active ?? 0) > 0, conditions]);
}

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Feeds the JobSet's life through the writer, a batch per second, and measures its log's writes. */
export async function runFeed(events: readonly ClusterEvent[], counted: boolean): Promise<FeedFigures> {
  const store = new JobSetCommits();
  const write = createRecordWriter({ store, rejections: { reject: async () => {} }, clock: () => time(0), config: foldConfig(''), timers: { schedule: async () => {} } });
  const fed = details(events, counted);
  const bySecond = new Map<number, KinesisStreamRecord[][]>();
  for (const { at, detailType, detail } of fed) {
    const second = Math.floor(at);
    const batches = bySecond.get(second) ?? [[]];
    if ((batches.at(-1) as KinesisStreamRecord[]).length === KINESIS_BATCH_RECORDS) batches.push([]);
    (batches.at(-1) as KinesisStreamRecord[]).push(record(detailType, detail));
    bySecond.set(second, batches);
  }
  let pageBytes = 0;
  let pageWcu = 0;
  let peakWcuPerSecond = 0;
  const entries = { total: 0, childStatuses: 0, carryingCounts: 0, changingWhatTheJobSetReads: 0, unchangedUncounted: 0, other: 0 };
  const lastRead = new Map<string, string>();
  const otherTypes: Record<string, number> = {};
  for (const [, batches] of [...bySecond].sort(([a], [b]) => a - b)) {
    const before = store.commits.length;
    for (const batch of batches) {
      const failures = await write(batch);
      if (failures.length > 0) throw new Error(`the writer failed: ${String(failures[0]?.error)}`);
    }
    let secondWcu = 0;
    for (const { input, result } of store.commits.slice(before)) {
      if (result.appended.length === 0) continue;
      const items = pageItems('JobSet#bench', result.appended.map(({ hash: _hash, ...entry }) => entry));
      const bytes = items.reduce((sum, item) => sum + itemBytes(item), 0);
      const perKb = input.outbox.length > 0 ? 2 : 1;
      const units = items.reduce((sum, item) => sum + perKb * Math.max(1, Math.ceil(itemBytes(item) / 1024)), 0) + 1;
      pageBytes += bytes;
      secondWcu += units;
      for (const entry of result.appended) {
        entries.total += 1;
        const body = entry.body as { type?: string; jobSetSeq?: unknown; job?: unknown };
        if (entry.type === 'JobObserved' && body.job !== undefined) {
          entries.childStatuses += 1;
          if (body.jobSetSeq !== undefined) entries.carryingCounts += 1;
          const read = jobSetReads(body.job as ChildSnapshot);
          const key = (body.job as ChildSnapshot).metadata.uid ?? (body.job as ChildSnapshot).metadata.name;
          if (read !== lastRead.get(key)) entries.changingWhatTheJobSetReads += 1;
          else if (body.jobSetSeq === undefined) entries.unchangedUncounted += 1;
          lastRead.set(key, read);
        } else {
          entries.other += 1;
          otherTypes[entry.type] = (otherTypes[entry.type] ?? 0) + 1;
        }
      }
    }
    pageWcu += secondWcu;
    peakWcuPerSecond = Math.max(peakWcuPerSecond, secondWcu);
  }
  const childJobEvents = events.filter((e) => e.kind === 'Job').length;
  return {
    childJobEvents,
    podEvents: events.filter((e) => e.kind === 'Pod').length,
    entries,
    commits: store.commits.filter((c) => c.result.appended.length > 0).length,
    pageBytes,
    pageWcu,
    perChildJobEvent: { entries: round(entries.total / childJobEvents), pageBytes: round(pageBytes / childJobEvents, 1), pageWcu: round(pageWcu / childJobEvents) },
    peakWcuPerSecond,
    seconds: bySecond.size,
    otherTypes,
  };
}

export async function runJobSetChildReportsBench(options: JobSetChildReportsOptions = {}) {
  const { jobs = 100, pods = 100 } = options;
  const events = clusterEvents(jobs, pods);
  const withCounts = await runFeed(events, true);
  const withoutCounts = await runFeed(events, false);
  return { jobs, pods, withCounts, withoutCounts };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i === -1 ? undefined : Number(args[i + 1]);
  };
  const figures = await runJobSetChildReportsBench({ jobs: flag('--jobs') ?? 100, pods: flag('--pods') ?? 100 });
  console.log(args.includes('--json') ? JSON.stringify(figures) : JSON.stringify(figures, null, 2));
}
