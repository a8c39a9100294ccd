import { readFileSync } from 'node:fs';
import { PutEventsCommand, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { describe, expect, it } from 'vitest';
import { JOBFOLD_JOBSET_CONTROLLER_NAME } from '../../../shared/jobset/constants.ts';
import { wideJobSet } from '../../unit/jobset/support/builders.ts';
import { eventBridgeFor, getJson, startTestStack } from './local-stack-fixture.ts';

// The seed-002 JobSet traces through the local service on DynamoDB Local, delivered two ways:
// one PutEvents entry at a time, each sent once the service is quiet (paced), and in PutEvents
// calls of 10 as fast as they go (a burst). A JobSet is decided at the positions of its log,
// which takes its child Jobs' statuses in the order their events arrived, so both deliveries
// end the same: for exit code 3 one restart, the four Jobs of attempt 0 deleted and four
// created again, RestartingJobSet=False (JobsReady); for exit code 2 the JobSet failed.

const CLUSTER = 'dev-eu-1';
const NAME = 'restart-job-example';

function entries(path: string): PutEventsRequestEntry[] {
  return readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8').split('\n').filter((l) => l.trim() !== '')
    .map((line) => JSON.parse(line) as PutEventsRequestEntry);
}

async function outcomeOf(path: string, delivery: 'paced' | 'burst') {
  const stack = await startTestStack();
  try {
    const client = eventBridgeFor(stack);
    const all = entries(path);
    const size = delivery === 'paced' ? 1 : 10;
    for (let i = 0; i < all.length; i += size) {
      const output = await client.send(new PutEventsCommand({ Entries: all.slice(i, i + size) }));
      expect(output.FailedEntryCount ?? 0).toBe(0);
      if (delivery === 'paced') await stack.whenQuiet();
    }
    await stack.whenQuiet();
    client.destroy();
    const view = await getJson(`${stack.url}/v1/clusters/${CLUSTER}/namespaces/default/jobsets/${NAME}`);
    const commands = (await getJson(`${stack.url}/local/clusters/${CLUSTER}/commands`)).body as { detailType: string; detail: { jobName?: string } }[];
    const status = (view.body as { status: { restarts: number; terminalState: string; conditions: { type: string; status: string; reason: string }[] } }).status;
    const sent = (type: string) => commands.filter((c) => c.detailType === type).map((c) => c.detail.jobName).sort();
    return {
      restarts: status.restarts,
      terminalState: status.terminalState,
      conditions: status.conditions.map(({ type, status: s, reason }) => `${type}=${s} (${reason})`).sort(),
      deleted: sent('Job Deletion Requested'),
      created: sent('Job Creation Requested'),
    };
  } finally {
    await stack.stop();
  }
}

describe('the seed-002 JobSet traces, paced and in a burst', () => {
  it('exit code 3: the same restart either way', async () => {
    const paced = await outcomeOf('samples/jobset-exit-code-3.jsonl', 'paced');
    expect(paced).toMatchObject({ restarts: 1, terminalState: '' });
    expect(paced.conditions).toContain('RestartingJobSet=False (JobsReady)');
    expect(paced.deleted).toHaveLength(4);
    expect(await outcomeOf('samples/jobset-exit-code-3.jsonl', 'burst')).toEqual(paced);
  }, 180_000);

  it('exit code 2: the same failure either way', async () => {
    const paced = await outcomeOf('samples/jobset-exit-code-2.jsonl', 'paced');
    expect(paced).toMatchObject({ restarts: 0, terminalState: 'Failed' });
    expect(await outcomeOf('samples/jobset-exit-code-2.jsonl', 'burst')).toEqual(paced);
  }, 180_000);
});

describe('a JobSet of 500 replicated Jobs × 2 replicas that jobfold manages, on DynamoDB Local', () => {
  it('is decided and visible, and each of its 1,000 Job creations is published once', async () => {
    const stack = await startTestStack();
    try {
      const client = eventBridgeFor(stack);
      const object = wideJobSet('wide-uid', 500, 2, JOBFOLD_JOBSET_CONTROLLER_NAME);
      const detail = { eventId: 'wide/1', observedAt: '2026-01-01T00:00:00Z', partitionKey: 'wide-uid', object };
      const output = await client.send(new PutEventsCommand({ Entries: [{ Source: `jobfold.cluster.${CLUSTER}`, DetailType: 'JobSet Observed', Detail: JSON.stringify(detail) }] }));
      expect(output.FailedEntryCount ?? 0).toBe(0);
      await stack.whenQuiet();
      client.destroy();
      const view = await getJson(`${stack.url}/v1/clusters/${CLUSTER}/namespaces/default/jobsets/wide`);
      expect(view.status).toBe(200);
      expect((view.body as { status: { replicatedJobsStatus: unknown[] } }).status.replicatedJobsStatus).toHaveLength(500);
      const commands = (await getJson(`${stack.url}/local/clusters/${CLUSTER}/commands`)).body as { detailType: string; detail: { jobName: string } }[];
      const created = commands.filter((c) => c.detailType === 'Job Creation Requested').map((c) => c.detail.jobName);
      expect(created).toHaveLength(1000);
      expect(new Set(created).size).toBe(1000);
    } finally {
      await stack.stop();
    }
  }, 180_000);
});
