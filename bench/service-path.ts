import { fileURLToPath } from 'node:url';
import { TraceRecorder, type PodRef } from '../local/sample/trace-recorder.ts';
import { phase, watched } from './bench-progress.ts';
import { openBenchStack, putAll, round } from './bench-stack.ts';

// The service path at the size of a real training Job (issue 10): one Indexed Job of `pods`
// pods with a leader-only success policy, every `failEvery`-th worker failing and every third
// succeeding, fed through the local stack (local/local-stack.ts on DynamoDB Local) with the
// real EventBridge SDK client. When the leader succeeds, every pod still running lingers and
// must be terminated by exactly one command; the bench then plays the cluster deleting each
// commanded pod and checks that the Job reaches Complete. Figures, never assertions:
//   e2eEventsPerSecond             pod events per second, first PutEvents to quiet (both phases)
//   wcuPerPodEvent                 DynamoDB write units per pod event, whole life (ReturnConsumedCapacity
//                                  of every table write: log, outbox, summary, snapshots, archive;
//                                  wcuByOperation breaks it down by request kind)
//   perJobCeilingEventsPerSecond   1000 WCU/s (one partition's limit) / wcuPerPodEvent — every
//                                  write counted as if on the Job's partition, so a lower bound
//   servicePeakRssMb               peak RSS of this process: the service's functions and the driver
// Run alone: `node bench/service-path.ts [--pods N] [--json]`.

export interface ServicePathOptions {
  readonly pods?: number;
  readonly failEvery?: number;
  readonly dynamoDbEndpoint?: string;
}

export interface ServicePathFigures {
  readonly servicePods: number;
  readonly servicePodEvents: number;
  readonly e2eEventsPerSecond: number;
  readonly wcuPerPodEvent: number;
  readonly wcuByOperation: Record<string, number>;
  /** Conditional writes DynamoDB refused (billed, but reported without capacity). */
  readonly rejectedWritesPerPodEvent: number;
  readonly perJobCeilingEventsPerSecond: number;
  readonly perJobCeilingFormula: string;
  readonly lingeringPods: number;
  readonly terminationCommands: number;
  readonly lingeringPodsTerminatedOnce: number;
  readonly podsCommandedTwiceOrMore: number;
  readonly podsCommandedNotLingering: number;
  readonly completeAfterDeletions: boolean;
  readonly servicePeakRssMb: number;
}

const PARTITION_WCU_PER_SECOND = 1000;

export async function runServicePathBench(options: ServicePathOptions = {}): Promise<ServicePathFigures> {
  const { pods = 10_000, failEvery = 50 } = options;
  const bench = await openBenchStack('service', options.dynamoDbEndpoint);
  const { stack, client } = bench;
  const trace = new TraceRecorder(new Date().toISOString(), 'b10c');
  const job = trace.job('bench-svc', 0, 'bench', `indexed-${pods}`, {
    completions: pods, parallelism: pods, completionMode: 'Indexed', backoffLimit: pods,
    successPolicy: { rules: [{ succeededIndexes: '0' }] },
  });
  const commanded = new Map<string, number>();
  const unsubscribe = stack.bus.subscribe((event) => {
    if (event['detail-type'] !== 'Pod Termination Requested' || event.detail['jobUid'] !== job.uid) return;
    const uid = String(event.detail['podUid']);
    commanded.set(uid, (commanded.get(uid) ?? 0) + 1);
  });
  try {
    // Phase 1: every pod runs; workers fail or succeed; the leader succeeds last.
    const all: PodRef[] = Array.from({ length: pods }, (_, i) => trace.runPod(job, 1, i));
    const lingering = new Set<string>();
    for (const [i, pod] of all.entries()) {
      if (i === 0) continue;
      if (i % failEvery === 0) trace.exitPod(pod, 2, 1);
      else if (i % 3 === 0) trace.exitPod(pod, 3, 0);
      else lingering.add(pod.uid);
    }
    trace.exitPod(all[0]!, 5, 0);
    const before = stack.capacity();
    const start = performance.now();
    await feed(`service path (${pods.toLocaleString('en-US')} pods): put`, trace.entries);
    await watched('service path: Pod Termination Requested published', lingering.size, () => commanded.size, stack.whenQuiet(0));
    // Phase 2: the cluster deletes each commanded pod, as the forwarder would.
    const firstPhase = trace.entries.length;
    for (const pod of all) if (commanded.has(pod.uid)) trace.deletePod(pod, 10);
    await feed('service path: deletions put', trace.entries.slice(firstPhase));
    await watched('service path: settling after the deletions (termination commands)', lingering.size, () => commanded.size, stack.whenQuiet(0));
    const seconds = (performance.now() - start) / 1000;
    const after = stack.capacity();
    const podEvents = trace.entries.filter((e) => e.DetailType.startsWith('Pod')).length;
    const response = await fetch(`${stack.url}/v1/clusters/bench-svc/namespaces/bench/jobs/${job.name}/status`);
    const status = (await response.json()) as { status?: { conditions?: { type: string; status: string }[] } };
    const wcuPerPodEvent = (after.writeUnits - before.writeUnits) / podEvents;
    const counts = [...commanded.values()];
    return {
      servicePods: pods,
      servicePodEvents: podEvents,
      e2eEventsPerSecond: Math.round(podEvents / seconds),
      wcuPerPodEvent: round(wcuPerPodEvent),
      wcuByOperation: bench.writeUnitsByOperation(),
      rejectedWritesPerPodEvent: round((after.rejectedWrites - before.rejectedWrites) / podEvents),
      perJobCeilingEventsPerSecond: Math.round(PARTITION_WCU_PER_SECOND / wcuPerPodEvent),
      perJobCeilingFormula: `${PARTITION_WCU_PER_SECOND} WCU/s per partition / ${round(wcuPerPodEvent)} WCU per pod event (all writes counted on the Job's partition)`,
      lingeringPods: lingering.size,
      terminationCommands: counts.reduce((a, b) => a + b, 0),
      lingeringPodsTerminatedOnce: [...lingering].filter((uid) => commanded.get(uid) === 1).length,
      podsCommandedTwiceOrMore: counts.filter((n) => n > 1).length,
      podsCommandedNotLingering: [...commanded.keys()].filter((uid) => !lingering.has(uid)).length,
      completeAfterDeletions: status.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True') ?? false,
      servicePeakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    unsubscribe();
    await bench.stop();
  }

  async function feed(label: string, entries: typeof trace.entries): Promise<void> {
    const shown = phase(label, entries.length);
    let put = 0;
    await putAll(client, entries, 4, (n) => shown.update((put += n)));
    shown.end();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const podsArg = args.indexOf('--pods');
  const figures = await runServicePathBench(podsArg >= 0 ? { pods: Number(args[podsArg + 1]) } : {});
  console.log(args.includes('--json') ? JSON.stringify(figures) : figures);
}
