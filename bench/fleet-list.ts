import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { summaryItem } from '../functions/adapters/dynamodb-projection.ts';
import { MeteredTable } from '../functions/adapters/metered-table.ts';
import type { JobSummary, StreamId, SummaryCondition } from '../shared/log/event-store.ts';
import { phase } from './bench-progress.ts';

// A fleet of Jobs for the fleet list at scale: `jobs` summaries over `clusters` clusters, five
// namespaces each, in a few conditions, written straight through the store's summary items
// (batched puts, as no service run could write 10,000 Jobs quickly). Used by
// test/integration/query/fleet-at-scale.spec.ts and by `npm run bench` (fleetListSeconds).

export interface FleetShape {
  readonly jobs: number;
  readonly clusters: number;
}

const T0 = Date.parse('2026-02-01T00:00:00Z');

/** The condition of the i-th Job: a mix of running, succeeded, failed and suspended Jobs. */
export function fleetCondition(i: number): SummaryCondition | undefined {
  const at = new Date(T0 + i * 1000 + 3_600_000).toISOString().replace('.000Z', 'Z');
  switch (i % 10) {
    case 0: case 1: case 2: case 3:
      return undefined;
    case 4: case 5: case 6:
      return { type: 'Complete', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods', lastTransitionTime: at };
    case 7:
      return { type: 'SuccessCriteriaMet', status: 'True', reason: 'SuccessPolicy', message: 'Matched rules at index 0', lastTransitionTime: at };
    case 8:
      return { type: 'Failed', status: 'True', reason: i % 20 === 8 ? 'BackoffLimitExceeded' : 'DeadlineExceeded', message: 'failed', lastTransitionTime: at };
    default:
      return { type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended', lastTransitionTime: at };
  }
}

/** The i-th Job's summary. Every seventh shares its createdAt with the one before (ties order by uid). */
export function fleetSummary(i: number, shape: FleetShape): JobSummary {
  const second = i - (i % 7 === 6 ? 1 : 0);
  const createdAt = new Date(T0 + second * 1000).toISOString().replace('.000Z', 'Z');
  const condition = fleetCondition(i);
  return {
    kind: 'Job',
    clusterId: `cluster-${String(i % shape.clusters).padStart(2, '0')}`,
    namespace: `team-${Math.floor(i / shape.clusters) % 5}`,
    name: `job-${String(i).padStart(5, '0')}`,
    uid: `uid-${String(i).padStart(5, '0')}`,
    ...(condition ? { latestCondition: condition } : {}),
    createdAt,
    updatedAt: createdAt,
    // A few need attention: stalled, or with a refused update (both in the console's counts).
    ...(i % 499 === 3 ? { stalled: { error: 'StoreLimitError: entry body is 400000', since: createdAt } } : {}),
    ...(i % 211 === 4 ? { refusedUpdate: { eventId: `refused-${i}`, errors: ['spec.completions: field is immutable'] } } : {}),
  };
}

/** Writes the fleet's summaries into `tableName`, 25 items a batch, `concurrency` batches at a time. */
export async function writeFleet(
  client: DynamoDBClient, tableName: string, shape: FleetShape, concurrency = 16, onWritten: (count: number) => void = () => {},
): Promise<JobSummary[]> {
  const table = new MeteredTable(client, tableName, { returnConsumedCapacity: 'NONE' });
  const summaries = Array.from({ length: shape.jobs }, (_, i) => fleetSummary(i, shape));
  const items = summaries.map((s) => {
    const stream: StreamId = { kind: s.kind, clusterId: s.clusterId, namespace: s.namespace, uid: s.uid };
    const { kind: _k, clusterId: _c, namespace: _n, uid: _u, ...update } = s;
    return summaryItem(stream, update);
  });
  const batches: (typeof items)[] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  const worker = async () => {
    for (let batch = batches.shift(); batch; batch = batches.shift()) {
      await table.batchPut(batch);
      onWritten(batch.length);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return summaries;
}

export interface FleetListFigures {
  readonly fleetJobs: number;
  readonly fleetClusters: number;
  readonly fleetListPages: number;
  /** Paging through every Job, 100 a page, over HTTP through the query function. */
  readonly fleetListSeconds: number;
  /** Paging through one cluster's Jobs (`?cluster=`). */
  readonly fleetListOneClusterSeconds: number;
  readonly fleetListComplete: boolean;
  /** One GET /v1/fleet: the console's exact counts by state and reason over every Job, and a page of 50. */
  readonly fleetOverviewSeconds: number;
  readonly fleetOverviewComplete: boolean;
}

/** Writes the fleet into a fresh local stack and times paging through `GET /v1/jobs`. */
export async function runFleetListBench(shape: FleetShape = { jobs: 10_000, clusters: 20 }): Promise<FleetListFigures> {
  const { startLocalStack } = await import('../local/local-stack.ts');
  const { createLocalClient } = await import('../local/dynamodb-local.ts');
  const stack = await startLocalStack({ port: 0, tableName: `bench-fleet-${Date.now()}` });
  try {
    const client = createLocalClient(stack.dynamoDbEndpoint);
    const writing = phase('fleet: summaries written', shape.jobs);
    let written = 0;
    const fleet = await writeFleet(client, stack.tableName, shape, 16, (n) => writing.update((written += n)));
    writing.end();
    client.destroy();
    const pageThrough = async (query: string): Promise<{ uids: string[]; pages: number; seconds: number }> => {
      const uids: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      const start = performance.now();
      do {
        const response = await fetch(`${stack.url}/v1/jobs?limit=100${query}${cursor ? `&cursor=${cursor}` : ''}`);
        if (!response.ok) throw new Error(`GET /v1/jobs answered ${response.status}: ${await response.text()}`);
        const body = (await response.json()) as { items: { uid: string }[]; nextCursor?: string };
        uids.push(...body.items.map((item) => item.uid));
        cursor = body.nextCursor;
        pages++;
      } while (cursor !== undefined);
      return { uids, pages, seconds: (performance.now() - start) / 1000 };
    };
    const all = await pageThrough('');
    const one = await pageThrough('&cluster=cluster-00');
    const overviewStart = performance.now();
    const overview = (await (await fetch(`${stack.url}/v1/fleet`)).json()) as { total?: number };
    const overviewSeconds = (performance.now() - overviewStart) / 1000;
    const expectedOne = fleet.filter((s) => s.clusterId === 'cluster-00').length;
    return {
      fleetJobs: shape.jobs,
      fleetClusters: shape.clusters,
      fleetListPages: all.pages,
      fleetListSeconds: Math.round(all.seconds * 10) / 10,
      fleetListOneClusterSeconds: Math.round(one.seconds * 10) / 10,
      fleetListComplete: new Set(all.uids).size === shape.jobs && all.uids.length === shape.jobs
        && new Set(one.uids).size === expectedOne && one.uids.length === expectedOne,
      fleetOverviewSeconds: Math.round(overviewSeconds * 10) / 10,
      fleetOverviewComplete: overview.total === shape.jobs,
    };
  } finally {
    await stack.stop();
  }
}
