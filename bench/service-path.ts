import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { fileURLToPath } from 'node:url';
import type { DeliveredEntry } from '../local/bus/bus-rules.ts';
import { TraceRecorder, type PodRef, type RecordedEntry } from '../local/sample/trace-recorder.ts';
import { phase } from './bench-progress.ts';
import { putAll, round } from './bench-stack.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';
import { packedEntries, packedFeed } from './packed-feed.ts';
import { detailBytesPerPodEvent, uidFor, withRealisticPods } from './realistic-pods.ts';
import { perJobCeiling, type PerJobCeilingFigures } from './per-job-ceiling.ts';

// The service path at the size of a real training Job (issue 10): one Indexed Job of `pods`
// pods with a leader-only success policy, every `failEvery`-th worker failing and every third
// succeeding, fed to the service as `npm start` runs it — `node local/start.ts --port 0
// --no-sample` in its own process, on its own DynamoDB Local (bench/service-process.ts) — with
// the real EventBridge SDK client from this process, `feeders` PutEvents calls of 10 entries in
// flight. The pod events go on the bus the way the deployed forwarder sends them: stamped by its
// sequencer (sequence: epoch, the pod's seq, the Job's jobSeq; without the count the fold cannot
// tell that a pod's outcome is still on its way, and one run of 050dd51 terminated 2,206 pods
// that had finished), and packed by its own packer (forwarder/send/pack.ts: 50 ms window, 500
// observations, the entry size) for a Job
// whose pods change `packRate` times a second (default 2,000, the target: a window then gathers
// 100; a faster Job makes bigger packs, so a figure at or above the rate is not flattered by
// them). The same Job fed one event per entry (forwarders without packing) is the second figure.
// The pods are realistic (bench/realistic-pods.ts: a real Indexed Job pod's shape, through the
// forwarder's own trim), the headline; the recorder's lean pods are measured beside them.
// When the leader succeeds, every pod still running lingers and must be terminated by exactly
// one command; the bench reads the commands from GET /local/clusters/{c}/commands, plays the
// cluster deleting each commanded pod and checks that the Job reaches Complete. Figures, never
// assertions:
//   e2eEventsPerSecond             pod events per second, first PutEvents to quiet (both phases;
//                                  quiet as GET /local/status says it), fed packed
//   e2eEventsPerSecondUnpacked     the same, a fresh service fed one event per entry
//   bytesPerPodEvent               Detail bytes on the bus per pod event, packed and unpacked
//   leanPods                       the same figures for the recorder's lean pods
//   wcuPerPodEvent                 DynamoDB write units per pod event, whole life (ReturnConsumedCapacity
//                                  of every table write: log, outbox, summary, snapshots, archive;
//                                  wcuByOperation breaks it down by request kind; from /local/status)
//   perJobCeilingEventsPerSecond   min(1000 WCU/s / wcuPerPodEvent, 1000 records/s x observations
//                                  per record, 1 MiB/s / stream bytes per observation): the table's
//                                  and the Job's one Kinesis shard's limits, the Job's life packed
//                                  as the forwarder would (bench/per-job-ceiling.ts); each term printed
//   servicePeakRssMb               peak RSS of the service's process (its own, from /local/status;
//                                  not the feeder's, not DynamoDB Local's)
//   cpuMsPerPodEvent               CPU milliseconds per pod event of the service, the feeder and
//                                  DynamoDB Local: what a faster service must cut, whatever the load
//                                  (cpuMsPerPodEventUnpacked: the same, fed one event per entry)
// Run alone: `node bench/service-path.ts --help`.

