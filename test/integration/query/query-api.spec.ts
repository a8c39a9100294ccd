import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { JOBFOLD_DEFAULT_GATES } from '../../../shared/k8s/feature-gates.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { playJobScenario } from '../../../cli/scenario/play-job-scenario.ts';
import { HistoryPageSchema } from '../../../functions/query/schemas/history-schemas.ts';
import { JobListSchema, JobViewSchema, StatusAtSchema } from '../../../functions/query/schemas/job-schemas.ts';
import { JobSetExplanationSchema } from '../../../functions/query/jobsets/jobset-explanation-schemas.ts';
import { JobSetViewSchema } from '../../../functions/query/jobsets/jobset-schemas.ts';
import { buildFleet, plainJobName, STORY_2 } from '../../unit/query/support/fleet.ts';
import { buildJobSetFleet, JOBSET_NAME, plainJobSetName } from '../../unit/query/support/jobset-fleet.ts';
import { jobPath, jobSetPath, queryClient, type Get } from '../../unit/query/support/query-client.ts';
import { aService, loadScenario } from '../../unit/query/support/service-fleet.ts';
import { freshTable, localClient } from '../store/local-table.ts';

// The query API over DynamoDB Local: the same fleets as the unit tests (fewer plain Jobs and
// JobSets), built by ingest and the reconcilers on the DynamoDB store, read through the real
// handler. The JobSets have a table of their own, so their child Jobs stay out of the Job list.

let client: DynamoDBClient;
let get: Get;
let getJobSets: Get;
beforeAll(async () => {
  client = localClient();
  const service = aService(new DynamoDbEventStore({ client, tableName: await freshTable(client) }));
  await buildFleet(service, 5);
  get = queryClient(service);
  const jobSets = aService(new DynamoDbEventStore({ client, tableName: await freshTable(client) }));
  await buildJobSetFleet(jobSets, 3);
  getJobSets = queryClient(jobSets);
});
afterAll(() => client.destroy());

const pure = playJobScenario(loadScenario(STORY_2), { gates: JOBFOLD_DEFAULT_GATES, validateSpecs: true });

describe('the query API on DynamoDB', () => {
  it('lists the fleet newest first and pages it with the opaque cursor', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const { status, body } = await get('/v1/jobs', { limit: '3', ...(cursor ? { cursor } : {}) });
      expect(status).toBe(200);
      JobListSchema.parse(body);
      seen.push(...body.items.map((i: { uid: string }) => i.uid));
      cursor = body.nextCursor;
    } while (cursor !== undefined);
    expect(seen).toEqual(['plain-04', 'plain-03', 'plain-02', 'plain-01', 'plain-00', 'job-uid', '7c9e6679-7425-40de-944b-e07fc1f90ae7', 'job-uid-old']);
  });

  it('filters by cluster, namespace and condition on the indexes', async () => {
    const teamA = await get('/v1/jobs', { cluster: 'c2', namespace: 'team-a' });
    expect(teamA.body.items.map((i: { name: string }) => i.name)).toEqual([plainJobName(4), plainJobName(2), plainJobName(0)]);
    const failed = await get('/v1/jobs', { condition: 'Failed' });
    expect(failed.body.items.map((i: { name: string }) => i.name)).toEqual(['train']);
  });

  it('refuses a cursor of other filters with 400', async () => {
    const first = await get('/v1/jobs', { cluster: 'c2', limit: '1' });
    const { status, body } = await get('/v1/jobs', { limit: '1', cursor: first.body.nextCursor });
    expect(status).toBe(400);
    expect(body.errors[0].path).toBe('query.cursor');
  });

  it('shows the Job as the pure fold computes it, and the older one by uid', async () => {
    const latest = await get(jobPath('c1', 'default', 'foobar'));
    expect(JobViewSchema.parse(latest.body)).toEqual(latest.body);
    expect(latest.body.status).toEqual(JSON.parse(JSON.stringify(jobStatus(pure.state))));
    expect(latest.body.explanation.outcome).toBe('Succeeded');
    const older = await get(jobPath('c1', 'default', 'foobar'), { uid: 'job-uid-old' });
    expect(older.body.job.uid).toBe('job-uid-old');
    expect(older.body.explanation.outcome).toBe('Running');
  });

  it('pages the history by seq', async () => {
    const first = await get(jobPath('c1', 'default', 'foobar', '/history'), { limit: '20' });
    HistoryPageSchema.parse(first.body);
    expect(first.body.nextAfter).toBe(20);
    const rest = await get(jobPath('c1', 'default', 'foobar', '/history'), { after: '20', limit: '20' });
    expect(rest.body.nextAfter).toBeUndefined();
    const types = [...first.body.entries, ...rest.body.entries].map((e: { type: string }) => e.type);
    expect(types).toEqual(pure.log.map((e) => e.type));
  });

  it('explains the named failure with its rule', async () => {
    const { body } = await get(jobPath('dev-eu-1', 'default', 'train', '/explain'));
    expect(body.outcome).toBe('Failed');
    expect(body.conditions.find((c: { type: string }) => c.type === 'FailureTarget').evidence.rule).toMatchObject({ name: 'ExitCode2' });
  });

  it('answers the status at the head (snapshot and tail), at a seq and at a time', async () => {
    const head = await get(jobPath('c1', 'default', 'foobar', '/status'));
    expect(StatusAtSchema.parse(head.body)).toEqual(head.body);
    expect(head.body.status).toEqual((await get(jobPath('c1', 'default', 'foobar', '/status'), { at: '28' })).body.status);
    const interim = await get(jobPath('c1', 'default', 'foobar', '/status'), { at: '2026-01-01T00:05:00Z' });
    expect(interim.body.outcome).toBe('Succeeding');
  });

  it('answers 404 for unknown objects', async () => {
    expect(await get(jobPath('c1', 'default', 'nope'))).toMatchObject({ status: 404, body: { message: 'job default/nope not found in cluster c1' } });
    expect((await get(jobSetPath('c1', 'default', 'nope'))).status).toBe(404);
  });
});

