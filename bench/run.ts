import { parseIndexes, IndexSet } from '../shared/indexes/index-set.ts';
import { decide, encodeArchivedPods, evolve, initialState, jobStatus, takeSnapshot, type JobEvent } from '../shared/job/index.ts';
import { ObservationSchema } from '../shared/job/index.ts';
import { initialRuleProgress, matchSuccessPolicy } from '../shared/policies/success-policy.ts';
import { sixtyFourKiBIndexes, syntheticEvents, syntheticJob } from './synthetic-job.ts';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runE2eBench } from './e2e.ts';
import { runFleetListBench } from './fleet-list.ts';
import { KUBE_BENCH_HELP, runKubeListBench } from './kube-lists.ts';
import type { ServicePathReport } from './service-path.ts';
import { runWhatIfFleetBench, WHATIF_BENCH_HELP } from './whatif-fleet.ts';
import { ADVISE_BENCH_HELP, runAdviseFleetBench } from './advise-fleet.ts';
import { QUERY_BENCH_HELP, queryHistoryInChild } from './query-history.ts';
import { phase } from './bench-progress.ts';

const HELP = `Usage: npm run bench [-- --json] [-- --completions N] [-- --no-e2e] [-- --no-whatif] [-- --whatif-jobs N]
                 [-- --no-advise] [-- --advise-jobs N]
                 [-- --service-pods N] [-- --no-service] [-- --no-fleet] [-- --no-query] [-- --query-completions N]
                 [-- --no-kube] [-- --kube-pods N] [-- --kube-jobs N]
                 [-- --no-writer-memory] [-- --writer-pods N] [-- --no-cold-start] [-- --unstamped]

Folds a synthetic Indexed Job (100,000 completions, >300,000 pod events, failures and a
64 KiB success policy), deciding after every event, and prints figures:
  foldEventsPerSecond   events folded and decided per second
  foldToParseRatio      fold+decide time / JSON.parse time of the same stream (target <= 0.8)
  successPolicyEvalMs   a 64 KiB succeededIndexes against 100,000 completed indexes (target < 1)
  snapshotBytes         the largest serialized snapshot of the Job seen during the run (target < 350,000)
  archivedPods, archivedBytes
                        the settled pods its last snapshot leaves in the archive, and the JSON bytes
                        of their stored form (shared/job/archive-codec.ts, as one group; a store
                        writes them in items of at most 500, compressed)
  peakRssMb             peak resident memory of the process
and, through the local stack on DynamoDB Local (bench/e2e.ts; skipped with --no-e2e):
  smallJobsEventsPerSecond
                        pod events per second of 20 small Jobs, PutEvents to decided and published
  p50EventToCommandMs, p99EventToCommandMs
                        small Jobs: PutEvents accepted -> Pod Termination Requested published
  smallJobsWcuPerPodEvent
                        DynamoDB write units per pod event of those Jobs (ReturnConsumedCapacity)
and the service path (bench/service-path.ts; skipped with --no-service): the service started as
\`npm start\` runs it (node local/start.ts --port 0 --no-sample, its own process and DynamoDB
Local), fed one Indexed Job of --service-pods pods (default 10,000; leader success policy, some
failures) by the EventBridge SDK client from the bench's process (8 PutEvents calls of 10 in
flight), the cluster deleting each commanded pod; every pod event stamped as the deployed
forwarder stamps it (sequence, with the Job's count jobSeq: forwarder/watch/object-sequencer.ts;
--unstamped feeds the small Jobs and the service path without it, as benches before aa89654 did);
figures from GET /local/status and /local/clusters/{c}/commands:
  e2eEventsPerSecond    pod events per second over the Job's life (first PutEvents to quiet), the
                        pod events packed as the forwarder sends them (its packer, 50 ms window,
                        for a Job changing 2,000 times a second: ~100 a pack; packedAtEventsPerSecond)
  e2eEventsPerSecondUnpacked
                        the same on a fresh service, one event per entry (unpackedFeed: its checks)
  bytesPerPodEvent      the pod events' Detail bytes on the bus per pod event, packed and unpacked
                        The pods are realistic (bench/realistic-pods.ts: a real Indexed Job pod
                        through the forwarder's trim); leanPods: the same figures for lean pods
  wcuPerPodEvent        DynamoDB write units per pod event over the Job's life, every table write
                        (log, outbox, summary, snapshots, archive); wcuByOperation breaks it down
  perJobCeilingEventsPerSecond
                        min(1000 WCU/s / wcuPerPodEvent, 1000 records/s x observations per record,
                        1 MiB/s / stream bytes per observation): the Job's table partition and its
                        one Kinesis shard, the Job's life packed as the forwarder would; formula
                        and each term printed (perJobCeilingTerms, packed, unpacked)
  lingeringPodsTerminatedOnce, podsCommandedTwiceOrMore, podsCommandedNotLingering, completeAfterDeletions
                        every lingering pod terminated by exactly one command, no pod that had
                        finished terminated; Complete after the cluster deleted them
  podsCommandedNotLingeringByFeed
                        each feed's pods commanded while not lingering (a pod whose outcome was
                        still on its way, deleted), at the top of the report: 0 on every feed
  servicePeakRssMb      peak RSS of the service's process
  cpuMsPerPodEvent      CPU ms per pod event of the service, the feeder and DynamoDB Local
                        (cpuMsPerPodEventUnpacked: fed one event per entry)
and the fleet list (bench/fleet-list.ts; skipped with --no-fleet): 10,000 Jobs over 20 clusters,
  fleetListSeconds      time to page through GET /v1/jobs, 100 a page (and one cluster's Jobs)
  fleetOverviewSeconds  one GET /v1/fleet: exact counts by state and reason over every Job
${WHATIF_BENCH_HELP}
${ADVISE_BENCH_HELP}
${QUERY_BENCH_HELP}
${KUBE_BENCH_HELP}
and the writer's memory (bench/writer-memory.ts; skipped with --no-writer-memory): a --writer-pods
(default 100,000) pod Indexed Job of realistic pods written through the writer on DynamoDB Local,
then its worst invocations each cold in a fresh process with --max-old-space-size of the
function's memory:
  writerMidLife, writerLeaderSuccess, writerColdWholeArchive
                        peak heap used, peak RSS and its ratio to the configured memory (target
                        <= 0.6), CPU and wall ms, read units: a full 6 MB batch of packed pods, the
                        leader's success that terminates every other pod, and once those pods
                        ended, a cold load that puts back the whole pod archive
and each function's cold start (bench/cold-start.ts; skipped with --no-cold-start):
  coldStart             bundle and source map bytes, median import (init) ms and its CPU ms of 10
                        fresh processes, per function as cdk deploy bundles it (target: writer
                        and publish <= 1.5 MB, init <= 250 ms)
Timings are figures to compare, never test assertions. While it runs, each long phase shows its
progress (events/s, ETA) on stderr when stderr is a terminal; stdout holds only the figures.`;

