import { ObjectSequencer } from '../../forwarder/watch/object-sequencer.ts';
import { traceLine } from '../../shared/contract/jsonl-trace.ts';
import type { ObjectSequence } from '../../shared/k8s/object-sequence.ts';

// Builds a cluster trace the way a forwarder records it: PutEvents entries in the inbound
// contract (docs/events.md), objects trimmed to what the fold reads, eventId `<uid>/<resourceVersion>`,
// pods owned by their Job (controller ownerReference + label) and carrying the tracking finalizer.
// With `forwarderCounts`, every event also carries the stamp a current forwarder sends
// (`sequence`: epoch, the object's seq, a pod's `jobSeq`), numbered by the forwarder's own
// sequencer in the order the events are recorded, as one watch would send them: record each
// Job's events in the cluster's order. Without it, events go as an older forwarder sent them.

const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
const COMPLETION_INDEX = 'batch.kubernetes.io/job-completion-index';
const INDEX_FAILURE_COUNT = 'batch.kubernetes.io/job-index-failure-count';
const TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';

/** A line of the trace; `at` (seconds after the trace start) orders the lines. */
export interface RecordedEntry {
  readonly at: number;
  readonly Source: string;
  readonly DetailType: string;
  readonly Detail: string;
}

export interface JobRef {
  readonly cluster: string;
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
}

/** A pod as last observed, so it can be observed again or deleted. */
export interface PodRef {
  readonly job: JobRef;
  readonly name: string;
  readonly uid: string;
  readonly index: number | undefined;
  readonly failureCount: number;
  readonly createdAt: number;
  status: Record<string, unknown>;
}

export interface TraceRecorderOptions {
  /** Stamp every event with the forwarder's counts (forwarder/watch/object-sequencer.ts); one pod and one Job epoch, the trace's start. */
  readonly forwarderCounts?: boolean;
}

export class TraceRecorder {
  readonly entries: RecordedEntry[] = [];
  readonly #start: number;
  readonly #uidSpace: string;
  readonly #sequencer: ObjectSequencer | undefined;
  #resourceVersion = 1000;
  #uids = 0;

  /** `uidSpace` (4 hex digits) keeps the uids of two recorders apart; the sample uses the default. */
  constructor(start: string, uidSpace = '9c21', options: TraceRecorderOptions = {}) {
    this.#start = Date.parse(start);
    this.#uidSpace = uidSpace;
    // Its clock is the trace's start: each kind's one epoch (nothing is listed again).
    this.#sequencer = options.forwarderCounts ? new ObjectSequencer(() => this.#start) : undefined;
  }

