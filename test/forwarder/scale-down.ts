import type { KubernetesObject } from '@kubernetes/client-node';
import { sqsClientFor } from '../../forwarder/aws-clients.ts';
import { CommandConsumer } from '../../forwarder/commands/command-consumer.ts';
import { createKubeOps } from '../../forwarder/commands/kube-ops.ts';
import { kubeConfigFor } from '../../forwarder/kube-config.ts';
import { createLogger } from '../../forwarder/log.ts';
import { Metrics } from '../../forwarder/metrics.ts';
import { WatchedPods } from '../../forwarder/commands/watched-pods.ts';
import { ObjectWatcher } from '../../forwarder/watch/object-watcher.ts';
import { watchTargets } from '../../forwarder/watch/watch-targets.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../../shared/k8s/job-controller.ts';
import { terminatePod } from './commands.ts';
import { FakeKubeApi } from './fake-kube-api.ts';
import { FakeSqs } from './fake-sqs.ts';
import { aJob, aPod } from './objects.ts';

// A scale-down at size for the command consumer (test/forwarder/guard-size.spec.ts asserts its
// counts, bench/guard-lists.ts prints them): a managed Job of `pods` running pods scaled down by
// `commands`, whose TerminatePod (ExcessPods) commands are queued at once and applied by the
// deployed consumer and kube client against the fake API server and SQS; with `watch`, the
// forwarder's pod watch feeding the guards' view of the pods (forwarder/commands/watched-pods.ts),
// started before the commands (its list of every pod on start is not counted: the forwarder pays
// it once, not per command), else no watch and the guards list. The watch reports to nothing else
// (the pods' 100,000 observations are not what this measures).

export interface ScaleDownFigures {
  readonly pods: number;
  readonly commands: number;
  readonly deleted: number;
  /** Pods whose DELETE was sent more than once. */
  readonly deletedTwice: number;
  /** Whether every pod deleted was one the commands named. */
  readonly deletedAsCommanded: boolean;
  /** The most pods one list response held. */
  readonly largestPage: number;
  readonly refused: number;
  /** The guards' list requests of the Job's pods (every page; not the one-pod version reads). */
  readonly podListRequests: number;
  /** The one-pod reads of the API server's resourceVersion (watch view). */
  readonly versionReads: number;
  /** Batches that read the pods from the watch. */
  readonly watchReads: number;
  /** Lists begun (their first pages). */
  readonly lists: number;
  /** Pods the API server served to the guards' lists and version reads. */
  readonly podsServed: number;
  readonly podListRequestsPerCommand: number;
  readonly podsReadPerCommand: number;
  readonly seconds: number;
}

/**
 * `maxAgeMs`: how long one list serves a batch (default: as deployed, 10 s); on a loaded machine a
 * batch of 100 commands can outlast it, and its later commands list again.
 */
export async function runScaleDown(pods: number, commands: number, options: { maxAgeMs?: number; watch?: boolean } = {}): Promise<ScaleDownFigures> {
  const { maxAgeMs, watch = false } = options;
  const [kube, sqs] = await Promise.all([FakeKubeApi.start(), FakeSqs.start()]);
  // Slow lists must not bring messages back while they are being handled.
  sqs.visibilityTimeoutMs = 30 * 60_000;
  try {
    const job = kube.store.create('jobs', aJob({ name: 'train', managedBy: JOBFOLD_CONTROLLER_NAME, parallelism: pods - commands, completions: 2 * pods }));
    const created = [];
    for (let i = 0; i < pods; i++) created.push(kube.store.create('pods', aPod(job, { name: `train-${i}`, tracked: true })));
    kube.store.compact();
    // A write past the compaction: the fake refuses a watch from the compacted version itself.
    kube.store.create('jobs', aJob({ name: 'after-compaction' }));
    for (const pod of created.slice(0, commands)) sqs.send('commands', terminatePod(job, pod, 'ExcessPods'));
    const metrics = new Metrics();
    const log = createLogger({ level: 'error', write: (line) => process.stderr.write(`${line}\n`) });
    const kubeConfig = kubeConfigFor({ kubeServer: kube.url });
    let watcher: ObjectWatcher | undefined;
    const watched = new WatchedPods(() => watcher?.resourceVersion());
    if (watch) {
      const target = watchTargets(kubeConfig, undefined).find((t) => t.kind === 'Pod');
      if (!target) throw new Error('no pod watch target');
      const sink = { relisted: (_: string, items: readonly KubernetesObject[]) => watched.relisted(items), observed: (_: string, o: KubernetesObject) => watched.observed(o), deleted: (_: string, o: KubernetesObject) => watched.deleted(o) };
      watcher = new ObjectWatcher({ kubeConfig, target, sink, metrics, log, restartBackoff: { baseMs: 10, maxMs: 40 } });
      await watcher.start();
    }
    const requestsBefore = kube.requests.length;
    const servedBefore = kube.listedItems.pods;
    const consumer = new CommandConsumer({
      sqs: sqsClientFor({ sqsEndpoint: sqs.url, region: 'us-east-1' }, {}),
      queueUrl: sqs.queueUrl('commands'),
      dlqUrl: sqs.queueUrl('dlq'),
      clusterId: 'c1',
      kube: createKubeOps(kubeConfig),
      metrics,
      log,
      errorBackoff: { baseMs: 10, maxMs: 40 },
      waitTimeSeconds: 1,
      ...(maxAgeMs === undefined ? {} : { podListMaxAgeMs: maxAgeMs }),
      ...(watch ? { watchedPods: watched } : {}),
    });
    const start = performance.now();
    consumer.start();
    while (sqs.pending('commands').length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const seconds = (performance.now() - start) / 1000;
    await consumer.stop();
    await watcher?.stop();
    const guardReads = kube.requests.slice(requestsBefore).filter((r) => r.method === 'GET' && r.path.endsWith('/pods') && r.query.get('watch') !== 'true' && r.query.get('labelSelector')?.includes('='));
    const podListRequests = guardReads.filter((r) => r.query.get('limit') !== '1').length;
    const deletes = kube.requests.filter((r) => r.method === 'DELETE').map((r) => r.path.split('/').at(-1) ?? '');
    const commanded = new Set(created.slice(0, commands).map((p) => p.metadata.name));
    const podsServed = kube.listedItems.pods - servedBefore;
    return {
      pods,
      commands,
      deleted: deletes.length,
      deletedTwice: deletes.length - new Set(deletes).size,
      deletedAsCommanded: deletes.every((name) => commanded.has(name)),
      largestPage: kube.largestList,
      refused: metrics.get('forwarder_commands_total', { type: 'TerminatePod', outcome: 'refused' }),
      podListRequests,
      lists: guardReads.filter((r) => r.query.get('limit') !== '1' && !r.query.has('continue')).length,
      versionReads: guardReads.filter((r) => r.query.get('limit') === '1').length,
      watchReads: metrics.get('forwarder_guard_watch_reads_total'),
      podsServed,
      podListRequestsPerCommand: round(podListRequests / commands),
      podsReadPerCommand: round(podsServed / commands),
      seconds: round(seconds),
    };
  } finally {
    await Promise.all([kube.close(), sqs.close()]);
  }
}

const round = (n: number) => Math.round(n * 100) / 100;
