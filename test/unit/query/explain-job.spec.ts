import { beforeAll, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { explainJob } from '../../../shared/job/explain.ts';
import { JOBFOLD_DEFAULT_GATES } from '../../../shared/k8s/feature-gates.ts';
import { playJobScenario } from '../../../cli/scenario/play-job-scenario.ts';
import { ExplanationSchema } from '../../../functions/query/schemas/explanation-schemas.ts';
import { buildFleet, STORY_2 } from './support/fleet.ts';
import { jobPath, queryClient, type Get } from './support/query-client.ts';
import { aService, loadScenario } from './support/service-fleet.ts';

// Given finished Jobs played through the service, when they are explained, then each condition
// comes with the evidence its decision logged and the event that tipped it.

let get: Get;
beforeAll(async () => {
  const service = aService(new InMemoryEventStore());
  await buildFleet(service, 0);
  get = queryClient(service);
});

describe('GET …/jobs/{name}/explain', () => {
  it('explains story 2 as the pure fold does, but for the cluster', async () => {
    const { status, body } = await get(jobPath('c1', 'default', 'foobar', '/explain'));
    expect(status).toBe(200);
    expect(ExplanationSchema.parse(body)).toEqual(body);
    const pure = playJobScenario(loadScenario(STORY_2), { gates: JOBFOLD_DEFAULT_GATES, validateSpecs: true });
    const expected = JSON.parse(JSON.stringify(explainJob(pure.state, pure.log)));
    expect(body).toEqual({ ...expected, job: { ...expected.job, clusterId: 'c1' } });
  });

  it('says the leader succeeded under success policy rule 0, tipped by its pod', async () => {
    const { body } = await get(jobPath('c1', 'default', 'foobar', '/explain'));
    expect(body.outcome).toBe('Succeeded');
    const criteria = body.conditions.find((c: { type: string }) => c.type === 'SuccessCriteriaMet');
    expect(criteria.evidence).toMatchObject({ tippedBy: 15, rule: { policy: 'successPolicy', index: 0 } });
    expect(criteria.tippingEvent).toMatchObject({ seq: 15, type: 'PodObserved', at: '2026-01-01T00:05:00Z' });
    expect(body.terminatedPods).toHaveLength(9);
  });

  it('says the named failure failed by rule ExitCode2 on container main', async () => {
    const { body } = await get(jobPath('dev-eu-1', 'default', 'train', '/explain'));
    expect(body.outcome).toBe('Failed');
    expect(body.summary).toContain('PodFailurePolicy_ExitCode2');
    const target = body.conditions.find((c: { type: string }) => c.type === 'FailureTarget');
    expect(target.evidence).toMatchObject({
      rule: { policy: 'podFailurePolicy', index: 0, name: 'ExitCode2' },
      container: { name: 'main', exitCode: 2 },
    });
  });

  it('explains a running Job without conditions', async () => {
    const { body } = await get(jobPath('c1', 'default', 'foobar', '/explain'), { uid: 'job-uid-old' });
    expect(body).toMatchObject({ outcome: 'Running', conditions: [], rejection: [] });
  });

  it('answers 404 for an unknown Job and 400 for a bad name', async () => {
    expect((await get(jobPath('c9', 'default', 'foobar', '/explain'))).body).toEqual({
      message: 'job default/foobar not found in cluster c9',
    });
    const bad = await get(jobPath('c1', 'default', 'Foo_Bar', '/explain'));
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['path.name']);
  });
});
