import type { DynamoDbEventStore } from '../functions/adapters/dynamodb-event-store.ts';
import type { StreamId } from '../shared/log/event-store.ts';
import { StateCache } from '../shared/decide/state-cache.ts';
import { writeBatch, type WriteDeps } from '../shared/decide/write-batch.ts';
import { jobDecider } from '../shared/job/index.ts';
import type { Observation } from '../shared/job/index.ts';
import type { FoldConfig } from '../shared/job/index.ts';
import { phase } from './bench-progress.ts';
import { syntheticEvents, syntheticJob, type SyntheticJobOptions } from './synthetic-job.ts';

// The life of a big Indexed Job written through the writer's own code (writeBatch: dedupe, decide
// at each position, log pages, snapshots, pod archive, summary) on the DynamoDB store, in
// batches as the ingest stream delivers them: the Job, its pods Pending → Running → Succeeded
// or Failed (bench/synthetic-job.ts), until its success policy (95% of the completions
// succeeded, so about `parallelism` pods are still running then) is met; then the cluster deletes
// every pod jobfold commanded to terminate, and the Job becomes Complete. The log this leaves
// is what bench/query-history.ts reads. The EventBridge hop and the local stream are left out
// (bench/service-path.ts measures those): this part is about the stored history.

export const BENCH_STREAM: StreamId = { kind: 'Job', clusterId: 'bench', namespace: 'default', uid: 'bench-uid' };

export interface JobLife {
  readonly observations: number;
  readonly head: number;
  readonly batches: number;
  readonly terminationsCommanded: number;
  readonly writeSeconds: number;
  /** The first and last log positions of each batch's commit, so readers can aim inside one. */
  readonly commits: readonly Commit[];
}

export interface Commit {
  readonly first: number;
  readonly last: number;
  readonly recordedAt: string;
}

const T0 = Date.parse('2026-01-01T00:00:00Z');

/** Writes the Job's life into `store`, `batch` observations per writeBatch call. */
export async function writeJobLife(
  store: DynamoDbEventStore, config: FoldConfig, options: SyntheticJobOptions, batch: number,
): Promise<JobLife> {
  // recordedAt moves one second per batch, so a time names a prefix of the log (status?at=TIME).
  let batches = 0;
  const deps: WriteDeps = { store, cache: new StateCache(), clock: () => new Date(T0 + batches * 1000).toISOString() };
  const decider = jobDecider(config);
  const synthetic = syntheticJob(options);
  const succeededCount = Math.floor(options.completions * 0.95);
  const job = { ...synthetic, spec: { ...synthetic.spec, successPolicy: { rules: [{ succeededCount }] } } };
  const first: Observation = { type: 'JobObserved', eventId: 'bench-job', clusterId: 'bench', observedAt: new Date(T0).toISOString(), job };
  const pods = syntheticEvents(options);
  const commits: Commit[] = [];
  const terminated = new Map<string, string>();
  let head = 0;
  let observations = 0;
  let lastObservedAt = first.observedAt;
  const write = async (group: readonly Observation[]) => {
    batches++;
    const outcome = await writeBatch(decider, deps, BENCH_STREAM, group);
    if (outcome.stalled) throw new Error(`the bench Job was parked: ${JSON.stringify(outcome.stalled)}`);
    if (outcome.head > head) commits.push({ first: head + 1, last: outcome.head, recordedAt: deps.clock() });
    lastObservedAt = group.at(-1)?.observedAt ?? lastObservedAt;
    head = outcome.head;
    observations += group.length;
    for (const command of outcome.commands) if (command.type === 'TerminatePod') terminated.set(command.podUid, command.podName);
  };
  const start = performance.now();
  const writing = phase('query bench: pod events written', pods.length);
  await write([first]);
  // Until the first terminations: the Job has met its policy, the rest of the stream is moot.
  for (let i = 0; i < pods.length && terminated.size === 0; i += batch) {
    await write(pods.slice(i, i + batch));
    writing.update(Math.min(pods.length, i + batch));
  }
  writing.end();
  const last = lastObservedAt;
  const deletions: Observation[] = [...terminated].map(([uid, name], i) => ({
    type: 'PodDeleted', eventId: `deleted-${uid}`, clusterId: 'bench', observedAt: new Date(Date.parse(last) + 10 + i).toISOString(), uid, name, namespace: 'default',
  }));
  for (let i = 0; i < deletions.length; i += batch) await write(deletions.slice(i, i + batch));
  return {
    observations,
    head,
    batches,
    terminationsCommanded: terminated.size,
    writeSeconds: (performance.now() - start) / 1000,
    commits,
  };
}
