import type { StreamId } from '../../../../shared/log/event-store.ts';
import { loadScenario, observeJob, playJsonl, playScenario, type Service } from './service-fleet.ts';

// The fleet the query tests read, built by the service's own ingest and reconcile:
// - c1/default/foobar (uid job-uid): KEP-3998 story 2, the leader succeeds: Complete;
// - c1/default/foobar (uid job-uid-old): an older Job of the same name, stopped while running;
// - dev-eu-1/default/train: the named-failure sample: Failed (PodFailurePolicy_ExitCode2);
// - c2/team-a|team-b/batch-<i>: `plainJobs` plain Jobs, created a minute apart, newest last.
// The JobSets (and their child Jobs) are in jobset-fleet.ts.

export const STORY_2 = 'samples/story-2-leader.json';
export const NAMED_FAILURE = 'samples/named-failure.jsonl';

export interface Fleet {
  readonly story: StreamId;
  readonly older: StreamId;
  readonly failed: StreamId;
  readonly plain: readonly StreamId[];
}

export const plainJobName = (i: number): string => `batch-${String(i).padStart(2, '0')}`;

export async function buildFleet(service: Service, plainJobs = 24): Promise<Fleet> {
  const scenario = loadScenario(STORY_2);
  const older = await playScenario(service, scenario, {
    clusterId: 'c1',
    uid: 'job-uid-old',
    creationTimestamp: '2025-12-31T23:00:00Z',
    events: 11,
  });
  const story = await playScenario(service, scenario, { clusterId: 'c1' });
  const failed = await playJsonl(service, NAMED_FAILURE);
  const plain: StreamId[] = [];
  for (let i = 0; i < plainJobs; i++) {
    const minute = String(i).padStart(2, '0');
    plain.push(
      await observeJob(service, {
        clusterId: 'c2',
        namespace: i % 2 === 0 ? 'team-a' : 'team-b',
        name: plainJobName(i),
        uid: `plain-${minute}`,
        creationTimestamp: `2026-02-01T00:${minute}:00Z`,
      }),
    );
  }
  return { story, older, failed, plain };
}
