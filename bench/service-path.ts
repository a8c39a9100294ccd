import { fileURLToPath } from 'node:url';
import { EventBridgeClient, PutEventsCommand, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { startLocalStack } from '../local/local-stack.ts';
import { TraceRecorder, type PodRef, type RecordedEntry } from '../local/sample/trace-recorder.ts';

// The service path at the size of a real training Job (issue 10): one Indexed Job of `pods`
// pods with a leader-only success policy, every `failEvery`-th worker failing and every third
// succeeding, fed through the local stack (local/local-stack.ts on DynamoDB Local) with the
// real EventBridge SDK client. When the leader succeeds, every pod still running lingers and
// must be terminated by exactly one command; the bench then plays the cluster deleting each
// commanded pod and checks that the Job reaches Complete. Figures, never assertions:
//   e2eEventsPerSecond             pod events per second, first PutEvents to quiet (both phases)
//   wcuPerPodEvent                 DynamoDB write units per pod event, whole life (ReturnConsumedCapacity)
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
  const stack = await startLocalStack({
    port: 0,
    tableName: `bench-service-${Date.now()}`,
    ...(options.dynamoDbEndpoint ? { dynamoDbEndpoint: options.dynamoDbEndpoint } : {}),
  });
  const client = new EventBridgeClient({
    endpoint: stack.eventsUrl, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
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
    await putAll(client, trace.entries, 4);
    await stack.whenQuiet(0);
    // Phase 2: the cluster deletes each commanded pod, as the forwarder would.
    const firstPhase = trace.entries.length;
    for (const pod of all) if (commanded.has(pod.uid)) trace.deletePod(pod, 10);
    await putAll(client, trace.entries.slice(firstPhase), 4);
    await stack.whenQuiet(0);
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
    client.destroy();
    await stack.stop();
  }
}

/** Puts entries in calls of 10, `concurrency` calls at a time; throws on any failed entry. */
async function putAll(client: EventBridgeClient, entries: readonly RecordedEntry[], concurrency: number): Promise<void> {
  const calls: PutEventsRequestEntry[][] = [];
  for (let i = 0; i < entries.length; i += 10) {
    calls.push(entries.slice(i, i + 10).map(({ Source, DetailType, Detail }) => ({ Source, DetailType, Detail })));
  }
  const worker = async () => {
    for (let call = calls.shift(); call; call = calls.shift()) {
      const output = await client.send(new PutEventsCommand({ Entries: call }));
      if ((output.FailedEntryCount ?? 0) > 0) throw new Error(`PutEvents failed: ${JSON.stringify(output.Entries)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

const round = (n: number): number => Math.round(n * 100) / 100;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const podsArg = args.indexOf('--pods');
  const figures = await runServicePathBench(podsArg >= 0 ? { pods: Number(args[podsArg + 1]) } : {});
  console.log(args.includes('--json') ? JSON.stringify(figures) : figures);
}
