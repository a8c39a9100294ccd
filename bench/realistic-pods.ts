import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { deletedEvent, observedEvent, type ObservationResult } from '../forwarder/observation.ts';
import { CLUSTER_SOURCE_PREFIX, InboundDetailType } from '../shared/contract/inbound.ts';
import type { RecordedEntry } from '../local/sample/trace-recorder.ts';
import type { ObjectSequence } from '../shared/k8s/object-sequence.ts';

// Pods as a real cluster's forwarder sends them. The recorder's pods (local/sample/trace-recorder.ts)
// are lean: two labels, one annotation, one condition, one container status, counting uids, no IPs.
// Real pods carry much more, and what the forwarder keeps of it (forwarder/trim.ts: the contract's
// own schemas) is still several times bigger: every label and annotation but kubectl's
// last-applied-configuration, the five pod conditions, the init container's status, a random v4 uid.
//
// The template, fixtures/indexed-job-pod.json, is a pod of an Indexed Job as `kubectl get pod -o json`
// prints it from a v1.35 EKS GPU node: the shape of the pods of kubernetes.io's Indexed Job example
// (tasks/job/indexed-parallel-processing-static: an init container fetching the index's shard, the
// index from the downward API), with what clusters add (managedFields, the service account token
// volumes and the IRSA environment, tolerations, kubelet's status with image IDs, container IDs,
// allocated resources and volume mounts) and what platform teams add (a dozen labels and
// annotations: app.kubernetes.io, team, cost centre, queue, Prometheus, autoscaler, run id). Written
// field by field from the core/v1 API as the API server and kubelet fill them, not copied from a
// cluster. Each recorded pod event is rebuilt on it (identity, phase, containers' states and times
// from the recording) and put through the forwarder's own event builder (forwarder/observation.ts:
// observedEvent / deletedEvent, which trim), so the Detail is byte for byte what the forwarder would
// send for that pod.

type Json = Record<string, unknown>;

const TEMPLATE = JSON.parse(readFileSync(new URL('./fixtures/indexed-job-pod.json', import.meta.url), 'utf8')) as Json;

interface LeanPod {
  metadata: {
    name: string; namespace?: string; uid: string; resourceVersion?: string; creationTimestamp?: string; deletionTimestamp?: string;
    labels?: Record<string, string>; annotations?: Record<string, string>; ownerReferences?: Json[]; finalizers?: string[];
  };
  status?: { phase?: string; conditions?: { lastTransitionTime?: string }[]; containerStatuses?: { state?: Json; ready?: boolean; restartCount?: number }[] };
}

/** Hex digits derived from `seed`: deterministic (one recording gives one trace) but as incompressible as random ones. */
const hex = (seed: string, salt: string): string => createHash('sha256').update(`${salt}:${seed}`).digest('hex');
const byte = (digits: string, at: number): number => parseInt(digits.slice(at * 2, at * 2 + 2), 16);

