import type { StreamId } from '../../../../shared/log/event-store.ts';
import { parseInbound } from '../../../../shared/contract/parse-inbound.ts';
import { busEvent, deliverAt, readPutEvents, type Service } from './service-fleet.ts';

// The JobSets the query tests read, built as the service builds them: each run of events sharing
// an observedAt is one delivery to the writer, which writes every Job's log (decided at each
// position; a child Job reports its status to the JobSet's log) and then the JobSet's (which
// writes its fleet row), as cli/replay/jobset-play-trace.ts replays a trace. Both samples are one
// JobSet (same uid), so each plays in its own cluster:
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

/** Plays a JobSet trace (PutEvents JSONL) through the writer, a delivery per observedAt, in `clusterId`. */
export async function playJobSetJsonl(service: Service, path: string, clusterId: string): Promise<StreamId> {
  const events = readPutEvents(path, clusterId);
  let jobSet: StreamId | undefined;
  for (let i = 0; i < events.length; ) {
    const at = events[i]!.detail.observedAt;
    const run = [];
    for (; i < events.length && events[i]!.detail.observedAt === at; i++) run.push(events[i]!);
    await deliverAt(service, at, run);
    for (const event of run) {
      const parsed = parseInbound(event);
      if (parsed.ok && parsed.targets[0]?.stream.kind === 'JobSet') jobSet = { ...parsed.targets[0].stream };
    }
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
  await deliverAt(service, at, [busEvent(clusterId, 'JobSet Observed', detail)]);
  return { kind: 'JobSet', clusterId, namespace: metadata.namespace, uid: metadata.uid };
}
