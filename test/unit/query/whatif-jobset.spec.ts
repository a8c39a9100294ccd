import { beforeAll, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { JobSetWhatIfReportSchema } from '../../../functions/query/schemas/whatif-schemas.ts';
import { buildJobSetFleet, JOBSET_NAME } from './support/jobset-fleet.ts';
import { jobSetPath, queryClient, type Get } from './support/query-client.ts';
import { aService } from './support/service-fleet.ts';

// Given the seed-002 JobSet played through the service (c1: a simulation exits with code 2 and
// rule 0 fails the JobSet; c2: exit code 3 and rule 1 restarts it), when a patch of its failure
// policy is posted, then its stored log — its own events, its child Jobs' statuses and its
// decisions — is refolded under it and the answer names the rule each side applied.

let get: Get;
const post = (path: string, body: unknown) => get(path, {}, 'POST', JSON.stringify(body));

beforeAll(async () => {
  const service = aService(new InMemoryEventStore());
  await buildJobSetFleet(service);
  get = queryClient(service);
});

const whatIf = (cluster: string) => jobSetPath(cluster, 'default', JOBSET_NAME, '/whatif');

describe('POST …/jobsets/{name}/whatif', () => {
  it('fails the restarted JobSet at its first failure when maxRestarts is 0', async () => {
    const { status, body } = await post(whatIf('c2'), { patch: { spec: { failurePolicy: { maxRestarts: 0 } } } });
    expect(status).toBe(200);
    expect(JobSetWhatIfReportSchema.parse(body)).toEqual(body);
    expect(body.recorded).toMatchObject({ outcome: 'Running', restarts: 1 });
    expect(body.whatIf).toMatchObject({ outcome: 'Failed', condition: 'Failed', reason: 'ReachedMaxRestarts', exact: true, restarts: 0 });
    expect(body.divergesAtEvent).toBe(body.whatIf.atEvent);
    expect(body.divergence.recorded[0]).toMatchObject({ kind: 'restarted', rule: 'failurePolicyRule1 (rule 1, RestartJobSet)', jobReason: 'PodFailurePolicy_ExitCode3' });
    expect(body.divergence.whatIf[0]).toMatchObject({ kind: 'failed', reason: 'ReachedMaxRestarts', jobReason: 'PodFailurePolicy_ExitCode3' });
  });

  it('restarts the failed JobSet instead when its FailJobSet rule is dropped, and says the rest is unknown', async () => {
    const { body } = await post(whatIf('c1'), { patch: { spec: { failurePolicy: { rules: null } } } });
    expect(body.recorded).toMatchObject({ outcome: 'Failed', reason: 'FailJobSetFailurePolicyAction' });
    expect(body.whatIf).toMatchObject({ outcome: 'Running', exact: false, restarts: 1 });
    expect(body.divergence.whatIf[0]).toMatchObject({ kind: 'restarted', rule: 'no rule matched (default action)' });
  });

  it('answers a patch that changes nothing with no divergence', async () => {
    const { body } = await post(whatIf('c1'), { patch: { spec: { suspend: false } } });
    expect(body).toMatchObject({ divergesAtEvent: null, divergence: null, whatIf: { outcome: 'Failed', exact: true } });
  });

  it('answers an invalid patched spec with 400 at body.patch.<field>, an unknown JobSet with 404', async () => {
    const { status, body } = await post(whatIf('c1'), { patch: { spec: { failurePolicy: { rules: [{ name: 'x', action: 'Bogus' }] } } } });
    expect(status).toBe(400);
    expect(body.errors[0]).toEqual({ path: 'body.patch.spec.failurePolicy.rules[0].action', message: expect.stringContaining('Unsupported value: "Bogus"') });
    expect((await post(whatIf('c9'), { patch: {} })).status).toBe(404);
  });
});