const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log(HELP);
  process.exit(0);
}
const json = args.includes('--json');
const unstamped = args.includes('--unstamped');
const completionsArg = args.indexOf('--completions');
const completions = completionsArg >= 0 ? Number(args[completionsArg + 1]) : 100_000;
const options = { completions, parallelism: 1000, failureEvery: 50 };
const whatIfJobsArg = args.indexOf('--whatif-jobs');
const whatIfJobs = whatIfJobsArg >= 0 ? Number(args[whatIfJobsArg + 1]) : 10_000;

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

// 1. The stream as a forwarder would send it: one JSON document per event.
const job = syntheticJob(options);
const lines = syntheticEvents(options).map((e) => JSON.stringify(e));
const streamBytes = lines.reduce((n, l) => n + l.length + 1, 0);

// 2. JSON.parse of the same stream: the yardstick.
let start = process.hrtime.bigint();
const events = lines.map((l) => JSON.parse(l) as JobEvent);
const parseMs = ms(start);

// 3. Boundary validation with zod, reported for context (it is not part of the fold).
start = process.hrtime.bigint();
for (let i = 0; i < events.length; i += 10) ObservationSchema.parse(events[i]);
const validateMsPerEvent = ms(start) / Math.ceil(events.length / 10);

// 4. Fold and decide after every event, as the reconciler does.
const state = initialState({ gates: { PodFailurePolicyName: true }, validateSpecs: true });
evolve(state, { type: 'JobObserved', eventId: 'job', clusterId: 'bench', observedAt: '2026-01-01T00:00:00Z', job, seq: 1 });
let seq = 1;
let decisions = 0;
let commands = 0;
let snapshotBytes = 0;
let foldMs = 0;
const sampleEvery = Math.floor(events.length / 10);
const folding = phase('fold and decide', events.length);
for (let i = 0; i < events.length; i++) {
  if (i % 1000 === 0) folding.update(i);
  const event = events[i] as JobEvent & { seq?: number; observedAt: string };
  const t = process.hrtime.bigint();
  event.seq = ++seq;
  evolve(state, event);
  const result = decide(state, event.observedAt);
  for (const decision of result.decisions) evolve(state, { ...decision, seq: ++seq });
  foldMs += ms(t);
  decisions += result.decisions.length;
  commands += result.commands.length;
  if (i % sampleEvery === 0 || i === events.length - 1) {
    snapshotBytes = Math.max(snapshotBytes, JSON.stringify(takeSnapshot(state).snapshot).length);
  }
}
folding.end();
const { archived } = takeSnapshot(state);