export const SERVICE_PATH_HELP = `Usage: node bench/service-path.ts [--pods N] [--feeders N] [--packed | --unpacked] [--pack-rate N]
                                  [--realistic | --lean] [--unstamped] [--cpu-prof DIR] [--json]

Starts the service as \`npm start\` does (node local/start.ts --port 0 --no-sample, its own
process and DynamoDB Local), feeds it one Indexed Job of --pods pods (default 10,000; leader
success policy, some failures) with the EventBridge SDK client, --feeders PutEvents calls of 10
entries in flight (default 8), deletes each commanded pod, and prints the figures (JSON with
--json); podsCommandedNotLingeringByFeed first: each feed's pods commanded while not lingering
(must be 0). Every pod event carries the forwarder's stamp (sequence, with its Job's jobSeq);
--unstamped leaves it out, as the benches before aa89654 fed them, to compare like for like
with those commits' figures (the stamp costs write units and CPU: README, Figures). The pod events go as the forwarder sends them: packed by its packer (50 ms window, 500
observations) for a Job changing --pack-rate times a second (default 2,000: ~100 a pack), giving
e2eEventsPerSecond; then a fresh service is fed the same Job one event per entry, giving
e2eEventsPerSecondUnpacked. --packed or --unpacked runs only that feed (its figure is then
e2eEventsPerSecond). The pods are realistic (a real Indexed Job pod through the forwarder's trim;
bench/realistic-pods.ts), then the recorder's lean pods (figures under leanPods); --realistic or
--lean runs only those. bytesPerPodEvent: the pod events' Detail bytes, packed and unpacked. --cpu-prof DIR writes a CPU profile of the service's process into DIR
(node --cpu-prof).`;

/** How the Job's pod events reach the bus: as the forwarder packs them, or one event per entry. */
export type ServicePathFeed = 'packed' | 'unpacked';

/** What the pods carry: a real Indexed Job pod's fields as the forwarder trims them, or the recorder's few. */
export type PodShape = 'realistic' | 'lean';

/** The rate whose packs the headline feed sends: the target (a 50 ms window gathers 100). */
export const DEFAULT_PACK_RATE = 2000;

export interface ServicePathOptions {
  readonly pods?: number;
  readonly failEvery?: number;
  /** PutEvents calls in flight. Default 8. */
  readonly feeders?: number;
  /** Options for the service's node, e.g. `--cpu-prof`. */
  readonly nodeOptions?: readonly string[];
  /** Default `packed`: the pod events in `Pod Observations` packs, as the forwarder's packer makes them. */
  readonly feed?: ServicePathFeed;
  /** Pod events per second whose 50 ms windows the packs hold (packed feed). Default DEFAULT_PACK_RATE. */
  readonly packRate?: number;
  /** Default `realistic`. */
  readonly podShape?: PodShape;
  /**
   * Default true: every pod event carries the forwarder's stamp. False feeds them as the benches
   * before `aa89654` did, so a figure compares like for like with those commits' (README, Figures).
   */
  readonly stamped?: boolean;
}

export interface ServicePathFigures extends Partial<PerJobCeilingFigures> {
  readonly servicePods: number;
  readonly servicePodEvents: number;
  readonly e2eEventsPerSecond: number;
  readonly putEventsInFlight: number;
  readonly wcuPerPodEvent: number;
  readonly wcuByOperation: Record<string, number>;
  /** DynamoDB requests over the service's life (each chunk of a batch call counts). */
  readonly dynamoDbRequestsByOperation: Record<string, number>;
  /** Conditional writes DynamoDB refused (billed, but reported without capacity). */
  readonly rejectedWritesPerPodEvent: number;
  /** How the pod events were fed: packed (and at which rate's windows) or one per entry. */
  readonly feed: ServicePathFeed;
  readonly podShape: PodShape;
  /** The pod events' Detail bytes on the bus per pod event, as the forwarder packs them and one per entry. */
  readonly bytesPerPodEvent: { readonly packed: number; readonly unpacked: number };
  readonly packedAtEventsPerSecond?: number;
  /** Pod events per PutEvents entry fed (1 unpacked). */
  readonly podEventsPerEntry: number;
  readonly lingeringPods: number;
  readonly terminationCommands: number;
  readonly lingeringPodsTerminatedOnce: number;
  readonly podsCommandedTwiceOrMore: number;
  readonly podsCommandedNotLingering: number;
  readonly completeAfterDeletions: boolean;
  readonly servicePeakRssMb: number;
  /**
   * CPU time per pod event of each process: the service, this process (the feeder: SDK client,
   * SigV4, HTTP) and DynamoDB Local (Linux only). Steadier than events/s on a shared machine.
   */
  readonly cpuMsPerPodEvent: { readonly service: number; readonly feeder: number; readonly dynamoDbLocal?: number };
}

const CLUSTER = 'bench-svc';