/** A real-looking v4 uid for a recorded one (the same recorded uid always gets the same). */
export function uidFor(recorded: string): string {
  const h = hex(recorded, 'uid');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[byte(h, 8) % 4]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The pod's node and IPs: one of 1,250 GPU nodes (8 pods a node), a pod IP in the node's subnet. */
function placementOf(recordedUid: string): { node: string; hostIP: string; podIP: string } {
  const h = hex(recordedUid, 'node');
  const hostIP = `10.42.${byte(h, 0) % 40}.${byte(h, 1) % 32 + 1}`;
  const podIP = `10.42.${byte(h, 0) % 40}.${byte(h, 2) % 200 + 40}`;
  return { node: `ip-${hostIP.replaceAll('.', '-')}.eu-west-1.compute.internal`, hostIP, podIP };
}

/** The template filled in with the recorded pod's identity and state: the whole object the API server would return. */
export function fullPod(lean: LeanPod): Json {
  const pod = structuredClone(TEMPLATE) as Json & { metadata: Json; spec: Json; status: Json };
  const meta = lean.metadata;
  const jobUid = String(meta.ownerReferences?.[0]?.['uid'] ?? '');
  const jobName = String(meta.ownerReferences?.[0]?.['name'] ?? '');
  const index = meta.annotations?.['batch.kubernetes.io/job-completion-index'];
  const uid = uidFor(meta.uid);
  const created = meta.creationTimestamp ?? '2026-01-01T00:00:00Z';
  const placement = placementOf(meta.uid);
  const templateLabels = pod.metadata['labels'] as Record<string, string>;
  const labels: Record<string, string> = {
    ...templateLabels,
    'batch.kubernetes.io/controller-uid': jobUid, 'controller-uid': jobUid,
    'batch.kubernetes.io/job-name': jobName, 'job-name': jobName,
    ...meta.labels,
  };
  const annotations: Record<string, string> = {
    ...(pod.metadata['annotations'] as Record<string, string>), 'vpc.amazonaws.com/pod-ips': placement.podIP, ...meta.annotations,
  };
  if (index === undefined) {
    delete labels['batch.kubernetes.io/job-completion-index'];
    delete annotations['batch.kubernetes.io/job-completion-index'];
  } else labels['batch.kubernetes.io/job-completion-index'] = index;
  Object.assign(pod.metadata, {
    name: meta.name, namespace: meta.namespace, uid, generateName: `${meta.name.replace(/[a-z0-9]{5}$/, '')}`,
    // Real resourceVersions are etcd revisions: nine digits, rising.
    resourceVersion: String(183_000_000 + Number(meta.resourceVersion ?? 0)),
    creationTimestamp: created, labels, annotations,
    ownerReferences: meta.ownerReferences, finalizers: meta.finalizers,
    ...(meta.deletionTimestamp ? { deletionTimestamp: meta.deletionTimestamp, deletionGracePeriodSeconds: 30 } : {}),
  });
  pod.spec['nodeName'] = placement.node;
  pod.spec['hostname'] = `${jobName}-${index ?? '0'}`;
  pod.spec['subdomain'] = jobName;
  const at = lean.status?.conditions?.[0]?.lastTransitionTime ?? created;
  const phase = lean.status?.phase ?? 'Pending';
  const running = phase === 'Running';
  const leanContainer = lean.status?.containerStatuses?.[0] ?? {};
  const [container] = pod.status['containerStatuses'] as Json[];
  const conditionTimes: Record<string, string> = { PodScheduled: created, PodReadyToStartContainers: created, Initialized: created };
  Object.assign(pod.status, {
    phase, startTime: created,
    hostIP: placement.hostIP, hostIPs: [{ ip: placement.hostIP }], podIP: placement.podIP, podIPs: [{ ip: placement.podIP }],
    conditions: (pod.status['conditions'] as Json[]).map((c) => {
      const type = String(c['type']);
      const readiness = type === 'Ready' || type === 'ContainersReady';
      // A finished pod is not ready, nor ready to start containers (kubelet tears its sandbox down).
      const status = running || !(readiness || type === 'PodReadyToStartContainers') ? 'True' : 'False';
      return { ...c, status, lastTransitionTime: conditionTimes[type] ?? at, ...(readiness && !running ? { reason: 'PodCompleted' } : {}) };
    }),
    containerStatuses: [{
      ...container, state: leanContainer.state ?? {}, ready: leanContainer.ready ?? running, started: running, restartCount: leanContainer.restartCount ?? 0,
      containerID: `containerd://${hex(meta.uid, 'container')}`,
    }],
  });
  const [init] = pod.status['initContainerStatuses'] as Json[];
  pod.status['initContainerStatuses'] = [{ ...init, containerID: `containerd://${hex(meta.uid, 'init')}`, state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: created, finishedAt: created } } }];
  return pod;
}

const clusterOf = (source: string): string => source.slice(CLUSTER_SOURCE_PREFIX.length);

/**
 * `entries` with every pod event rebuilt as the forwarder would send it for a real pod (the
 * template above, trimmed by the forwarder's own code); Job events are kept as they are. The same
 * recording always gives the same entries.
 */
export function withRealisticPods(entries: readonly RecordedEntry[]): RecordedEntry[] {
  return entries.map((entry) => {
    const deleted = entry.DetailType === InboundDetailType.PodDeleted;
    if (!deleted && entry.DetailType !== InboundDetailType.PodObserved) return entry;
    const detail = JSON.parse(entry.Detail) as { observedAt: string; object: LeanPod; sequence?: ObjectSequence };
    const raw = fullPod(detail.object);
    // The recording's stamp (the forwarder's counts, when recorded with them) goes along.
    const built: ObservationResult = deleted
      ? deletedEvent(clusterOf(entry.Source), 'Pod', raw, detail.observedAt, detail.sequence)
      : observedEvent(clusterOf(entry.Source), 'Pod', raw, detail.observedAt, detail.sequence);
    if (!built.ok) throw new Error(`the forwarder refused a realistic pod: ${built.reason}`);
    return { at: entry.at, Source: built.event.source, DetailType: built.event.detailType, Detail: built.event.detail };
  });
}

/** Bytes of the pod events' Detail, per pod event: what one observation costs on the bus. */
export function detailBytesPerPodEvent(entries: readonly RecordedEntry[], podEvents: number): number {
  let bytes = 0;
  for (const e of entries) if (e.DetailType !== InboundDetailType.JobObserved && e.DetailType !== InboundDetailType.JobDeleted) bytes += Buffer.byteLength(e.Detail);
  return Math.round(bytes / podEvents);
}
