import { ageOf } from '../../shared/k8s/human-duration.ts';
import { humanDuration } from '../../shared/k8s/human-duration.ts';
import type { EventObject } from './objects/event-objects.ts';
import type { JobObject } from './objects/job-object.ts';
import type { JobSetObject } from './objects/jobset-object.ts';
import type { PodObject } from './objects/pod-objects.ts';

// Server-side printing: `Accept: application/json;as=Table;v=v1;g=meta.k8s.io` answered with
// a meta.k8s.io/v1 Table, the printer columns of upstream's printers
// (pkg/printers/internalversion/printers.go) and, for JobSets, the CRD's additionalPrinterColumns.
// As the API server does, every column is filled (Wide); kubectl shows priority 1 with -o wide.

export interface ColumnDefinition {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
}

export interface TableRow {
  readonly cells: readonly unknown[];
  readonly conditions?: readonly { type: string; status: string; reason?: string; message?: string }[];
  readonly object?: unknown;
}

/** What a resource's Table is built from. */
export interface Printer<T> {
  readonly columns: readonly ColumnDefinition[];
  row(object: T, nowMs: number): Omit<TableRow, 'object'>;
}

const NAME_DOC = 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const AGE_DOC = 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

const column = (name: string, type: string, description: string, priority = 0, format = ''): ColumnDefinition =>
  ({ name, type, format, description, priority });

const nameColumn = column('Name', 'string', NAME_DOC, 0, 'name');
const ageColumn = column('Age', 'string', AGE_DOC);

export const jobPrinter: Printer<JobObject> = {
  columns: [
    nameColumn,
    column('Status', 'string', 'Status of the job.'),
    column('Completions', 'string', 'The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.'),
    column('Duration', 'string', 'Time required to complete the job.'),
    ageColumn,
    column('Containers', 'string', 'Names of each container in the template.', 1),
    column('Images', 'string', 'Images referenced by each container in the template.', 1),
    column('Selector', 'string', 'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors', 1),
  ],
  row(job, nowMs) {
    const spec = job.spec as { completions?: number; parallelism?: number; selector?: LabelSelectorJson; template?: { spec?: { containers?: Container[] } } };
    const status = job.status as { succeeded?: number; startTime?: string; completionTime?: string; conditions?: { type: string; status: string }[] };
    const succeeded = status.succeeded ?? 0;
    const parallelism = spec.parallelism ?? 0;
    const completions = spec.completions !== undefined
      ? `${succeeded}/${spec.completions}`
      : parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
    let duration = '';
    if (status.startTime !== undefined) {
      const start = Date.parse(status.startTime);
      duration = humanDuration((status.completionTime === undefined ? nowMs : Date.parse(status.completionTime)) - start);
    }
    const has = (type: string) => (status.conditions ?? []).some((c) => c.type === type && c.status === 'True');
    const state = has('Complete') ? 'Complete'
      : has('Failed') ? 'Failed'
      : job.metadata['deletionTimestamp'] !== undefined ? 'Terminating'
      : has('Suspended') ? 'Suspended'
      : has('FailureTarget') ? 'FailureTarget'
      : has('SuccessCriteriaMet') ? 'SuccessCriteriaMet'
      : 'Running';
    const [names, images] = containerCells(spec.template?.spec?.containers ?? []);
    return {
      cells: [job.metadata.name, state, completions, duration, ageOf(job.metadata['creationTimestamp'] as string | undefined, nowMs), names, images, formatSelector(spec.selector)],
    };
  },
};

interface Container {
  readonly name?: string;
  readonly image?: string;
}

interface LabelSelectorJson {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly { key: string; operator: string; values?: readonly string[] }[];
}

/** upstream layoutContainerCells: names and images, comma-separated. */
function containerCells(containers: readonly Container[]): [string, string] {
  return [containers.map((c) => c.name ?? '').join(','), containers.map((c) => c.image ?? '').join(',')];
}