export async function runServicePathBench(options: ServicePathOptions = {}): Promise<ServicePathFigures> {
  const { pods = 10_000, failEvery = 50, feeders = 8, feed: how = 'packed', packRate = DEFAULT_PACK_RATE, podShape = 'realistic', stamped = true } = options;
  const realistic = podShape === 'realistic';
  // The entries as the forwarder sends them for these pods, and a pod's uid in them.
  const shaped = (entries: readonly RecordedEntry[]) => (realistic ? withRealisticPods(entries) : entries);
  const uidOf = (recorded: string) => (realistic ? uidFor(recorded) : recorded);
  let podEntriesFed = 0;
  const service = await startServiceProcess(options.nodeOptions ? { nodeOptions: options.nodeOptions } : {});
  const client = new EventBridgeClient({
    endpoint: service.eventsUrl, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  // Stamped as the deployed forwarder stamps them (jobSeq: the fold waits while one is missing).
  const trace = new TraceRecorder(new Date().toISOString(), 'b10c', { forwarderCounts: stamped });
  const job = trace.job(CLUSTER, 0, 'bench', `indexed-${pods}`, {
    completions: pods, parallelism: pods, completionMode: 'Indexed', backoffLimit: pods,
    successPolicy: { rules: [{ succeededIndexes: '0' }] },
  });
  try {
    // Phase 1: every pod runs; workers fail or succeed; the leader succeeds last.
    const all: PodRef[] = Array.from({ length: pods }, (_, i) => trace.runPod(job, 1, i));
    const lingering = new Set<string>();
    for (const [i, pod] of all.entries()) {
      if (i === 0) continue;
      if (i % failEvery === 0) trace.exitPod(pod, 2, 1);
      else if (i % 3 === 0) trace.exitPod(pod, 3, 0);
      else lingering.add(uidOf(pod.uid));
    }
    trace.exitPod(all[0]!, 5, 0);
    const firstEntries = shaped(trace.entries);
    const podEventsFirst = firstEntries.length - 1;
    const bytesPerPodEvent = {
      packed: detailBytesPerPodEvent(packedEntries(firstEntries, packRate), podEventsFirst),
      unpacked: detailBytesPerPodEvent(firstEntries, podEventsFirst),
    };
    const { capacity: before, process: { cpuSeconds: serviceCpuBefore } } = await service.status();
    const dynamoDbLocalCpuBefore = service.childrenCpuSeconds();
    const feederCpuBefore = process.cpuUsage();
    const start = performance.now();
    await feed(`service path (${pods.toLocaleString('en-US')} ${podShape} pods): put`, firstEntries);
    await settle(service, 'service path: Pod Termination Requested published', lingering.size);
    // Phase 2: the cluster deletes each commanded pod, as the forwarder would.
    const commandedFirst = terminations(await service.get<DeliveredEntry[]>(`/local/clusters/${CLUSTER}/commands`), job.uid);
    const firstPhase = trace.entries.length;
    for (const pod of all) if (commandedFirst.has(uidOf(pod.uid))) trace.deletePod(pod, 10);
    await feed('service path: deletions put', shaped(trace.entries.slice(firstPhase)));
    await settle(service, 'service path: settling after the deletions (termination commands)', lingering.size);
    const seconds = (performance.now() - start) / 1000;
    const { capacity: after, process: serviceProcess } = await service.status();
    const feederCpu = process.cpuUsage(feederCpuBefore);
    const dynamoDbLocalCpu = service.childrenCpuSeconds();
    const commanded = terminations(await service.get<DeliveredEntry[]>(`/local/clusters/${CLUSTER}/commands`), job.uid);
    const podEvents = trace.entries.filter((e) => e.DetailType.startsWith('Pod')).length;
    const status = await service.get<{ status?: { conditions?: { type: string; status: string }[] } }>(
      `/v1/clusters/${CLUSTER}/namespaces/bench/jobs/${job.name}/status`,
    );
    const wcuPerPodEvent = (after.writeUnits - before.writeUnits) / podEvents;
    const counts = [...commanded.values()];
    return {
      servicePods: pods,
      servicePodEvents: podEvents,
      e2eEventsPerSecond: Math.round(podEvents / seconds),
      feed: how,
      podShape,
      bytesPerPodEvent,
      ...(how === 'packed' ? { packedAtEventsPerSecond: packRate } : {}),
      podEventsPerEntry: round(podEvents / podEntriesFed),
      putEventsInFlight: feeders,
      wcuPerPodEvent: round(wcuPerPodEvent),
      wcuByOperation: Object.fromEntries(Object.entries(after.writeUnitsByOperation).map(([op, units]) => [op, round(units)])),
      dynamoDbRequestsByOperation: after.requestsByOperation,
      rejectedWritesPerPodEvent: round((after.rejectedWrites - before.rejectedWrites) / podEvents),
      // The Job's table partition and shard in AWS: the forwarder packs for the stream terms whatever this run's feed.
      ...(how === 'packed' ? perJobCeiling(wcuPerPodEvent, trace.entries) : {}),
      lingeringPods: lingering.size,
      terminationCommands: counts.reduce((a, b) => a + b, 0),
      lingeringPodsTerminatedOnce: [...lingering].filter((uid) => commanded.get(uid) === 1).length,
      podsCommandedTwiceOrMore: counts.filter((n) => n > 1).length,
      podsCommandedNotLingering: [...commanded.keys()].filter((uid) => !lingering.has(uid)).length,
      completeAfterDeletions: status.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True') ?? false,
      servicePeakRssMb: serviceProcess.peakRssMb,
      cpuMsPerPodEvent: {
        service: round(((serviceProcess.cpuSeconds - serviceCpuBefore) * 1000) / podEvents),
        feeder: round((feederCpu.user + feederCpu.system) / 1000 / podEvents),
        ...(dynamoDbLocalCpu === undefined || dynamoDbLocalCpuBefore === undefined ? {}
          : { dynamoDbLocal: round(((dynamoDbLocalCpu - dynamoDbLocalCpuBefore) * 1000) / podEvents) }),
      },
    };
  } finally {
    client.destroy();
    await service.stop();
  }

  /** Puts `entries` as this run feeds them: packed as they go out (the forwarder's work, this process's CPU), or as they are. */
  async function feed(label: string, entries: readonly RecordedEntry[]): Promise<void> {
    const shown = phase(label, entries.length);
    let put = 0;
    const counted = function* (fed: Iterable<RecordedEntry>) {
      for (const entry of fed) {
        if (entry.DetailType.startsWith('Pod')) podEntriesFed++;
        yield entry;
      }
    };
    await putAll(client, counted(how === 'packed' ? packedFeed(entries, packRate) : entries), feeders, (n) => shown.update((put += n)));
    shown.end();
  }
}

/** Waits until the service is quiet, showing the commands its cluster has received so far. */
async function settle(service: ServiceProcess, label: string, total: number): Promise<void> {
  const shown = phase(label, total);
  await service.whenQuiet(async () => {
    const clusters = await service.get<{ clusterId: string; commands: number }[]>('/local/clusters');
    shown.update(clusters.find((c) => c.clusterId === CLUSTER)?.commands ?? 0);
  });
  shown.end();
}

/** Termination commands per pod uid, of the Job `jobUid`. */
function terminations(commands: readonly DeliveredEntry[], jobUid: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { detailType, detail } of commands) {
    if (detailType !== 'Pod Termination Requested' || detail['jobUid'] !== jobUid) continue;
    const uid = String(detail['podUid']);
    counts.set(uid, (counts.get(uid) ?? 0) + 1);
  }
  return counts;
}

/** Both feeds' figures: the packed feed's, with the unpacked feed's beside them (suffix `Unpacked`). */
export interface FeedsReport extends ServicePathFigures {
  readonly e2eEventsPerSecondUnpacked?: number;
  readonly cpuMsPerPodEventUnpacked?: ServicePathFigures['cpuMsPerPodEvent'];
  /** The unpacked run's checks and costs, so nothing of it is hidden behind the headline. */
  readonly unpackedFeed?: Pick<ServicePathFigures, typeof UNPACKED_KEPT[number]>;
}

/** The realistic pods' figures (the headline), with the lean pods' beside them. */
export interface ServicePathReport extends FeedsReport {
  readonly leanPods?: Pick<FeedsReport, typeof LEAN_KEPT[number]>;
  /**
   * Every feed's pods commanded to terminate while not lingering (`<shape> <feed>`: count), at
   * the top of the report: a pod whose outcome was still on its way, deleted. Must be 0 on each.
   */
  readonly podsCommandedNotLingeringByFeed: Record<string, number>;
}

const LEAN_KEPT = [
  'e2eEventsPerSecond', 'e2eEventsPerSecondUnpacked', 'bytesPerPodEvent', 'cpuMsPerPodEvent', 'cpuMsPerPodEventUnpacked',
  'wcuPerPodEvent', 'lingeringPods', 'lingeringPodsTerminatedOnce', 'podsCommandedTwiceOrMore', 'podsCommandedNotLingering',
  'completeAfterDeletions',
  'servicePeakRssMb', 'unpackedFeed',
] as const;

const UNPACKED_KEPT = [
  'podEventsPerEntry', 'wcuPerPodEvent', 'wcuByOperation', 'dynamoDbRequestsByOperation', 'rejectedWritesPerPodEvent', 'lingeringPods',
  'terminationCommands', 'lingeringPodsTerminatedOnce', 'podsCommandedTwiceOrMore', 'podsCommandedNotLingering',
  'completeAfterDeletions', 'servicePeakRssMb',
] as const;

/**
 * Runs each pod shape's feeds on fresh services (default: realistic then lean pods, each packed
 * then unpacked). The first shape's figures are the headline; the lean pods' go under leanPods.
 */
export async function runServicePathReport(
  options: Omit<ServicePathOptions, 'feed' | 'podShape'> = {},
  feeds: readonly ServicePathFeed[] = ['packed', 'unpacked'],
  shapes: readonly PodShape[] = ['realistic', 'lean'],
): Promise<ServicePathReport> {
  const reports = new Map<PodShape, FeedsReport>();
  for (const podShape of shapes) reports.set(podShape, await runFeeds({ ...options, podShape }, feeds));
  const podsCommandedNotLingeringByFeed = Object.fromEntries([...reports].flatMap(([shape, report]) => [
    [`${shape} ${report.feed}`, report.podsCommandedNotLingering],
    ...(report.unpackedFeed ? [[`${shape} unpacked`, report.unpackedFeed.podsCommandedNotLingering]] : []),
  ]));
  const realistic = reports.get('realistic');
  const lean = reports.get('lean');
  if (!realistic || !lean) return { podsCommandedNotLingeringByFeed, ...(realistic ?? lean) as FeedsReport };
  return {
    podsCommandedNotLingeringByFeed,
    ...realistic,
    leanPods: Object.fromEntries(LEAN_KEPT.map((key) => [key, lean[key]])) as ServicePathReport['leanPods'],
  };
}

/** Each feed on a fresh service, one after the other. With one feed its figures are the report; with both, the packed feed's are the headline. */
async function runFeeds(options: Omit<ServicePathOptions, 'feed'>, feeds: readonly ServicePathFeed[]): Promise<FeedsReport> {
  const runs = new Map<ServicePathFeed, ServicePathFigures>();
  for (const feed of feeds) runs.set(feed, await runServicePathBench({ ...options, feed }));
  const packed = runs.get('packed');
  const unpacked = runs.get('unpacked');
  if (!packed || !unpacked) return (packed ?? unpacked) as ServicePathFigures;
  return {
    ...packed,
    e2eEventsPerSecondUnpacked: unpacked.e2eEventsPerSecond,
    cpuMsPerPodEventUnpacked: unpacked.cpuMsPerPodEvent,
    unpackedFeed: Object.fromEntries(UNPACKED_KEPT.map((key) => [key, unpacked[key]])) as FeedsReport['unpackedFeed'],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.includes('--help')) {
    console.log(SERVICE_PATH_HELP);
    process.exit(0);
  }
  const value = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const profileDir = value('--cpu-prof');
  const feeds: ServicePathFeed[] = args.includes('--packed') ? ['packed'] : args.includes('--unpacked') ? ['unpacked'] : ['packed', 'unpacked'];
  const shapes: PodShape[] = args.includes('--realistic') ? ['realistic'] : args.includes('--lean') ? ['lean'] : ['realistic', 'lean'];
  const figures = await runServicePathReport({
    ...(value('--pods') ? { pods: Number(value('--pods')) } : {}),
    ...(value('--feeders') ? { feeders: Number(value('--feeders')) } : {}),
    ...(value('--pack-rate') ? { packRate: Number(value('--pack-rate')) } : {}),
    ...(profileDir ? { nodeOptions: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {}),
    ...(args.includes('--unstamped') ? { stamped: false } : {}),
  }, feeds, shapes);
  console.log(args.includes('--json') ? JSON.stringify(figures) : figures);
}
