import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { JobScenarioSchema, type JobScenario } from '../../../cli/scenario/job-scenario.ts';
import { DEFAULT_CORPUS_ROOT, PROJECT_CORPUS_DIRS } from '../../../cli/conformance/run.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { CONTROLLER_UID_LABEL, JOB_NAME_LABEL, JOB_TRACKING_FINALIZER, JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { createServiceHarness } from '../../support/service-harness.ts';
import type { KubeObject } from '../fake-kube-store.ts';
import { CLUSTER_ID, type Harness } from '../harness.ts';
import { ClusterRelay, type DeliveryOrder } from './cluster-relay.ts';

// A k8s-job conformance scenario, with spec.managedBy naming jobfold, played against the fake API
// server: the forwarder reports every change, the service (ingest, reconcile, outbox, publish)
// decides, the commands go through the cluster's queue to the forwarder, which creates pods,
// deletes them, removes finalizers and writes the status. After every step the Job on the API
// server holds exactly the status the fold decided last, and a finished Job leaves no pod
// holding the tracking finalizer.

export function scenario(id: string): JobScenario {
  const [dir, name] = id.startsWith('integration:') ? [PROJECT_CORPUS_DIRS[0] as string, id.slice('integration:'.length)] : [join(DEFAULT_CORPUS_ROOT, 'k8s-job'), id];
  return JobScenarioSchema.parse(JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')));
}

/** The Job as the API server stores it: managed by jobfold, with a container and a selector. */
function managedJob(s: JobScenario): KubeObject {
  const { metadata, spec, status } = s.job;
  const uid = metadata.uid ?? 'job-uid';
  const template = spec.template as { metadata?: Record<string, unknown>; spec?: Record<string, unknown> };
  const containers = (template.spec?.['containers'] as unknown[] | undefined)?.length ? template.spec?.['containers'] : [{ name: 'main-container', image: 'busybox' }];
  const labels = { [CONTROLLER_UID_LABEL]: uid, [JOB_NAME_LABEL]: metadata.name };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { ...metadata, uid },
    spec: {
      ...spec,
      managedBy: JOBFOLD_CONTROLLER_NAME,
      selector: { matchLabels: { [CONTROLLER_UID_LABEL]: uid } },
      template: { ...template, metadata: { ...template.metadata, labels }, spec: { ...template.spec, containers } },
    },
    status: status ?? {},
  };
}

/** The scenario's pod, owned and labelled as the Job controller makes them. */
function ownedPod(pod: KubeObject, job: KubeObject): KubeObject {
  const uid = job.metadata.uid ?? '';
  return {
    ...pod,
    metadata: {
      ...pod.metadata,
      labels: { [CONTROLLER_UID_LABEL]: uid, [JOB_NAME_LABEL]: job.metadata.name },
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: job.metadata.name, uid, controller: true, blockOwnerDeletion: true }],
    },
  };
}

/** How far apart two steps may be for an observation to arrive one step late. */
const HOLD_ACROSS_STEPS_MS = 60_000;

/** What the merge patch leaves: the decided status without its null fields. */
const withoutNulls = (status: Record<string, unknown>) => Object.fromEntries(Object.entries(status).filter(([, v]) => v !== null));

/**
 * Plays scenario `s` against `cluster` and a fresh service, the forwarder's observations
 * relayed in `order` (the cluster's by default). Returns the relay, which recorded the commands.
 */
export async function playManaged(cluster: Harness, s: JobScenario, order?: DeliveryOrder): Promise<ClusterRelay> {
  const kube = cluster.kube.store;
  const job = kube.create('jobs', managedJob(s));
  const namespace = job.metadata.namespace ?? 'default';
  const service = createServiceHarness({ store: new InMemoryEventStore(), now: s.job.metadata.creationTimestamp, config: { ...DEFAULT_FOLD_CONFIG, validateSpecs: false } });
  const relay = new ClusterRelay(cluster, service, { kind: 'Job', clusterId: CLUSTER_ID, namespace, uid: job.metadata.uid ?? '' }, order);
  // What the order held back arrives before the scenario's clock moves on by more than a
  // minute: later than that, the wait on pods jobfold asked for (EXPECTATIONS_TIMEOUT_MS, as
  // upstream's) would run out, and upstream too asks again for pods it has not seen.
  const step = async (at: string, tick: boolean, next: string | undefined) => {
    await relay.settle(at, tick);
    if (relay.held > 0 && (next === undefined || Date.parse(next) - Date.parse(at) > HOLD_ACROSS_STEPS_MS)) await relay.settle(at, false, 6, true);
  };
  await step(s.job.metadata.creationTimestamp ?? s.events[0]?.at ?? '', false, s.events[0]?.at);

  const played = new Set<string>();
  for (let i = 0; i < s.events.length; ) {
    const at = s.events[i]?.at as string;
    let tick = false;
    for (; i < s.events.length && s.events[i]?.at === at; i++) {
      const event = s.events[i] as (typeof s.events)[number];
      if (event.type === 'Tick') tick = true;
      else if (event.type === 'PodDeleted') {
        const pod = kube.list('pods').find((p) => p.metadata.uid === event.uid);
        if (pod) kube.remove('pods', namespace, pod.metadata.name);
      } else if (event.type === 'Pod') {
        const pod = ownedPod(event.pod as KubeObject, job);
        const current = kube.get('pods', namespace, pod.metadata.name);
        // A pod the commands already deleted from the cluster cannot come back.
        if (!current && played.has(pod.metadata.name)) continue;
        played.add(pod.metadata.name);
        if (!current) kube.create('pods', pod);
        else {
          // The controller's removal of the tracking finalizer stands: the scenario's later
          // states of the pod do not bring it back.
          const kept = current.metadata.finalizers?.includes(JOB_TRACKING_FINALIZER) ?? false;
          const finalizers = (pod.metadata.finalizers ?? []).filter((f) => kept || f !== JOB_TRACKING_FINALIZER);
          kube.update('pods', namespace, pod.metadata.name, (p) => Object.assign(p, pod, { metadata: { ...pod.metadata, uid: current.metadata.uid, finalizers } }));
        }
      } else if (event.type === 'Job') {
        // The edits these scenarios make (suspend, parallelism, completions); the template stays.
        const { template: _template, ...edits } = event.job.spec;
        kube.update('jobs', namespace, job.metadata.name, (j) => void (j.spec = { ...(j.spec as object), ...edits, managedBy: JOBFOLD_CONTROLLER_NAME }));
      }
    }
    await step(at, tick, s.events[i]?.at);

    const decided = relay.lastStatus;
    expect(decided, `a status was decided by ${at}`).toBeDefined();
    expect(kube.get('jobs', namespace, job.metadata.name)?.['status'], `status on the API server at ${at}`).toEqual(withoutNulls(decided ?? {}));
  }

  const conditions = (relay.lastStatus?.['conditions'] ?? []) as { type: string; status: string }[];
  if (conditions.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')) {
    const holding = kube.list('pods').filter((p) => p.metadata.finalizers?.includes(JOB_TRACKING_FINALIZER));
    expect(holding.map((p) => p.metadata.name)).toEqual([]);
  }
  return relay;
}