describe('the JobSet routes on DynamoDB', () => {
  it('lists the JobSets newest first and pages them with the opaque cursor', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const { status, body } = await getJobSets('/v1/jobsets', { limit: '2', ...(cursor ? { cursor } : {}) });
      expect(status).toBe(200);
      JobListSchema.parse(body);
      seen.push(...body.items.map((i: { clusterId: string; name: string }) => `${i.clusterId}/${i.name}`));
      cursor = body.nextCursor;
    } while (cursor !== undefined);
    expect(seen).toEqual([2, 1, 0].map((i) => `c3/${plainJobSetName(i)}`).concat([`c2/${JOBSET_NAME}`, `c1/${JOBSET_NAME}`]));
    const failed = await getJobSets('/v1/jobsets', { condition: 'Failed' });
    expect(failed.body.items.map((i: { clusterId: string }) => i.clusterId)).toEqual(['c1']);
  });

  it('shows the failed JobSet and explains its failure by rule failurePolicyRule0', async () => {
    const view = await getJobSets(jobSetPath('c1', 'default', JOBSET_NAME));
    expect(JobSetViewSchema.parse(view.body)).toEqual(view.body);
    expect(view.body.status.terminalState).toBe('Failed');
    const { body } = await getJobSets(jobSetPath('c1', 'default', JOBSET_NAME, '/explain'));
    expect(JobSetExplanationSchema.parse(body)).toEqual(body);
    expect(body.conditions[0].evidence).toMatchObject({ rule: { name: 'failurePolicyRule0' }, failedJob: { reason: 'PodFailurePolicy_ExitCode2' } });
  });

  it('explains the restart by rule failurePolicyRule1', async () => {
    const { body } = await getJobSets(jobSetPath('c2', 'default', JOBSET_NAME, '/explain'));
    expect(JobSetExplanationSchema.parse(body)).toEqual(body);
    expect(body.restarts).toBe(1);
    expect(body.events.find((e: { type: string }) => e.type === 'JobSetRestarted').decision).toMatchObject({
      action: 'RestartJobSet',
      rule: { name: 'failurePolicyRule1' },
      failedJob: { reason: 'PodFailurePolicy_ExitCode3' },
    });
  });
});
