import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LocalBus } from '../../../local/bus/local-bus.ts';
import { queryFunction } from '../../../local/http/query-function.ts';
import { startLocalServer, type LocalServer } from '../../../local/http/local-server.ts';
import { SqsQueues } from '../../../local/sqs/sqs-queues.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { OneJobOverLimit } from '../../support/over-limit-store.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import { aJob, anIndexedJob, aPod, withSpec } from '../../support/builders.ts';
import { jobObservedEvent, jobStream, podObservedEvent } from '../../support/inbound-events.ts';
import { playJobSetJsonl } from '../../unit/query/support/jobset-fleet.ts';
import { loadState } from '../../../shared/decide/load-log.ts';
import { jobSetDecider } from '../../../shared/jobset/index.ts';
import { aService, deliverAt, fireTimersDue, readPutEvents, type Service } from '../../unit/query/support/service-fleet.ts';

// What the browser tests look at, built by the service's own writer and timers on the
// in-memory store (the DynamoDB-backed stack feeds the sample at the machine's pace, tens of
// seconds on a busy machine), and served by the local stack's HTTP server with the console:
// - samples/fleet.jsonl, the `npm start` sample fleet, deadlines fired by their timers;
// - samples/jobset-exit-code-3.jsonl in cluster dev-eu-1: a JobSet restarted by rule 1;
// - big-cluster/default/shards-10k: an Indexed Job of 10,000 indexes (bigIndexedJob);
// - big-cluster/default/shards-100k: 100,000 indexes, adopted mid-flight (hugeIndexedJob);
// - ops-eu-1/default/wedged: a Job parked as stalled, its commits over a store limit;
// - ops-eu-1/default/resized: a running Job whose update to completionMode was refused;
// - ops-eu-1/default/long-lived: a Job jobfold manages whose log outgrew the Job view's window of
//   5,000 entries, so its first commands are listed only by `…/commands`;
// - ops-eu-1/default/driver-workers: samples/jobset-depends-on.jsonl, workers waiting for driver;
// - ops-eu-1/default/restart-job-example: samples/jobset-exit-code-2.jsonl, then its JobSet
//   observed 5,000 times more: the JobSet view's window holds none of its commands.

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** Builds console/dist as `npm ci` does (the prepare script). */
export function buildConsole(): void {
  execFileSync(process.execPath, ['console/build.mjs'], { cwd: REPO, stdio: 'inherit' });
}

export const BIG_CLUSTER = 'big-cluster';
export const BIG_JOB = 'shards-10k';
export const HUGE_JOB = 'shards-100k';
export const OPS_CLUSTER = 'ops-eu-1';
export const STALLED_JOB = 'wedged';
export const STALLED_ERROR = OneJobOverLimit.ERROR;
export const REFUSED_JOB = 'resized';
export const LONG_JOB = 'long-lived';
export const BIG = { completions: 10_000, adoptedSucceeded: 6000, adoptedFailed: 200, running: 300, succeededPods: 100 } as const;

export interface ConsoleServer extends LocalServer {
  readonly url: string;
  /** The big Job's pod for `index` succeeds (written and decided now): the Job moves on. */
  succeedIndex(index: number): Promise<void>;
}

export async function startConsoleServer(): Promise<ConsoleServer> {
  const store = new OneJobOverLimit();
  const service = aService(store);
  await playJobsTrace(service, 'samples/fleet.jsonl');
  await playJobSetJsonl(service, 'samples/jobset-exit-code-3.jsonl', 'dev-eu-1');
  await playJobSetJsonl(service, 'samples/jobset-depends-on.jsonl', OPS_CLUSTER);
  const job = await bigIndexedJob(service);
  await hugeIndexedJob(service);
  await stalledJob(service, store);
  await refusedUpdateJob(service);
  await longJob(service);
  await longJobSet(service);
  let url = '';
  const server = await startLocalServer(
    {
      bus: new LocalBus(),
      sqs: new SqsQueues(),
      url: () => url,
      query: queryFunction(service.store, service.config),
      local: async () => undefined,
    },
    0,
    '127.0.0.1',
  );
  url = `http://127.0.0.1:${server.port}`;
  const succeedIndex = async (index: number) => {
    const at = '2026-01-01T00:05:00.000Z';
    const pod = aPod({ index, name: `${BIG_JOB}-${index}`, uid: `big-pod-${index}`, phase: 'Succeeded' });
    await deliverAt(service, at, [podObservedEvent(pod, job, at, { clusterId: BIG_CLUSTER })]);
  };
  return Object.assign(server, { url, succeedIndex });
}

