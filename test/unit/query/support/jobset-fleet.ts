import type { StreamId } from '../../../../shared/app/event-store.ts';
import { reconcile } from '../../../../shared/app/reconcile.ts';
import { reconcileJobSet } from '../../../../shared/app/reconcile-jobset.ts';
import { streamKey } from '../../../../shared/app/stream-key.ts';
import { busEvent, ingestAt, readPutEvents, type Service } from './service-fleet.ts';

// The JobSets the query tests read, built as the service builds them: each event ingested, then,
// per run of events sharing an observedAt, every Job seen so far reconciled at that time (a child
// Job reports its status to the JobSet's log) and then the JobSet (which writes its fleet row),
// as cli/replay/jobset-play-trace.ts replays a trace. Both samples are one JobSet (same uid), so
// each plays in its own cluster:
// - c1/default/restart-job-example: samples/jobset-exit-code-2.jsonl, a child Job's pod exits
//   with code 2: the Job fails with PodFailurePolicy_ExitCode2, rule 0 FailJobSet fails the JobSet;
// - c2/default/restart-job-example: samples/jobset-exit-code-3.jsonl, exit code 3:
//   PodFailurePolicy_ExitCode3, rule 1 RestartJobSet restarts it, and attempt 1 runs;
// - c3/team-a|team-b/sweep-<i>: `plainJobSets` JobSets observed and reconciled once, created a
//   minute apart, newest last (their child Jobs are requested, never observed).

export const EXIT_CODE_2 = 'samples/jobset-exit-code-2.jsonl';
export const EXIT_CODE_3 = 'samples/jobset-exit-code-3.jsonl';
export const JOBSET_NAME = 'restart-job-example';

export interface JobSetFleet {
  readonly failed: StreamId;
  readonly restarted: StreamId;
  readonly plain: readonly StreamId[];
}

export const plainJobSetName = (i: number): string => `sweep-${String(i).padStart(2, '0')}`;

export async function buildJobSetFleet(service: Service, plainJobSets = 0): Promise<JobSetFleet> {
  const failed = await playJobSetJsonl(service, EXIT_CODE_2, 'c1');
  const restarted = await playJobSetJsonl(service, EXIT_CODE_3, 'c2');
  const plain: StreamId[] = [];
  for (let i = 0; i < plainJobSets; i++) {
    const minute = String(i).padStart(2, '0');
    const metadata = {
      name: plainJobSetName(i),
      namespace: i % 2 === 0 ? 'team-a' : 'team-b',
      uid: `sweep-${minute}`,
      creationTimestamp: `2026-02-01T00:${minute}:00Z`,
    };
    plain.push(await observeJobSet(service, 'c3', metadata));
  }
  return { failed, restarted, plain };
}

/** Plays a JobSet trace (PutEvents JSONL) through ingest and both reconcilers, in `clusterId`. */
export async function playJobSetJsonl(service: Service, path: string, clusterId: string): Promise<StreamId> {
  const events = readPutEvents(path, clusterId);
  const jobs = new Map<string, StreamId>();
  let jobSet: StreamId | undefined;
  for (let i = 0; i < events.length; ) {
    const at = events[i]!.detail.observedAt;
    for (; i < events.length && events[i]!.detail.observedAt === at; i++) {
      const stream = await ingestAt(service, at, events[i]);
      if (stream.kind === 'Job') jobs.set(streamKey(stream), stream);
      else jobSet = stream;
    }
    for (const stream of jobs.values()) await reconcile({ ...service, clock: () => at }, stream);
    if (jobSet) await reconcileJobSet({ store: service.store, clock: () => at, snapshotEvery: service.snapshotEvery }, jobSet);
  }
  if (!jobSet) throw new Error(`${path} names no JobSet`);
  return jobSet;
}

/** A JobSet with the samples' spec under other metadata, observed and reconciled once. */
export async function observeJobSet(
  service: Service,
  clusterId: string,
  metadata: { name: string; namespace: string; uid: string; creationTimestamp: string },
): Promise<StreamId> {
  const observed = readPutEvents(EXIT_CODE_2).find((event) => event['detail-type'] === 'JobSet Observed');
  const sample = observed?.detail as { object: Record<string, unknown> } | undefined;
  if (!sample) throw new Error(`${EXIT_CODE_2} has no JobSet Observed event`);
  const object = { ...sample.object, metadata: { ...metadata, generation: 1 } };
  const at = metadata.creationTimestamp;
  const detail = { eventId: `${metadata.uid}/jobset`, observedAt: at, object };
  const stream = await ingestAt(service, at, busEvent(clusterId, 'JobSet Observed', detail));
  await reconcileJobSet({ store: service.store, clock: () => at, snapshotEvery: service.snapshotEvery }, stream);
  return stream;
}
