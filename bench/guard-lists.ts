import { parseArgs } from 'node:util';
import { sqsClientFor } from '../forwarder/aws-clients.ts';
import { CommandConsumer } from '../forwarder/commands/command-consumer.ts';
import { createKubeOps } from '../forwarder/commands/kube-ops.ts';
import { kubeConfigFor } from '../forwarder/kube-config.ts';
import { createLogger } from '../forwarder/log.ts';
import { Metrics } from '../forwarder/metrics.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../shared/job/index.ts';
import { terminatePod } from '../test/forwarder/commands.ts';
import { FakeKubeApi } from '../test/forwarder/fake-kube-api.ts';
import { FakeSqs } from '../test/forwarder/fake-sqs.ts';
import { aJob, aPod } from '../test/forwarder/objects.ts';

// The forwarder's guards at the size users run (issue 21; docs/forwarder.md, "Applying
// commands"): a managed Job of N running pods scaled down by `commands` pods, whose
// `TerminatePod` commands (cause ExcessPods, each re-checked against the live Job and pods by the
// deletion guard) the forwarder's command consumer applies from SQS against the API server. The
// fakes are the forwarder specs' (test/forwarder/fake-kube-api.ts, fake-sqs.ts) in this process;
// the consumer, its kube client and its SQS client are the deployed ones. Figures, never
// assertions: pod list requests (every page counts) and pods the API server served to lists,
// per command; pods deleted; seconds.
// Run: `node bench/guard-lists.ts [--pods 1000,100000] [--commands 200] [--json]`. Not part of
// `npm run bench`.

const USAGE = 'Usage: node bench/guard-lists.ts [--pods N1,N2 (default 1000,100000)] [--commands N (default 200)] [--json]';

export interface GuardListFigures {
  readonly pods: number;
  readonly commands: number;
  readonly deleted: number;
  readonly refused: number;
  readonly podListRequests: number;
  readonly podsServed: number;
  readonly podListRequestsPerCommand: number;
  readonly podsReadPerCommand: number;
  readonly seconds: number;
}

export async function runGuardListBench(pods: number, commands: number): Promise<GuardListFigures> {
  const [kube, sqs] = await Promise.all([FakeKubeApi.start(), FakeSqs.start()]);
  // Slow lists must not bring messages back while they are being handled.
  sqs.visibilityTimeoutMs = 30 * 60_000;
  try {
    const job = kube.store.create('jobs', aJob({ name: 'train', managedBy: JOBFOLD_CONTROLLER_NAME, parallelism: pods - commands, completions: 2 * pods }));
    const created = [];
    for (let i = 0; i < pods; i++) created.push(kube.store.create('pods', aPod(job, { name: `train-${i}`, tracked: true })));
    kube.store.compact();
    for (const pod of created.slice(0, commands)) sqs.send('commands', terminatePod(job, pod, 'ExcessPods'));
    const metrics = new Metrics();
    const consumer = new CommandConsumer({
      sqs: sqsClientFor({ sqsEndpoint: sqs.url, region: 'us-east-1' }, {}),
      queueUrl: sqs.queueUrl('commands'),
      dlqUrl: sqs.queueUrl('dlq'),
      clusterId: 'c1',
      kube: createKubeOps(kubeConfigFor({ kubeServer: kube.url })),
      metrics,
      log: createLogger({ level: 'error', write: (line) => process.stderr.write(`${line}\n`) }),
      errorBackoff: { baseMs: 10, maxMs: 40 },
      waitTimeSeconds: 1,
    });
    const start = performance.now();
    consumer.start();
    while (sqs.pending('commands').length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const seconds = (performance.now() - start) / 1000;
    await consumer.stop();
    const podListRequests = kube.listRequests('pods').length;
    const podsServed = kube.listedItems.pods;
    return {
      pods,
      commands,
      deleted: kube.requests.filter((r) => r.method === 'DELETE').length,
      refused: metrics.get('forwarder_commands_total', { type: 'TerminatePod', outcome: 'refused' }),
      podListRequests,
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { pods: { type: 'string', default: '1000,100000' }, commands: { type: 'string', default: '200' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const sizes = values.pods.split(',').map(Number);
  const commands = Number(values.commands);
  if (sizes.some((n) => !Number.isSafeInteger(n) || n < 1) || !Number.isSafeInteger(commands) || commands < 1 || sizes.some((n) => n <= commands)) {
    process.stderr.write(`${USAGE}\n(--commands must be below every --pods)\n`);
    process.exit(2);
  }
  const results: GuardListFigures[] = [];
  for (const pods of sizes) {
    const figures = await runGuardListBench(pods, commands);
    results.push(figures);
    if (!values.json) {
      process.stdout.write(
        `${pods} pods, ${commands} TerminatePod (ExcessPods): ${figures.podListRequests} pod list requests (${figures.podListRequestsPerCommand} a command), ` +
          `${figures.podsServed} pods read (${figures.podsReadPerCommand} a command), ${figures.deleted} deleted, ${figures.refused} refused, ${figures.seconds} s\n`,
      );
    }
  }
  if (values.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
}