/**
 * Plays a trace of Job events: each run of events sharing an observedAt is delivered to the
 * writer at that time; a Job's timer (deadline, backoff) fires as a Tick when the trace reaches
 * its time, and the timers still pending fire after the last event.
 */
async function playJobsTrace(service: Service, path: string): Promise<void> {
  const events = readPutEvents(path);
  for (let i = 0; i < events.length; ) {
    const at = events[i]!.detail.observedAt;
    await fireTimersDue(service, at);
    const run = [];
    for (; i < events.length && events[i]!.detail.observedAt === at; i++) run.push(events[i]!);
    // The sample holds events jobfold refuses (npm start lists them at /local/rejected).
    await deliverAt(service, at, run, []);
  }
  await fireTimersDue(service, '9999-12-31T23:59:59Z');
}

/**
 * An Indexed Job of 10,000 indexes, adopted mid-flight (its first observation reports
 * completedIndexes 0-5999 and failedIndexes 6000-6199, backoffLimitPerIndex 0); then 300 pods
 * run (6200..6499) and 100 more succeed (6500..6599); the other 3,400 indexes are pending.
 */
async function bigIndexedJob(service: Service): Promise<Job> {
  const at = '2026-01-01T00:00:00.000Z';
  const status = {
    startTime: at,
    succeeded: BIG.adoptedSucceeded,
    failed: BIG.adoptedFailed,
    completedIndexes: `0-${BIG.adoptedSucceeded - 1}`,
    failedIndexes: `${BIG.adoptedSucceeded}-${BIG.adoptedSucceeded + BIG.adoptedFailed - 1}`,
  };
  const job = anIndexedJob(BIG.completions, { backoffLimitPerIndex: 0, parallelism: 400 }, { name: BIG_JOB, uid: 'big-job', status });
  const first = BIG.adoptedSucceeded + BIG.adoptedFailed;
  const pods = Array.from({ length: BIG.running + BIG.succeededPods }, (_, i) => {
    const index = first + i;
    const phase = index < first + BIG.running ? 'Running' : 'Succeeded';
    return podObservedEvent(aPod({ index, name: `${BIG_JOB}-${index}`, uid: `big-pod-${index}`, phase }), job, at, { clusterId: BIG_CLUSTER });
  });
  await deliverAt(service, at, [jobObservedEvent(job, at, { clusterId: BIG_CLUSTER }), ...pods]);
  return job;
}

/**
 * An Indexed Job of 100,000 indexes adopted mid-flight: the cluster reports every third index
 * completed below 90,000 and 100 failed indexes (an interval list of 30,000 runs, the worst
 * shape for the grid), and 50 pods run.
 */
async function hugeIndexedJob(service: Service): Promise<void> {
  const at = '2026-01-01T00:00:00.000Z';
  const completed = Array.from({ length: 30_000 }, (_, i) => String(i * 3)).join(',');
  const status = { startTime: at, succeeded: 30_000, failed: 100, completedIndexes: completed, failedIndexes: '90000-90099' };
  const job = anIndexedJob(100_000, { backoffLimitPerIndex: 0, parallelism: 50 }, { name: HUGE_JOB, uid: 'huge-job', status });
  const pods = Array.from({ length: 50 }, (_, i) => {
    const index = 95_000 + i;
    return podObservedEvent(aPod({ index, name: `${HUGE_JOB}-${index}`, uid: `huge-pod-${index}` }), job, at, { clusterId: BIG_CLUSTER });
  });
  await deliverAt(service, at, [jobObservedEvent(job, at, { clusterId: BIG_CLUSTER }), ...pods]);
}

/** A Job observed, then every commit of it fails deterministically: the writer parks it as stalled. */
async function stalledJob(service: Service, store: OneJobOverLimit): Promise<void> {
  const at = '2026-01-01T00:00:00.000Z';
  const job = aJob({}, { name: STALLED_JOB, uid: 'wedged-job' });
  await deliverAt(service, at, [jobObservedEvent(job, at, { clusterId: OPS_CLUSTER })]);
  store.breakJob(jobStream(job, OPS_CLUSTER));
  const parked: string[] = [];
  await deliverAt(service, at, [podObservedEvent(aPod({ name: `${STALLED_JOB}-a`, uid: 'wedged-pod' }), job, at, { clusterId: OPS_CLUSTER })], parked);
  if (!parked.some((reason) => reason.includes(STALLED_ERROR))) throw new Error(`the wedged Job did not stall: ${JSON.stringify(parked)}`);
}

