import { beforeAll, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { JobSetExplanationSchema } from '../../../functions/query/jobsets/jobset-explanation-schemas.ts';
import { JobSetViewSchema } from '../../../functions/query/jobsets/jobset-schemas.ts';
import { jobSetPath, queryClient, type Get } from './support/query-client.ts';
import { aService, busEvent, deliverAt } from './support/service-fleet.ts';

// Given a JobSet whose workers depend on its driver being Ready, observed and decided once
// (the driver's Job requested, not observed yet), when its routes are queried, then the view and
// the explanation say why the workers' Jobs are not created, and the spec shows dependsOn, the
// coordinator and the TTL.

const AT = '2026-03-01T00:00:00Z';
const template = { spec: { parallelism: 1, completions: 1, completionMode: 'Indexed', template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } } };
const jobSet = {
  apiVersion: 'jobset.x-k8s.io/v1alpha2',
  kind: 'JobSet',
  metadata: { name: 'dep', namespace: 'default', uid: 'dep-uid', generation: 1, creationTimestamp: AT },
  spec: {
    ttlSecondsAfterFinished: 30,
    coordinator: { replicatedJob: 'driver' },
    replicatedJobs: [
      { name: 'driver', replicas: 1, template },
      { name: 'workers', replicas: 2, dependsOn: [{ name: 'driver', status: 'Ready' }], template },
    ],
  },
};

let get: Get;
beforeAll(async () => {
  const service = aService(new InMemoryEventStore());
  await deliverAt(service, AT, [busEvent('c1', 'JobSet Observed', { eventId: 'dep-uid/1', observedAt: AT, object: jobSet })]);
  get = queryClient(service);
});

const WAITING = 'workers: 2 of 2 Jobs not created — waiting for driver to be Ready: 0 of 1 ready';

describe('GET …/jobsets/{name} of a JobSet whose workers depend on its driver', () => {
  it('lists the driver only among the commands, says why the workers wait, and shows the spec', async () => {
    const { status, body } = await get(jobSetPath('c1', 'default', 'dep'));
    expect(status).toBe(200);
    expect(JobSetViewSchema.parse(body)).toEqual(body);
    expect(body.commands.map((c: { type: string; name: string }) => `${c.type} ${c.name}`)).toEqual(['CreateJob dep-driver-0']);
    expect(body.explanation.waiting).toEqual([WAITING]);
    expect(body.spec.replicatedJobs.map((r: { dependsOn: unknown }) => r.dependsOn)).toEqual([[], [{ name: 'driver', status: 'Ready' }]]);
    expect(body.spec).toMatchObject({ coordinator: { replicatedJob: 'driver', jobIndex: 0, podIndex: 0 }, ttlSecondsAfterFinished: 30 });
  });

  it('explains the wait with its reason: the dependency, its status and how far it got', async () => {
    const { status, body } = await get(jobSetPath('c1', 'default', 'dep', '/explain'));
    expect(status).toBe(200);
    expect(JobSetExplanationSchema.parse(body)).toEqual(body);
    expect(body.waiting).toEqual([
      {
        replicatedJob: 'workers',
        missing: 2,
        replicas: 2,
        reason: { kind: 'dependency', dependency: 'driver', status: 'Ready', reached: 0, needed: 1, finished: 0 },
        sentence: WAITING,
      },
    ]);
  });
});
