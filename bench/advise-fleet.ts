import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { summaryItem } from '../functions/adapters/dynamodb-projection.ts';
import { pageItems } from '../functions/adapters/log-page-codec.ts';
import type { Item } from '../functions/adapters/metered-table.ts';
import { keys } from '../functions/adapters/table-layout.ts';
import { adviseCommand } from '../cli/client/advise-command.ts';
import { createLocalClient } from '../local/dynamodb-local.ts';
import { jobSummary } from '../shared/job/index.ts';
import type { StreamId } from '../shared/log/event-store.ts';
import type { AdviceView } from '../shared/advise/view.ts';
import type { Observation } from '../shared/job/index.ts';
import { JobSchema } from '../shared/k8s/job.ts';
import { PodSchema } from '../shared/k8s/pod.ts';
import { recordBatches, writeItems } from './recorded-jobs.ts';
import { startServiceProcess } from './service-process.ts';

// `jobfold advise` over a fleet of recorded Jobs on DynamoDB Local (issue 25): the service runs
// as `npm start` runs it, in its own process; `jobs` recorded Jobs, the runs of `jobs / 100`
// CronJobs over 20 clusters, are written straight into its table (a chunk at a time, so the
// bench's own memory stays small), then the advice runs from this process through the API as a
// user runs it. Five kinds of family, in turn (docs/advise.md): an exit code that never
// succeeds on retry; disruptions that pass on retry, with runs failing on mixed exit codes; a
// leader/worker Indexed Job whose workers are terminated after the leader succeeds; runs that
// hang now and then (a deadline); and a quorum Job whose failing index a FailJob rule would
// wrongly fail (every candidate harmful).
//   adviseSeconds          both passes, first call to the advice
//   adviseJobsPerSecond    finished Jobs per second (each read twice: mining, checking)
//   adviseFamilies, adviseProposals, adviseFamiliesWithPatch, adviseHarmfulProposals
//   adviseServicePeakRssMb the service's process (the query handler holds one scan page)
//   adviseClientPeakRssMb  this process (the CLI merges evidence and checks)
//   adviseCpuSeconds       CPU time of the advice in the service, this client and DynamoDB Local

export const ADVISE_BENCH_HELP = `and jobfold advise through the service (bench/advise-fleet.ts; --no-advise skips it,
--advise-jobs N sets the fleet's size, default 10,000, the runs of N/100 CronJobs):
  adviseSeconds         both passes over the recorded fleet (target < 60 for 10,000 Jobs)
  adviseJobsPerSecond   finished Jobs advised per second
  adviseFamilies, adviseProposals, adviseFamiliesWithPatch, adviseHarmfulProposals
  adviseServicePeakRssMb, adviseClientPeakRssMb
                        peak RSS of the service's process and of the advising client
  adviseCpuSeconds      CPU time of the advice: service, client, DynamoDB Local`;

export interface AdviseFleetFigures {
  readonly adviseJobs: number;
  readonly adviseSeconds: number;
  readonly adviseJobsPerSecond: number;
  readonly adviseFamilies: number;
  readonly adviseProposals: number;
  readonly adviseFamiliesWithPatch: number;
  readonly adviseHarmfulProposals: number;
  readonly adviseServicePeakRssMb: number;
  readonly adviseClientPeakRssMb: number;
  /** CPU time the advice took in the service's process, this client and DynamoDB Local (wall time on a loaded machine says little). */
  readonly adviseCpuSeconds: { readonly service: number; readonly client: number; readonly dynamoDbLocal: number | null };
  readonly adviseSeedSeconds: number;
}

const T0 = Date.parse('2026-03-01T00:00:00Z');
const RUNS_PER_FAMILY = 100;
const CLUSTERS = 20;

