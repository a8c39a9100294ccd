import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBridgeClientFor, sqsClientFor } from '../../../forwarder/aws-clients.ts';
import { startForwarder, type RunningForwarder } from '../../../forwarder/forwarder.ts';
import { kubeConfigFor } from '../../../forwarder/kube-config.ts';
import { createLogger } from '../../../forwarder/log.ts';
import { Metrics } from '../../../forwarder/metrics.ts';
import type { LocalStack } from '../../../local/local-stack-types.ts';
import { FakeKubeApi } from '../../forwarder/fake-kube-api.ts';
import { eventually, FAST_TUNING } from '../../forwarder/harness.ts';
import { aJob, aPod } from '../../forwarder/objects.ts';
import { startTestStack } from '../local/local-stack-fixture.ts';

// End to end: a fake Kubernetes API server, the real forwarder, and the local stack (npm start)
// on the run's DynamoDB Local. Pod events go in through PutEvents; the decided termination comes
// back through the cluster's SQS queue and the forwarder deletes the pod with a uid precondition.

const CLUSTER = 'e2e';

let stack: LocalStack;
let kube: FakeKubeApi;
let forwarder: RunningForwarder;
let spoolDir: string;

beforeAll(async () => {
  stack = await startTestStack();
  kube = await FakeKubeApi.start();
  spoolDir = await mkdtemp(join(tmpdir(), 'jobfold-e2e-'));
  const aws = { eventsEndpoint: stack.eventsUrl, sqsEndpoint: stack.sqsEndpoint, region: stack.region };
  forwarder = await startForwarder({
    config: {
      clusterId: CLUSTER,
      eventBusName: 'jobfold',
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
    kube.store.create('pods', aPod(job, { name: 'e2e-failed', phase: 'Failed', exitCode: 1, tracked: true }));
    const running = kube.store.create('pods', aPod(job, { name: 'e2e-running', tracked: true }));

    // The pod keeps its tracking finalizer, so the API server only marks it for deletion.
    const deletion = await eventually(() => {
      const request = kube.requests.find((r) => r.method === 'DELETE' && r.path.endsWith('/pods/e2e-running'));
      expect(request).toBeDefined();
      return request;
    }, 30_000);
    expect(deletion?.body).toMatchObject({ preconditions: { uid: running.metadata.uid } });
    expect(kube.store.get('pods', 'default', 'e2e-failed')).toBeDefined();
  }, 45_000);
});
