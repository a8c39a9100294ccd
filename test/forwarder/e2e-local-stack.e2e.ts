import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBridgeClientFor, sqsClientFor } from '../../forwarder/aws-clients.ts';
import { startForwarder, type RunningForwarder } from '../../forwarder/forwarder.ts';
import { kubeConfigFor } from '../../forwarder/kube-config.ts';
import { createLogger } from '../../forwarder/log.ts';
import { Metrics } from '../../forwarder/metrics.ts';
import { FakeKubeApi } from './fake-kube-api.ts';
import { eventually, FAST_TUNING } from './harness.ts';
import { startLocalStack, type LocalStack } from './local-stack.ts';
import { aJob, aPod } from './objects.ts';

// Not in the default run (*.e2e.ts, not *.spec.ts) until startLocalStack is wired to the
// local stack; see local-stack.ts for what it must provide.

const CLUSTER = 'e2e';

let stack: LocalStack;
let kube: FakeKubeApi;
let forwarder: RunningForwarder;
let spoolDir: string;

beforeAll(async () => {
  stack = await startLocalStack();
  kube = await FakeKubeApi.start();
  spoolDir = await mkdtemp(join(tmpdir(), 'jobfold-e2e-'));
  const aws = { eventsEndpoint: stack.eventsEndpoint, sqsEndpoint: stack.sqsEndpoint, region: stack.region };
  forwarder = await startForwarder({
    config: {
      clusterId: CLUSTER,
      eventBusName: stack.eventBusName,
      queueUrl: stack.queueUrl(CLUSTER),
      dlqUrl: stack.dlqUrl(CLUSTER),
      namespace: undefined,
      spoolDir,
      spoolMaxBytes: 16 * 1024 * 1024,
    },
    kubeConfig: kubeConfigFor({ kubeServer: kube.url }),
    eventBridge: eventBridgeClientFor(aws, {}),
    sqs: sqsClientFor(aws, {}),
    metrics: new Metrics(),
    log: createLogger({ level: 'warn' }),
    tuning: FAST_TUNING,
  });
});

afterAll(async () => {
  await forwarder?.stop();
  await kube?.close();
  await stack?.stop();
  if (spoolDir) await rm(spoolDir, { recursive: true, force: true });
});

describe('The forwarder against the local stack', () => {
  it('sends pod events in, receives the termination command out, and deletes the pod', async () => {
    // backoffLimit 0: one failed pod fails the Job (BackoffLimitExceeded), and the Job's other,
    // still running pod is terminated (cause JobFinishing), which goes to every cluster.
    const job = kube.store.create('jobs', aJob({ name: 'e2e', parallelism: 2, completions: 2, backoffLimit: 0 }));
    kube.store.create('pods', aPod(job, { name: 'e2e-failed', phase: 'Failed', exitCode: 1 }));
    const running = kube.store.create('pods', aPod(job, { name: 'e2e-running' }));

    await eventually(() => expect(kube.store.get('pods', 'default', 'e2e-running')).toBeUndefined(), 20_000);

    const deletion = kube.requests.find((r) => r.method === 'DELETE' && r.path.endsWith('/pods/e2e-running'));
    expect(deletion?.body).toMatchObject({ preconditions: { uid: running.metadata.uid } });
    expect(kube.store.get('pods', 'default', 'e2e-failed')).toBeDefined();
  }, 30_000);
});