export async function runAdviseFleetBench(jobs = 10_000): Promise<AdviseFleetFigures> {
  const service = await startServiceProcess();
  try {
    const { dynamoDbEndpoint, tableName } = service;
    if (!dynamoDbEndpoint || !tableName) throw new Error('the service did not print its DynamoDB Local endpoint and table');
    let start = performance.now();
    await seedAdviceFleet(createLocalClient(dynamoDbEndpoint), tableName, jobs);
    const adviseSeedSeconds = (performance.now() - start) / 1000;

    const serviceCpuBefore = (await service.status()).process.cpuSeconds;
    const dynamoDbLocalCpuBefore = service.childrenCpuSeconds();
    const clientCpuBefore = process.cpuUsage();
    start = performance.now();
    const view = JSON.parse(await adviseCommand(['--endpoint', service.url, '-o', 'json'])) as AdviceView;
    const seconds = (performance.now() - start) / 1000;
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const dynamoDbLocalCpuAfter = service.childrenCpuSeconds();
    const status = await service.status();
    return {
      adviseJobs: view.jobs,
      adviseSeconds: round(seconds),
      adviseJobsPerSecond: Math.round(view.jobs / seconds),
      adviseFamilies: view.families,
      adviseProposals: view.proposals,
      adviseFamiliesWithPatch: view.advice.filter((f) => f.recommended).length,
      adviseHarmfulProposals: view.advice.flatMap((f) => f.proposals).filter((p) => p.check.harm.length > 0).length,
      adviseServicePeakRssMb: status.process.peakRssMb,
      adviseClientPeakRssMb: Math.round((process.resourceUsage().maxRSS * 1024) / 2 ** 20),
      adviseCpuSeconds: {
        service: round(status.process.cpuSeconds - serviceCpuBefore),
        client: round((clientCpu.user + clientCpu.system) / 1e6),
        dynamoDbLocal: dynamoDbLocalCpuBefore === undefined || dynamoDbLocalCpuAfter === undefined ? null : round(dynamoDbLocalCpuAfter - dynamoDbLocalCpuBefore),
      },
      adviseSeedSeconds: round(adviseSeedSeconds),
    };
  } finally {
    await service.stop();
  }
}

/**
 * Writes `jobs` recorded Jobs straight into the table (log pages and summaries, the items the
 * store writes), 500 Jobs at a time. Also the advice integration test's fleet.
 */
export async function seedAdviceFleet(client: DynamoDBClient, tableName: string, jobs: number, runsPerFamily = RUNS_PER_FAMILY): Promise<void> {
  for (let first = 0; first < jobs; first += 500) {
    const items: Item[] = [];
    for (let i = first; i < Math.min(jobs, first + 500); i++) {
      const { stream, entries, summary } = adviceFleetJob(i, runsPerFamily);
      const pk = keys.stream(stream);
      items.push(...pageItems(pk, entries.map((entry, at) => ({ ...entry, seq: at + 1, recordedAt: iso(i * 60 + 400) }))));
      if (summary) items.push(summaryItem(stream, summary));
    }
    await writeItems(client, tableName, items);
  }
}

export const FAMILY_KINDS = ['exit-code', 'disruption', 'leader', 'deadline', 'quorum'] as const;

/** Job `i`: run `i % runsPerFamily` of CronJob `i / runsPerFamily`, whose kind is its number mod 5. */
export function adviceFleetJob(i: number, runsPerFamily = RUNS_PER_FAMILY) {
  const family = Math.floor(i / runsPerFamily);
  const run = i % runsPerFamily;
  const kind = FAMILY_KINDS[family % FAMILY_KINDS.length] as (typeof FAMILY_KINDS)[number];
  const cronJob = `${kind}-${String(family).padStart(3, '0')}`;
  const name = `${cronJob}-${29_000_000 + run * 1440}`;
  const uid = `advise-${i}`;
  const stream: StreamId = { kind: 'Job', clusterId: `cluster-${String(family % CLUSTERS).padStart(2, '0')}`, namespace: `team-${family % 5}`, uid };
  const base = i * 60; // each run a minute after the one before, in seconds from T0
  const job = JobSchema.parse({
    metadata: {
      name, namespace: stream.namespace, uid, creationTimestamp: iso(base),
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cronJob, uid: `cronjob-${family}`, controller: true }],
    },
    spec: { ...SPECS[kind], template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } },
  });
  const pod = (podName: string, phase: string, at: number, options: { exit?: number; index?: number; disrupted?: boolean } = {}): Observation => ({
    type: 'PodObserved', eventId: `${uid}/${podName}/${phase}`, clusterId: stream.clusterId, observedAt: iso(base + at),
    pod: PodSchema.parse({
      metadata: {
        name: podName, namespace: stream.namespace, uid: `${uid}-${podName}`, creationTimestamp: iso(base + at),
        annotations: options.index === undefined ? {} : { 'batch.kubernetes.io/job-completion-index': String(options.index) },
        finalizers: ['batch.kubernetes.io/job-tracking'],
      },
      spec: { nodeName: 'node-1', restartPolicy: 'Never' },
      status: {
        phase,
        conditions: options.disrupted ? [{ type: 'DisruptionTarget', status: 'True' }] : [],
        containerStatuses: [{ name: 'main', restartCount: 0, state: options.exit === undefined ? { running: {} } : { terminated: { exitCode: options.exit, finishedAt: iso(base + at - 1) } } }],
      },
    }),
  });
  const tick = (at: number): Observation => ({ type: 'Tick', eventId: `${uid}/tick/${at}`, clusterId: stream.clusterId, observedAt: iso(base + at) });
  const steps = history(kind, run, pod, tick);
  const batches: Observation[][] = [[{ type: 'JobObserved', eventId: `${uid}/job`, clusterId: stream.clusterId, observedAt: iso(base), job }], ...steps];
  const { state, entries } = recordBatches(batches, iso(base));
  return { stream, entries, summary: jobSummary(state, iso(base + 400)) };
}