/** A running Job, then an update that makes it Indexed, which the API server would refuse. */
async function refusedUpdateJob(service: Service): Promise<void> {
  const at = '2026-01-01T00:00:00.000Z';
  const later = '2026-01-01T00:01:00.000Z';
  const job = aJob({ parallelism: 1, completions: 1 }, { name: REFUSED_JOB, uid: 'resized-job' });
  await deliverAt(service, at, [
    jobObservedEvent(job, at, { clusterId: OPS_CLUSTER }),
    podObservedEvent(aPod({ name: `${REFUSED_JOB}-a`, uid: 'resized-pod' }), job, at, { clusterId: OPS_CLUSTER }),
  ]);
  const indexed = withSpec(job, { completionMode: 'Indexed' });
  await deliverAt(service, later, [jobObservedEvent(indexed, later, { clusterId: OPS_CLUSTER, eventId: 'resized/indexed' })]);
}

/**
 * A Job jobfold manages (it asks for the pods and writes the status), then 5,000 timer ticks,
 * then its pods succeed: the Job view lists the commands of the last 5,000 entries only, so those
 * decided first (the pod creations) come from `…/commands`.
 */
async function longJob(service: Service): Promise<void> {
  const at = '2026-01-01T00:00:00.000Z';
  const later = '2026-01-01T01:00:00.000Z';
  const job = aJob({ completions: 2, parallelism: 2, managedBy: JOBFOLD_CONTROLLER_NAME }, { name: LONG_JOB, uid: 'long-job' });
  const stream = jobStream(job, OPS_CLUSTER);
  await deliverAt(service, at, [jobObservedEvent(job, at, { clusterId: OPS_CLUSTER })]);
  const { head } = await service.store.read(stream, { limit: 1 });
  const ticks = Array.from({ length: 5000 }, (_, i) => {
    const tick = { type: 'Tick', eventId: `long-tick-${i}`, clusterId: OPS_CLUSTER, observedAt: at };
    return { eventId: tick.eventId, type: tick.type, observedAt: at, body: tick };
  });
  await service.store.commit(stream, { expectedHead: head, recordedAt: at, entries: ticks, outbox: [] });
  await deliverAt(service, later, [0, 1].map((i) =>
    podObservedEvent(aPod({ name: `${LONG_JOB}-${i}`, uid: `long-pod-${i}`, phase: 'Succeeded' }), job, later, { clusterId: OPS_CLUSTER })));
}

/** The failed JobSet of samples/jobset-exit-code-2.jsonl, then observed unchanged 5,000 times. */
async function longJobSet(service: Service): Promise<void> {
  const stream = await playJobSetJsonl(service, 'samples/jobset-exit-code-2.jsonl', OPS_CLUSTER);
  const { entries, head } = await service.store.read(stream, { limit: 1 });
  const observed = entries[0]!;
  const decider = jobSetDecider();
  let { state } = await loadState(decider, service.store, stream);
  if (observed.type !== 'JobSetObserved') throw new Error(`the JobSet's log starts with ${observed.type}`);
  const again = Array.from({ length: 5000 }, (_, i) => {
    const eventId = `${observed.eventId}/again-${i}`;
    return { eventId, type: observed.type, observedAt: observed.observedAt, body: { ...(observed.body as object), eventId } };
  });
  // A commit holds at most 3 MB: a thousand observations at a time.
  for (let i = 0; i < again.length; i += 1000) {
    await service.store.commit(stream, { expectedHead: head + i, recordedAt: observed.recordedAt, entries: again.slice(i, i + 1000), outbox: [] });
  }
  // The snapshot the writer would have taken at the head (so the view folds from it, not the
  // 5,000 entries): the state before them, then each copy folded as it is (parsed once).
  const copy = decider.log.event(observed);
  again.forEach((entry, i) => { state = decider.evolve(state, { ...copy, eventId: entry.eventId, seq: head + 1 + i }); });
  const end = head + again.length;
  await service.store.commit(stream, { expectedHead: end, recordedAt: observed.recordedAt, entries: [], outbox: [], snapshot: { seq: end, state: decider.snapshot.take(state).snapshot } });
}