/** metav1.FormatLabelSelector: requirements sorted by key, "<none>" when empty. */
function formatSelector(selector: LabelSelectorJson | undefined): string {
  if (selector === undefined) return '<none>';
  const requirements: [string, string][] = Object.entries(selector.matchLabels ?? {}).map(([k, v]) => [k, `${k}=${v}`]);
  for (const e of selector.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort().join(',');
    const text = e.operator === 'In' ? `${e.key} in (${values})`
      : e.operator === 'NotIn' ? `${e.key} notin (${values})`
      : e.operator === 'Exists' ? e.key
      : e.operator === 'DoesNotExist' ? `!${e.key}` : `${e.key} ${e.operator} (${values})`;
    requirements.push([e.key, text]);
  }
  if (requirements.length === 0) return '<none>';
  return requirements.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, text]) => text).join(',');
}

interface ContainerState {
  readonly terminated?: { exitCode: number; reason?: string; signal?: number };
  readonly running?: object;
  readonly waiting?: { reason?: string };
}

interface ContainerStatus {
  readonly name: string;
  readonly restartCount?: number;
  readonly ready?: boolean;
  readonly state?: ContainerState;
}

const POD_SUCCEEDED_ROW = { type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' };
const POD_FAILED_ROW = { type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' };

export const podPrinter: Printer<PodObject> = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'string', 'The aggregate status of the containers in this pod.'),
    column('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
    ageColumn,
    column('IP', 'string', 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', 1),
    column('Node', 'string', 'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename', 1),
    column('Nominated Node', 'string', 'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot schedule right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.', 1),
    column('Readiness Gates', 'string', 'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates', 1),
  ],
  row(pod, nowMs) {
    const spec = pod.spec as { containers?: unknown[]; initContainers?: { name: string; restartPolicy?: string }[]; nodeName?: string };
    const status = pod.status as {
      phase?: string; reason?: string; conditions?: { type: string; status: string; reason?: string }[];
      containerStatuses?: ContainerStatus[]; initContainerStatuses?: ContainerStatus[]; podIP?: string; nominatedNodeName?: string;
    };
    const phase = status.phase ?? '';
    let reason = status.reason !== undefined && status.reason !== '' ? status.reason : phase;
    for (const c of status.conditions ?? []) if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
    const sidecars = new Set((spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
    let total = (spec.containers ?? []).length + sidecars.size;
    if ((spec.containers ?? []).length === 0) total = (status.containerStatuses ?? []).length + sidecars.size;
    let ready = 0;
    let restarts = 0;
    let sidecarRestarts = 0;
    let initializing = false;
    const inits = status.initContainerStatuses ?? [];
    for (const [i, c] of inits.entries()) {
      restarts += c.restartCount ?? 0;
      if (sidecars.has(c.name)) sidecarRestarts += c.restartCount ?? 0;
      const terminated = c.state?.terminated;
      if (terminated !== undefined && terminated.exitCode === 0) continue;
      if (sidecars.has(c.name) && c.state?.running !== undefined) {
        if (c.ready === true) ready++;
        continue;
      }
      if (terminated !== undefined) {
        reason = terminated.reason !== undefined && terminated.reason !== ''
          ? `Init:${terminated.reason}`
          : terminated.signal ? `Init:Signal:${terminated.signal}` : `Init:ExitCode:${terminated.exitCode}`;
      } else if (c.state?.waiting?.reason !== undefined && c.state.waiting.reason !== '' && c.state.waiting.reason !== 'PodInitializing') {
        reason = `Init:${c.state.waiting.reason}`;
      } else {
        reason = `Init:${i}/${(spec.initContainers ?? []).length || inits.length}`;
      }
      initializing = true;
      break;
    }
    const initialized = (status.conditions ?? []).some((c) => c.type === 'Initialized' && c.status === 'True');
    if (!initializing || initialized) {
      restarts = sidecarRestarts;
      let hasRunning = false;
      const containers = status.containerStatuses ?? [];
      for (let i = containers.length - 1; i >= 0; i--) {
        const c = containers[i] as ContainerStatus;
        restarts += c.restartCount ?? 0;
        const state = c.state ?? {};
        if (state.waiting?.reason !== undefined && state.waiting.reason !== '') reason = state.waiting.reason;
        else if (state.terminated?.reason !== undefined && state.terminated.reason !== '') reason = state.terminated.reason;
        else if (state.terminated !== undefined) reason = state.terminated.signal ? `Signal:${state.terminated.signal}` : `ExitCode:${state.terminated.exitCode}`;
        else if (c.ready === true && state.running !== undefined) {
          hasRunning = true;
          ready++;
        }
      }
      if (reason === 'Completed' && hasRunning) {
        reason = (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
      }
    }
    const deleting = pod.metadata['deletionTimestamp'] !== undefined;
    if (deleting && status.reason === 'NodeLost') reason = 'Unknown';
    else if (deleting && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';
    const conditions = phase === 'Succeeded' ? [POD_SUCCEEDED_ROW] : phase === 'Failed' ? [POD_FAILED_ROW] : undefined;
    return {
      cells: [
        pod.metadata.name, `${ready}/${total}`, reason, String(restarts), ageOf(pod.metadata['creationTimestamp'] as string | undefined, nowMs),
        status.podIP || '<none>', spec.nodeName || '<none>', status.nominatedNodeName || '<none>', '<none>',
      ],
      ...(conditions === undefined ? {} : { conditions }),
    };
  },
};

export const eventPrinter: Printer<EventObject> = {
  columns: [
    column('Last Seen', 'string', 'The time at which the most recent occurrence of this event was recorded.'),
    column('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future'),
    column('Reason', 'string', 'This should be a short, machine understandable string that gives the reason for the transition into the object\'s current status.'),
    column('Object', 'string', 'The object that this event is about.'),
    column('Subobject', 'string', 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.', 1),
    column('Source', 'string', 'The component reporting this event. Should be a short machine understandable string.', 1),
    column('Message', 'string', 'A human-readable description of the status of this operation.'),
    column('First Seen', 'string', 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)', 1),
    column('Count', 'string', 'The number of times this event has occurred.', 1),
    column('Name', 'string', NAME_DOC, 1, 'name'),
  ],
  row(event, nowMs) {
    const first = ageOf(event.firstTimestamp, nowMs);
    const last = event.lastTimestamp === undefined ? first : ageOf(event.lastTimestamp, nowMs);
    const o = event.involvedObject;
    return {
      cells: [last, event.type, event.reason, `${o.kind.toLowerCase()}/${o.name}`, '', event.source.component, event.message.trim(), first, event.count, event.metadata.name],
    };
  },
};

export const jobSetPrinter: Printer<JobSetObject> = {
  columns: [
    nameColumn,
    column('TerminalState', 'string', 'Final state of JobSet'),
    column('Restarts', 'string', 'Number of restarts'),
    column('Completed', 'string', ''),
    column('Suspended', 'string', 'JobSet suspended'),
    column('Age', 'date', 'Time this JobSet was created'),
  ],
  row(jobSet, nowMs) {
    const status = jobSet.status as { terminalState?: string; restarts?: number; conditions?: { type: string; status: string }[] };
    const completed = (status.conditions ?? []).find((c) => c.type === 'Completed')?.status;
    return {
      cells: [
        jobSet.metadata.name, status.terminalState ?? null, status.restarts ?? null, completed ?? null,
        (jobSet.spec as { suspend?: boolean }).suspend ?? null, ageOf(jobSet.metadata['creationTimestamp'] as string | undefined, nowMs),
      ],
    };
  },
};

export interface NamespaceObject {
  readonly apiVersion: 'v1';
  readonly kind: 'Namespace';
  readonly metadata: { name: string; uid: string; resourceVersion: string; creationTimestamp?: string; labels: Record<string, string> };
  readonly spec: { finalizers: string[] };
  readonly status: { phase: 'Active' };
}

export const namespacePrinter: Printer<NamespaceObject> = {
  columns: [nameColumn, column('Status', 'string', 'The status of the namespace'), ageColumn],
  row(namespace, nowMs) {
    return { cells: [namespace.metadata.name, namespace.status.phase, ageOf(namespace.metadata.creationTimestamp, nowMs)] };
  },
};

/** How much of each row's object a Table carries (`includeObject`). */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function tableOf<T extends { apiVersion: string; kind: string; metadata: object }>(
  printer: Printer<T>, objects: readonly T[], include: IncludeObject, listMeta: Record<string, string>, nowMs: number,
): unknown {
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta,
    columnDefinitions: printer.columns,
    rows: objects.map((object) => ({ ...printer.row(object, nowMs), ...rowObject(object, include) })),
  };
}

function rowObject(object: { apiVersion: string; kind: string; metadata: object }, include: IncludeObject): { object?: unknown } {
  if (include === 'None') return {};
  if (include === 'Object') return { object };
  return { object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata } };
}