const SPECS: Record<(typeof FAMILY_KINDS)[number], Record<string, unknown>> = {
  'exit-code': { backoffLimit: 2 },
  disruption: { backoffLimit: 2 },
  leader: { completionMode: 'Indexed', completions: 3, parallelism: 3, backoffLimit: 1 },
  deadline: { backoffLimit: 0 },
  quorum: { completionMode: 'Indexed', completions: 3, parallelism: 3, successPolicy: { rules: [{ succeededCount: 2 }] } },
};

type Pod = (name: string, phase: string, at: number, options?: { exit?: number; index?: number; disrupted?: boolean }) => Observation;

/** What the cluster reported, batch by batch (seconds after the Job was created). */
function history(kind: (typeof FAMILY_KINDS)[number], run: number, pod: Pod, tick: (at: number) => Observation): Observation[][] {
  const failsThrice = (codes: readonly [number, number, number]) => [
    [pod('p1', 'Running', 10)], [pod('p1', 'Failed', 20, { exit: codes[0] })], [tick(30)],
    [pod('p2', 'Running', 31)], [pod('p2', 'Failed', 50, { exit: codes[1] })], [tick(70)],
    [pod('p3', 'Running', 71)], [pod('p3', 'Failed', 80, { exit: codes[2] })],
  ];
  const retried = (exit: number, disrupted = false) => [
    [pod('p1', 'Running', 10)], [pod('p1', 'Failed', 20, { exit, disrupted })], [tick(30)],
    [pod('p2', 'Running', 31)], [pod('p2', 'Succeeded', 60 + (run % 7), { exit: 0 })],
  ];
  switch (kind) {
    case 'exit-code':
      return run % 4 === 3 ? failsThrice([3, 3, 3]) : run % 4 === 0 ? [[pod('p1', 'Running', 10)], [pod('p1', 'Succeeded', 40, { exit: 0 })]] : retried(1);
    case 'disruption':
      return run % 4 === 3 ? failsThrice([1, 2, 5]) : retried(137, true);
    case 'leader':
      return [
        [pod('l', 'Running', 10, { index: 0 }), pod('w1', 'Running', 10, { index: 1 }), pod('w2', 'Running', 10, { index: 2 })],
        [pod('l', 'Succeeded', 30 + (run % 5), { index: 0, exit: 0 })],
        [pod('w1', 'Failed', 45, { index: 1, exit: 143 }), pod('w2', 'Failed', 45, { index: 2, exit: 143 })],
      ];
    case 'deadline':
      return run % 10 === 9
        ? [[pod('p1', 'Running', 10)], [pod('p1', 'Failed', 300, { exit: 1 })]]
        : [[pod('p1', 'Running', 10)], [pod('p1', 'Succeeded', 40 + (run % 20), { exit: 0 })]];
    case 'quorum':
      return [
        [pod('a', 'Running', 10, { index: 0 }), pod('b', 'Running', 10, { index: 1 }), pod('c1', 'Running', 10, { index: 2 })],
        [pod('c1', 'Failed', 20, { index: 2, exit: 7 })], [tick(30)],
        [pod('c2', 'Running', 31, { index: 2 })], [pod('a', 'Succeeded', 40, { index: 0, exit: 0 })],
        [pod('c2', 'Failed', 50, { index: 2, exit: 7 })], [pod('b', 'Succeeded', 60, { index: 1, exit: 0 })],
      ];
  }
}

const iso = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const round = (n: number): number => Math.round(n * 10) / 10;

// `node bench/advise-fleet.ts [JOBS]` runs this part alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await runAdviseFleetBench(Number(process.argv[2] ?? 10_000)));
}