// 5. The success policy against 100,000 completed indexes (scattered over as many intervals as
//    the set can have), with a 64 KiB succeededIndexes: evaluating the parsed rule from scratch
//    (what a snapshot restore does; per event the fold only bumps a counter), and, for context,
//    parsing the 64 KiB string as well (done once per spec).
const text = sixtyFourKiBIndexes(completions);
const completed = IndexSet.empty();
for (let i = 0; i < completions; i++) if (i % 7 !== 3) completed.add(i);
const median = (runs: number[]) => runs.sort((a, b) => a - b)[Math.floor(runs.length / 2)] ?? 0;
const parsedRules = [{ indexes: parseIndexes(text, completions) }];
const evalRuns: number[] = [];
const parseAndEvalRuns: number[] = [];
for (let run = 0; run < 50; run++) {
  let t = process.hrtime.bigint();
  matchSuccessPolicy(parsedRules, initialRuleProgress(parsedRules, completed), completed.size);
  evalRuns.push(ms(t));
  t = process.hrtime.bigint();
  const rules = [{ indexes: parseIndexes(text, completions) }];
  matchSuccessPolicy(rules, initialRuleProgress(rules, completed), completed.size);
  parseAndEvalRuns.push(ms(t));
}

const final = jobStatus(state);
const figures = {
  events: events.length,
  streamBytes,
  foldEventsPerSecond: Math.round(events.length / (foldMs / 1000)),
  foldMs: round(foldMs),
  parseMs: round(parseMs),
  foldToParseRatio: round(foldMs / parseMs, 3),
  zodValidateUsPerEvent: round(validateMsPerEvent * 1000, 2),
  successPolicyEvalMs: round(median(evalRuns), 3),
  successPolicyParseAndEvalMs: round(median(parseAndEvalRuns), 3),
  successPolicyIntervals: parseIndexes(text, completions).intervalCount,
  completedIntervals: completed.intervalCount,
  snapshotBytes,
  archivedPods: archived.length,
  archivedBytes: JSON.stringify(encodeArchivedPods(archived)).length,
  decisions,
  commands,
  finalConditions: final.conditions.map((c) => `${c.type}/${c.reason}`),
  succeeded: final.succeeded,
  failed: final.failed,
  peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  ...(args.includes('--no-e2e') ? {} : await part('e2e', () => runE2eBench({ stamped: !unstamped }))),
  ...(args.includes('--no-service') ? {} : await part('service', async () => servicePath(numberArg('--service-pods') ?? 10_000))),
  ...(args.includes('--no-fleet') ? {} : await part('fleet', () => runFleetListBench())),
  ...(args.includes('--no-whatif') ? {} : await part('whatif', () => runWhatIfFleetBench(whatIfJobs))),
  ...(args.includes('--no-advise') ? {} : await part('advise', () => runAdviseFleetBench(numberArg('--advise-jobs') ?? 10_000))),
  ...(args.includes('--no-query') ? {} : await part('query', async () => queryHistoryInChild(numberArg('--query-completions') ?? 100_000))),
  ...(args.includes('--no-kube') ? {} : await part('kube', () => runKubeListBench({ pods: numberArg('--kube-pods') ?? 10_000, jobs: numberArg('--kube-jobs') ?? 10_000 }))),
  ...(args.includes('--no-writer-memory') ? {} : await part('writerMemory', async () => childBench('writer-memory.ts', ['--pods', String(numberArg('--writer-pods') ?? 100_000)]))),
  ...(args.includes('--no-cold-start') ? {} : await part('coldStart', async () => ({ coldStart: childBench('cold-start.ts', ['--runs', '10']) }))),
};
const failedParts = Object.keys(figures).filter((key) => key.endsWith('Error'));

/**
 * One part's figures; a part that fails gives `<part>Error` instead (and the run exits 1), so
 * the other parts' figures of a long run are still printed.
 */
async function part(name: string, run: () => Promise<object>): Promise<object> {
  try {
    return await run();
  } catch (error) {
    console.error(`bench: the ${name} part failed: ${error instanceof Error ? error.message : String(error)}`);
    return { [`${name}Error`]: error instanceof Error ? error.message : String(error) };
  }
}

function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

if (json) console.log(JSON.stringify(figures));
else {
  console.log('jobfold bench: synthetic Indexed Job');
  for (const [k, v] of Object.entries(figures)) console.log(`  ${k.padEnd(24)} ${typeof v === 'object' && !Array.isArray(v) ? JSON.stringify(v) : Array.isArray(v) ? v.join(', ') : v}`);
}
if (failedParts.length > 0) process.exitCode = 1;

function numberArg(name: string): number | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : undefined;
}

/** In a child process (which starts the service in another), so the fold's memory above stays apart. */
function servicePath(pods: number): ServicePathReport {
  return childBench('service-path.ts', ['--pods', String(pods), ...(unstamped ? ['--unstamped'] : [])]) as ServicePathReport;
}

/** A bench script's --json figures, run in a child process (stderr inherited: its progress line reaches the terminal). */
function childBench(script: string, args: readonly string[]): object {
  const output = execFileSync(process.execPath, [fileURLToPath(new URL(`./${script}`, import.meta.url)), '--json', ...args], {
    encoding: 'utf8', maxBuffer: 1 << 24, stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as object;
}
