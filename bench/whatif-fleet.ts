import { summaryItem } from '../functions/adapters/dynamodb-projection.ts';
import { entryItem } from '../functions/adapters/item-codec.ts';
import { pageItems } from '../functions/adapters/log-page-codec.ts';
import type { Item } from '../functions/adapters/metered-table.ts';
import { keys } from '../functions/adapters/table-layout.ts';
import { whatIfCommand } from '../cli/whatif-command.ts';
import { createLocalClient } from '../local/dynamodb-local.ts';
import { startLocalStack, type LocalStack } from '../local/local-stack.ts';
import { jobSummary } from '../shared/job/index.ts';
import type { StreamId } from '../shared/log/event-store.ts';
import type { Observation } from '../shared/job/index.ts';
import { JobSchema } from '../shared/k8s/job.ts';
import { PodSchema } from '../shared/k8s/pod.ts';
import { recordBatches, writeItems } from './recorded-jobs.ts';

// The fleet what-if through the local stack (issue 12): `jobs` recorded Jobs are written to
// DynamoDB Local (straight into the table in batches, so seeding is not what is measured), then `jobfold whatif --fleet` pages through them via POST /v1/whatif.
// A quarter of the Jobs failed once before succeeding: the patch backoffLimit 0 fails those at
// their first failure, 60 s before their other pod would have ended.
//   whatIfFleetSeconds     the whole fleet what-if, first page to last (target < 60 for 10,000 Jobs)
//   whatIfJobsPerSecond    Jobs refolded per second through the API
//   whatIfChanged          Jobs whose outcome the patch changes (expected: a quarter)
//   whatIfPodHoursSaved    pod-hours the patch saves over the fleet

export const WHATIF_BENCH_HELP = `and the fleet what-if through the local stack (bench/whatif-fleet.ts; --no-whatif skips it,
--whatif-jobs N sets the fleet's size, default 10,000):
  whatIfFleetSeconds    jobfold whatif --fleet over every recorded Job (target < 60 for 10,000)
  whatIfJobsPerSecond   Jobs refolded per second through POST /v1/whatif
  whatIfChanged, whatIfPodHoursSaved
                        what the patch backoffLimit 0 changes (a quarter of the Jobs)`;

export interface WhatIfFleetFigures {
  readonly whatIfFleetJobs: number;
  readonly whatIfFleetSeconds: number;
  readonly whatIfJobsPerSecond: number;
  readonly whatIfChanged: number;
  readonly whatIfPodHoursSaved: number;
  readonly whatIfSeedSeconds: number;
}

const T0 = Date.parse('2026-03-01T00:00:00Z');
const iso = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

export async function runWhatIfFleetBench(jobs = 10_000): Promise<WhatIfFleetFigures> {
  const stack = await startLocalStack({ port: 0, tableName: `bench-whatif-${Date.now()}` });
  try {
    let start = performance.now();
    await seedWhatIfFleet(stack, jobs);
    const whatIfSeedSeconds = (performance.now() - start) / 1000;

    start = performance.now();
    let out = '';
    const code = await whatIfCommand(
      ['--fleet', '--patch', '{"spec":{"backoffLimit":0}}', '--json', '--endpoint', stack.url],
      { out: (text) => (out += text), err: (text) => process.stderr.write(`${text}\n`), progress: everySecond((text) => process.stderr.write(`${text}\n`)) },
    );
    const seconds = (performance.now() - start) / 1000;
    if (code !== 0) throw new Error(`jobfold whatif --fleet exited ${code}`);
    const tally = JSON.parse(out) as { jobs: number; outcomeChanged: number; podSecondsSaved: number };
    return {
      whatIfFleetJobs: tally.jobs,
      whatIfFleetSeconds: round(seconds),
      whatIfJobsPerSecond: Math.round(tally.jobs / seconds),
      whatIfChanged: tally.outcomeChanged,
      whatIfPodHoursSaved: round(tally.podSecondsSaved / 3600),
      whatIfSeedSeconds: round(whatIfSeedSeconds),
    };
  } finally {
    await stack.stop();
  }
}

