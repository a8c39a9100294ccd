import type { LogEntry } from '../../../shared/log/event-store.ts';
import { comparableVersion, isStaleObservation, type ObjectSequence, type ObservationOrder } from '../../../shared/k8s/object-sequence.ts';
import type { Pod } from '../../../shared/k8s/pod.ts';
import type { JobObject } from './job-object.ts';
import { objectVersion } from '../resource-version.ts';
import {
  compact, CONTROLLER_UID_LABEL, JOB_NAME_LABEL, LEGACY_CONTROLLER_UID_LABEL, LEGACY_JOB_NAME_LABEL, withJobfoldLabels, type ServedObject,
} from './meta.ts';

// A Job's pods as jobfold last observed them, read from its log: the newest observation of each
// pod (by the forwarder's order stamp when both carry one, else the later in the log), and its
// deletion. Pods the cluster deleted long ago stay, labelled `jobfold.io/deleted: "true"`.
// jobfold logs a pod as the Job fold reads it (shared/k8s/pod.ts: metadata, node, restart
// policy, phase, conditions, container states), so the pod's containers are filled in from its
// Job's template, where the API server's pod would have them from.

interface Sighting {
  pod: Pod;
  sequence: ObjectSequence | undefined;
  seq: number;
  recordedAt: string;
  deleted: boolean;
  /** The position of the last entry that changed what is served of the pod. */
  lastSeq: number;
  lastRecordedAt: string;
}

/** The pods of one Job's log, folded entry by entry in log order; `pods()` in first-sighting order. */
export class PodCollector {
  readonly #pods = new Map<string, Sighting>();
  /** Deletions seen before any observation of the pod. */
  readonly #deletedFirst = new Set<string>();

  add(entry: LogEntry): void {
    if (entry.type === 'PodObserved') {
      const body = entry.body as { pod: Pod; sequence?: ObjectSequence };
      const uid = body.pod.metadata.uid;
      const known = this.#pods.get(uid);
      if (known === undefined) {
        this.#pods.set(uid, {
          pod: body.pod, sequence: body.sequence, seq: entry.seq, recordedAt: entry.recordedAt,
          deleted: this.#deletedFirst.delete(uid), lastSeq: entry.seq, lastRecordedAt: entry.recordedAt,
        });
      } else if (!isStaleObservation(orderOf(known.pod, known.sequence), orderOf(body.pod, body.sequence))) {
        Object.assign(known, { pod: body.pod, sequence: body.sequence ?? known.sequence, lastSeq: entry.seq, lastRecordedAt: entry.recordedAt });
      }
    } else if (entry.type === 'PodDeleted') {
      const uid = (entry.body as { uid: string }).uid;
      const known = this.#pods.get(uid);
      if (known === undefined) this.#deletedFirst.add(uid);
      else if (!known.deleted) Object.assign(known, { deleted: true, lastSeq: entry.seq, lastRecordedAt: entry.recordedAt });
    }
  }

  /** Every pod observed, in the order first seen. */
  pods(): readonly Sighting[] {
    return [...this.#pods.values()];
  }

  get size(): number {
    return this.#pods.size;
  }
}

export type PodSighting = ReturnType<PodCollector['pods']>[number];

export type PodObject = ServedObject<'v1', 'Pod'>;

/** The pod as served: as observed, with the Job's labels and owner where the observation lacks them. */
export function podObject(sighting: PodSighting, job: JobObject): PodObject {
  const { pod } = sighting;
  const meta = pod.metadata;
  const jobName = job.metadata.name;
  const jobUid = job.metadata.uid;
  const labels = {
    [CONTROLLER_UID_LABEL]: jobUid, [JOB_NAME_LABEL]: jobName, [LEGACY_CONTROLLER_UID_LABEL]: jobUid, [LEGACY_JOB_NAME_LABEL]: jobName,
    ...meta.labels,
  };
  const superseded = job.metadata.labels['jobfold.io/superseded'] === 'true';
  const template = (job.spec['template'] as { spec?: { containers?: unknown[]; initContainers?: unknown[]; restartPolicy?: string } } | undefined)?.spec;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: compact({
      name: meta.name,
      namespace: meta.namespace ?? job.metadata.namespace,
      uid: meta.uid,
      resourceVersion: objectVersion(sighting.lastRecordedAt, sighting.lastSeq),
      creationTimestamp: meta.creationTimestamp,
      deletionTimestamp: meta.deletionTimestamp,
      deletionGracePeriodSeconds: meta.deletionGracePeriodSeconds,
      labels: withJobfoldLabels(labels, { deleted: sighting.deleted, superseded }),
      annotations: meta.annotations,
      ownerReferences: meta.ownerReferences ?? [{ apiVersion: 'batch/v1', kind: 'Job', name: jobName, uid: jobUid, controller: true, blockOwnerDeletion: true }],
      finalizers: meta.finalizers,
    }),
    spec: compact({
      ...pod.spec,
      restartPolicy: pod.spec?.restartPolicy ?? template?.restartPolicy,
      containers: template?.containers ?? [],
      initContainers: template?.initContainers,
    }),
    status: { ...pod.status },
  };
}

/** What a pod's field selectors read (a subset of the API server's pod field set). */
export function podFields(pod: PodObject): Record<string, string> {
  return {
    'metadata.name': pod.metadata.name,
    'metadata.namespace': pod.metadata.namespace,
    'spec.nodeName': (pod.spec['nodeName'] as string | undefined) ?? '',
    'spec.restartPolicy': (pod.spec['restartPolicy'] as string | undefined) ?? '',
    'status.phase': (pod.status['phase'] as string | undefined) ?? '',
  };
}

/** A pod observation's place among the pod's others, as the fold orders them (shared/job/observe-pod.ts). */
function orderOf(pod: Pod, sequence: ObjectSequence | undefined): ObservationOrder {
  return { version: comparableVersion(pod.metadata.resourceVersion), sequence };
}