  /**
   * Records `Job Observed` for a new Job with `spec` (a batch/v1 JobSpec); `metadata` adds to
   * its metadata (labels, the ownerReferences of a CronJob's Job).
   */
  job(cluster: string, at: number, namespace: string, name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): JobRef {
    const uid = this.#uid('a0b');
    const object = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name, namespace, uid, resourceVersion: this.#rv(), generation: 1, creationTimestamp: this.time(at), ...metadata },
      spec: { ...spec, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: `registry.example.com/${name}:1` }] } } },
      status: {},
    };
    this.#record(cluster, at, 'Job Observed', uid, object);
    return { cluster, name, namespace, uid };
  }

  /** A new pod of `job`, Running since `at`. */
  runPod(job: JobRef, at: number, index: number | undefined, failureCount = 0): PodRef {
    // A generated name suffix, deterministic so the sample is reproducible.
    const suffix = ((this.#uids * 7919 + 104729) % 36 ** 5).toString(36).padStart(5, '0');
    const name = index === undefined ? `${job.name}-${suffix}` : `${job.name}-${index}-${suffix}`;
    const pod: PodRef = { job, name, uid: this.#uid('b0d'), index, failureCount, createdAt: at, status: {} };
    pod.status = {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: this.time(at) }],
      containerStatuses: [{ name: 'main', ready: true, restartCount: 0, state: { running: { startedAt: this.time(at) } } }],
    };
    this.#record(job.cluster, at, 'Pod Observed', pod.uid, this.#podObject(pod));
    return pod;
  }

  /** The pod's container exited with `exitCode`: Succeeded for 0, else Failed. */
  exitPod(pod: PodRef, at: number, exitCode: number): void {
    pod.status = {
      phase: exitCode === 0 ? 'Succeeded' : 'Failed',
      conditions: [{ type: 'Ready', status: 'False', reason: 'PodCompleted', lastTransitionTime: this.time(at) }],
      containerStatuses: [{
        name: 'main',
        ready: false,
        restartCount: 0,
        state: { terminated: { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: this.time(pod.createdAt), finishedAt: this.time(at) } },
      }],
    };
    this.#record(pod.job.cluster, at, 'Pod Observed', pod.uid, this.#podObject(pod));
  }

  /** The pod is gone (deleted on a termination command); the last known object goes along. */
  deletePod(pod: PodRef, at: number): void {
    const object = this.#podObject(pod);
    (object.metadata as Record<string, unknown>)['deletionTimestamp'] = this.time(at);
    this.#record(pod.job.cluster, at, 'Pod Deleted', pod.uid, object);
  }

  /** Any entry, as given (for events jobfold must refuse). */
  raw(cluster: string, at: number, detailType: string, detail: Record<string, unknown>): void {
    this.entries.push({ at, Source: `jobfold.cluster.${cluster}`, DetailType: detailType, Detail: JSON.stringify(detail) });
  }

  time(at: number): string {
    return new Date(this.#start + at * 1000).toISOString().replace('.000Z', 'Z');
  }

  /** The trace as JSONL, in time order (stable for equal times). */
  jsonl(): string {
    const sorted = this.entries.map((e, i) => ({ e, i })).sort((a, b) => a.e.at - b.e.at || a.i - b.i);
    return sorted.map(({ e }) => traceLine(e)).join('\n') + '\n';
  }

  #podObject(pod: PodRef): Record<string, unknown> {
    const { job } = pod;
    const annotations: Record<string, string> = {};
    if (pod.index !== undefined) annotations[COMPLETION_INDEX] = String(pod.index);
    if (pod.failureCount > 0) annotations[INDEX_FAILURE_COUNT] = String(pod.failureCount);
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: pod.name,
        namespace: job.namespace,
        uid: pod.uid,
        resourceVersion: this.#rv(),
        creationTimestamp: this.time(pod.createdAt),
        labels: { [CONTROLLER_UID_LABEL]: job.uid, [JOB_NAME_LABEL]: job.name },
        annotations,
        ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: job.name, uid: job.uid, controller: true, blockOwnerDeletion: true }],
        finalizers: [TRACKING_FINALIZER],
      },
      spec: { nodeName: `node-${(this.#uids % 3) + 1}`, restartPolicy: 'Never' },
      status: pod.status,
    };
  }

  #record(cluster: string, at: number, detailType: string, uid: string, object: Record<string, unknown>): void {
    const metadata = object['metadata'] as { resourceVersion: string; ownerReferences?: Array<{ uid: string }> };
    const pod = object['kind'] === 'Pod';
    // As the forwarder keys them (forwarder/observation.ts): a pod by its Job's uid, a Job by its own.
    const partitionKey = pod ? (metadata.ownerReferences?.[0]?.uid ?? uid) : uid;
    const sequence = this.#stamp(pod ? 'Pod' : 'Job', uid, pod ? metadata.ownerReferences?.[0]?.uid : undefined, detailType.endsWith('Deleted'));
    this.raw(cluster, at, detailType, {
      eventId: `${uid}/${metadata.resourceVersion}`, observedAt: this.time(at), partitionKey, object, ...(sequence ? { sequence } : {}),
    });
  }

  /** The stamp the forwarder's observer (forwarder/watch/observer.ts) puts on an event it sends: peek, commit, count for the owner. */
  #stamp(kind: 'Pod' | 'Job', uid: string, owner: string | undefined, deleted: boolean): ObjectSequence | undefined {
    const sequencer = this.#sequencer;
    if (sequencer === undefined) return undefined;
    const sequence = sequencer.peek(kind, uid, { owner });
    sequencer.commit(uid, sequence);
    sequencer.sent(kind, uid, owner, sequence);
    // A deleted object is gone for good (the observer's `deleted`).
    if (deleted) sequencer.forget(uid);
    if (deleted && kind === 'Job') sequencer.forgetJob(uid);
    return sequence;
  }

  #rv(): string {
    return String(++this.#resourceVersion);
  }

  #uid(prefix: string): string {
    const n = (++this.#uids).toString(16).padStart(12, '0');
    return `${prefix}1c0de-5a3f-4e7b-${this.#uidSpace}-${n}`;
  }
}
