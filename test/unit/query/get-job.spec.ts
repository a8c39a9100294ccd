import { beforeAll, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { explainJob } from '../../../shared/job/explain.ts';
import { JOBFOLD_DEFAULT_GATES } from '../../../shared/k8s/feature-gates.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { playJobScenario } from '../../../cli/scenario/play-job-scenario.ts';
import { JobViewSchema } from '../../../functions/query/schemas/job-schemas.ts';
import { buildFleet, STORY_2 } from './support/fleet.ts';
import { jobPath, queryClient, type Get } from './support/query-client.ts';
import { aService, loadScenario } from './support/service-fleet.ts';

// Given the fleet built through ingest and reconcile, when a Job is fetched, then the view
// holds what `jobfold replay` shows, equal to the pure fold of the same scenario.

let get: Get;
beforeAll(async () => {
  const service = aService(new InMemoryEventStore());
  await buildFleet(service, 2);
  get = queryClient(service);
});

const pure = playJobScenario(loadScenario(STORY_2), { gates: JOBFOLD_DEFAULT_GATES, validateSpecs: true });

describe('GET /v1/clusters/{cluster}/namespaces/{namespace}/jobs/{name}', () => {
  it('shows the status the pure fold computes for the same events', async () => {
    const response = await get(jobPath('c1', 'default', 'foobar'));
    expect(response.status).toBe(200);
    expect(JobViewSchema.parse(response.body)).toEqual(response.body);
    expect(response.body.status).toEqual(JSON.parse(JSON.stringify(jobStatus(pure.state))));
    expect(response.body.status).toMatchObject({ succeeded: 1, completedIndexes: '0', active: 0, terminating: 0 });
  });

  it('names the Job and summarises its spec with batch/v1 defaults applied', async () => {
    const { body } = await get(jobPath('c1', 'default', 'foobar'));
    expect(body.job).toEqual({ clusterId: 'c1', namespace: 'default', name: 'foobar', uid: 'job-uid', creationTimestamp: '2026-01-01T00:00:00Z' });
    expect(body.deleted).toBe(false);
    expect(body.spec).toEqual({
      completionMode: 'Indexed',
      parallelism: 10,
      completions: 10,
      backoffLimit: 6,
      backoffLimitPerIndex: null,
      maxFailedIndexes: null,
      activeDeadlineSeconds: null,
      suspend: false,
      managedBy: null,
      podReplacementPolicy: null,
      successPolicy: { rules: [{ succeededIndexes: '0' }, { succeededCount: 5, succeededIndexes: '1-9' }] },
      podFailurePolicy: null,
    });
  });

  it('lists the commands issued: 10 pod creations computed, 9 lingering pods terminated and sent', async () => {
    const { body } = await get(jobPath('c1', 'default', 'foobar'));
    expect(body.commands.map((c: { type: string; at: string; dispatched: boolean }) => [c.type, c.at, c.dispatched])).toEqual([
      ['CreatePod', '2026-01-01T00:00:00Z', false],
      ['TerminatePod', '2026-01-01T00:05:00Z', true],
    ]);
    expect(body.commands[0]).toMatchObject({ count: 10, indexes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] });
    expect(body.commands[1]).toMatchObject({ cause: 'JobFinishing', reason: 'SuccessPolicy', message: 'Matched rules at index 0' });
    expect(body.commands[1].pods.map((p: { name: string }) => p.name)).toEqual(
      ['mypod-1', 'mypod-2', 'mypod-3', 'mypod-4', 'mypod-5', 'mypod-6', 'mypod-7', 'mypod-8', 'mypod-9'],
    );
  });

  it('summarises the explanation of the pure fold, sentence by sentence', async () => {
    const { body } = await get(jobPath('c1', 'default', 'foobar'));
    const expected = explainJob(pure.state, pure.log);
    expect(body.explanation).toEqual({
      outcome: 'Succeeded',
      summary: expected.summary,
      conditions: expected.conditions.map(({ type, status, reason, sentence }) => ({ type, status, reason, sentence })),
      rejection: [],
    });
  });

  it('says where the log stands', async () => {
    const { body } = await get(jobPath('c1', 'default', 'foobar'));
    expect(body.log).toEqual({ head: pure.log.length, lastRecordedAt: '2026-01-01T00:05:35Z' });
  });

  it('shows a pod failure policy as written', async () => {
    const { body } = await get(jobPath('dev-eu-1', 'default', 'train'));
    expect(body.spec.podFailurePolicy.rules.map((r: { name: string; action: string }) => [r.name, r.action])).toEqual([
      ['ExitCode2', 'FailJob'],
      ['Disrupted', 'Ignore'],
    ]);
    expect(body.explanation.outcome).toBe('Failed');
  });
});

describe('a name used by two Jobs', () => {
  it('shows the most recently created Job by default', async () => {
    const { body } = await get(jobPath('c1', 'default', 'foobar'));
    expect(body.job.uid).toBe('job-uid');
  });

  it('shows the older Job when its uid is given', async () => {
    const response = await get(jobPath('c1', 'default', 'foobar'), { uid: 'job-uid-old' });
    expect(response.status).toBe(200);
    expect(response.body.job).toMatchObject({ uid: 'job-uid-old', creationTimestamp: '2025-12-31T23:00:00Z' });
    expect(response.body.explanation.outcome).toBe('Running');
    expect(response.body.status.active).toBe(10);
  });

  it('answers 404 for a uid the name never had', async () => {
    const response = await get(jobPath('c1', 'default', 'foobar'), { uid: 'nope' });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'job default/foobar with uid nope not found in cluster c1' });
  });
});