/**
 * Writes `jobs` recorded Jobs straight into the stack's table in batches (the items the store
 * writes for entries and summaries): the record is the input here, and the stack must not
 * reconcile it again. Also the fleet what-if integration test's fleet.
 */
export async function seedWhatIfFleet(stack: LocalStack, jobs: number): Promise<void> {
  const client = createLocalClient(stack.dynamoDbEndpoint);
  const items: Item[] = [];
  for (let i = 0; i < jobs; i++) {
    const { stream, entries, summary } = recordedJob(i);
    const pk = keys.stream(stream);
    // Every other Job as the single writer stores it (compressed log pages), the rest one item per entry.
    if (i % 2 === 1) items.push(...pageItems(pk, entries.map((entry, at) => ({ ...entry, seq: at + 1, recordedAt: iso(200) }))));
    else entries.forEach((entry, at) => items.push(entryItem(pk, entry, at + 1, iso(200), 'bench')));
    if (summary) items.push(summaryItem(stream, summary));
  }
  await writeItems(client, stack.tableName, items);
}

/** Job `i`'s log as the service records it: completions 2, parallelism 2; every 4th fails once. */
function recordedJob(i: number) {
  const name = `job-${String(i).padStart(5, '0')}`;
  const uid = `whatif-${i}`;
  const stream: StreamId = { kind: 'Job', clusterId: `c${i % 3}`, namespace: 'bench', uid };
  const job = JobSchema.parse({
    metadata: { name, namespace: 'bench', uid, creationTimestamp: iso(-i) },
    spec: { completions: 2, parallelism: 2, backoffLimit: 3, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } },
  });
  const pod = (podName: string, phase: string, at: number, exitCode?: number): Observation => ({
    type: 'PodObserved', eventId: `${uid}/${podName}/${phase}`, clusterId: stream.clusterId, observedAt: iso(at),
    pod: PodSchema.parse({
      metadata: { name: podName, namespace: 'bench', uid: `${uid}-${podName}`, creationTimestamp: iso(0), finalizers: ['batch.kubernetes.io/job-tracking'] },
      spec: { nodeName: 'node-1', restartPolicy: 'Never' },
      status: { phase, containerStatuses: [{ name: 'main', restartCount: 0, state: exitCode === undefined ? { running: {} } : { terminated: { exitCode, finishedAt: iso(at - 1) } } }] },
    }),
  });
  const fails = i % 4 === 1;
  const batches: Observation[][] = [
    [{ type: 'JobObserved', eventId: `${uid}/job`, clusterId: stream.clusterId, observedAt: iso(0), job }],
    [pod('a', 'Running', 10), pod('b', 'Running', 10)],
    fails ? [pod('a', 'Failed', 30, 1)] : [pod('a', 'Succeeded', 30, 0)],
    ...(fails ? [[pod('c', 'Running', 35)], [pod('c', 'Succeeded', 80, 0)]] : []),
    [pod('b', 'Succeeded', 90, 0)],
  ];
  const { state, entries } = recordBatches(batches, iso(0));
  return { stream, entries, summary: jobSummary(state, iso(200)) };
}

const round = (n: number): number => Math.round(n * 10) / 10;

/** Progress lines on stderr at most once a second (the command reports every page). */
function everySecond(write: (text: string) => void): (text: string) => void {
  let last = 0;
  return (text) => {
    const now = performance.now();
    if (text === '' || now - last < 1000) return;
    last = now;
    write(`bench whatif: ${text} (${round(now / 1000)} s)`);
  };
}

// `node bench/whatif-fleet.ts [JOBS]` runs this part alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await runWhatIfFleetBench(Number(process.argv[2] ?? 10_000)));
}
