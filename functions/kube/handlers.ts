import type { JobSummary, StreamId } from '../../shared/log/event-store.ts';
import { EventBuilder, eventFields, parseEventName, type EventObject } from './objects/event-objects.ts';
import { jobFields, jobObject, type JobObject } from './objects/job-object.ts';
import { jobSetObject, type JobSetObject } from './objects/jobset-object.ts';
import {
  CONTROLLER_UID_LABEL, JOB_NAME_LABEL, LEGACY_CONTROLLER_UID_LABEL, LEGACY_JOB_NAME_LABEL,
} from './objects/meta.ts';
import { PodCollector, podFields, podObject, type PodObject } from './objects/pod-objects.ts';
import { foldJob, foldJobSet, listsSuperseded, objectsAsOf, streamOf, wholeLog, type KubeDeps } from './fleet-reads.ts';
import type { ObjectSource, Scope } from './list-walk.ts';
import { findResource, type ServedResource } from './resources.ts';
import {
  matchesFields, matchesLabels, pinnedField, pinnedLabel, type FieldSelector, type LabelSelector,
} from './selectors.ts';
import { eventPrinter, jobPrinter, jobSetPrinter, podPrinter, type Printer } from './tables.ts';
import { notFound } from './status.ts';

// Per resource: how its objects come out of the logs (an ObjectSource for list-walk.ts), how
// one is found by name, what its field selectors read, and its printer.

export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly resourceVersion: string; readonly labels?: Record<string, string> };
}

export interface Selection {
  readonly labels: LabelSelector;
  readonly fields: FieldSelector;
}

export interface ResourceHandler<T extends KubeObject> {
  readonly resource: ServedResource;
  readonly listKind: string;
  readonly printer: Printer<T>;
  /** Field selectors this resource serves. */
  readonly fieldNames: ReadonlySet<string>;
  fieldsOf(object: T): Record<string, string>;
  source(deps: KubeDeps, scope: Scope, selection: Selection): Promise<ObjectSource<T>>;
  get(deps: KubeDeps, scope: Scope & { namespace: string }, name: string): Promise<T>;
}

const META_FIELDS = ['metadata.name', 'metadata.namespace'];

/** Selected by both the labels and the fields. */
function selected<T extends KubeObject>(handler: { fieldsOf(o: T): Record<string, string> }, selection: Selection, object: T): boolean {
  return matchesLabels(selection.labels, object.metadata.labels) && matchesFields(selection.fields, handler.fieldsOf(object));
}

/**
 * The logs a selection names outright, when it does: `<kind> <name>` in a namespace (the
 * newest of that name), or a uid. Undefined when it names none (the whole scope is walked).
 */
async function named(
  deps: KubeDeps, scope: Scope, kinds: readonly StreamId['kind'][], by: { name?: string; uid?: string },
): Promise<JobSummary[] | undefined> {
  if (scope.namespace === undefined) return undefined;
  const namespace = scope.namespace;
  if (by.uid !== undefined) {
    const uid = by.uid;
    return deps.store.getSummaries(kinds.map((kind) => ({ kind, clusterId: scope.cluster, namespace, uid })));
  }
  if (by.name !== undefined) {
    const name = by.name;
    const found = await Promise.all(kinds.map((kind) => deps.store.findJob({ kind, clusterId: scope.cluster, namespace, name })));
    return found.filter((s): s is JobSummary => s !== undefined);
  }
  return undefined;
}

function uidOf(labels: LabelSelector): string | undefined {
  return pinnedLabel(labels, CONTROLLER_UID_LABEL) ?? pinnedLabel(labels, LEGACY_CONTROLLER_UID_LABEL);
}

/**
 * A resource whose objects are logs of one kind, folded: Jobs, JobSets. A selection names its
 * logs outright by `metadata.name` (the newest of that name) or by what `uidOf` reads from the
 * labels; otherwise the scope is walked.
 */
function foldedResource<T extends KubeObject>(spec: {
  readonly kind: StreamId['kind'];
  readonly resource: ServedResource;
  readonly listKind: string;
  readonly printer: Printer<T>;
  readonly fieldNames: ReadonlySet<string>;
  fieldsOf(object: T): Record<string, string>;
  uidOf?(labels: LabelSelector): string | undefined;
  fold(deps: KubeDeps, summary: JobSummary, superseded: boolean): Promise<{ head: number; object: T }>;
}): ResourceHandler<T> {
  const { kind, resource, fold } = spec;
  const handler: ResourceHandler<T> = {
    resource,
    listKind: spec.listKind,
    printer: spec.printer,
    fieldNames: spec.fieldNames,
    fieldsOf: spec.fieldsOf,
    async source(deps, scope, selection) {
      const includeSuperseded = listsSuperseded(selection.labels);
      const only = await named(deps, scope, [kind], {
        name: includeSuperseded ? undefined : pinnedField(selection.fields, 'metadata.name'), uid: spec.uidOf?.(selection.labels),
      });
      return {
        kinds: [kind],
        chunk: (remaining) => Math.min(500, remaining + 1),
        includeSuperseded,
        ...(only === undefined ? {} : { only }),
        async expand(summary, superseded) {
          const { head, object } = await fold(deps, summary, superseded);
          return { head, items: [object] };
        },
        matches: (object) => selected(handler, selection, object),
      };
    },
    async get(deps, scope, name) {
      const summary = await deps.store.findJob({ kind, clusterId: scope.cluster, namespace: scope.namespace, name });
      if (summary === undefined) throw notFound(resource.resource, resource.group, name);
      return (await fold(deps, summary, false)).object;
    },
  };
  return handler;
}

export const jobs: ResourceHandler<JobObject> = foldedResource({
  kind: 'Job',
  resource: findResource('batch', 'v1', 'jobs') as ServedResource,
  listKind: 'JobList',
  printer: jobPrinter,
  fieldNames: new Set([...META_FIELDS, 'status.successful']),
  fieldsOf: jobFields,
  uidOf,
  async fold(deps, summary, superseded) {
    const job = await foldJob(deps, summary, superseded);
    return { head: job.head, object: jobObject(job) };
  },
});

export const jobSets: ResourceHandler<JobSetObject> = foldedResource({
  kind: 'JobSet',
  resource: findResource('jobset.x-k8s.io', 'v1alpha2', 'jobsets') as ServedResource,
  listKind: 'JobSetList',
  printer: jobSetPrinter,
  fieldNames: new Set(META_FIELDS),
  fieldsOf: (o) => ({ 'metadata.name': o.metadata.name, 'metadata.namespace': o.metadata.namespace }),
  async fold(deps, summary, superseded) {
    const jobSet = await foldJobSet(deps, summary, superseded);
    return { head: jobSet.head, object: jobSetObject(jobSet) };
  },
});

/** A Job's pods as of `pinnedHead` (its head when undefined), with the Job they belong to. */
async function podsOf(deps: KubeDeps, summary: JobSummary, superseded: boolean, pinnedHead: number | undefined): Promise<{ head: number; items: readonly PodObject[] }> {
  const stream = streamOf(summary);
  return objectsAsOf(deps, stream, superseded ? 'pods-superseded' : 'pods', pinnedHead, async () => {
    const job = await foldJob(deps, summary, superseded);
    const head = pinnedHead === undefined ? job.head : Math.min(pinnedHead, job.head);
    const collector = new PodCollector();
    for (const entry of await wholeLog(deps, stream, head)) collector.add(entry);
    const object = jobObject(job);
    return { head, items: collector.pods().map((sighting) => podObject(sighting, object)) };
  });
}

export const pods: ResourceHandler<PodObject> = {
  resource: findResource('', 'v1', 'pods') as ServedResource,
  listKind: 'PodList',
  printer: podPrinter,
  fieldNames: new Set([...META_FIELDS, 'spec.nodeName', 'spec.restartPolicy', 'status.phase']),
  fieldsOf: podFields,
  async source(deps, scope, selection) {
    const includeSuperseded = listsSuperseded(selection.labels);
    const jobName = pinnedLabel(selection.labels, JOB_NAME_LABEL) ?? pinnedLabel(selection.labels, LEGACY_JOB_NAME_LABEL);
    const only = await named(deps, scope, ['Job'], { ...(includeSuperseded ? {} : { name: jobName }), uid: uidOf(selection.labels) });
    return {
      kinds: ['Job'],
      chunk: () => 8,
      includeSuperseded,
      ...(only === undefined ? {} : { only }),
      expand: (summary, superseded, pinnedHead) => podsOf(deps, summary, superseded, pinnedHead),
      matches: (pod) => selected(pods, selection, pod),
    };
  },
  async get(deps, scope, name) {
    // A Job's pods are named after it (`<job>-<suffix>`, `<job>-<index>-<suffix>`): the Jobs
    // whose names the pod's starts with are the candidates, longest first.
    const parts = name.split('-');
    for (let n = parts.length - 1; n >= 1; n--) {
      const jobName = parts.slice(0, n).join('-');
      const summary = await deps.store.findJob({ kind: 'Job', clusterId: scope.cluster, namespace: scope.namespace, name: jobName });
      if (summary === undefined) continue;
      const found = (await podsOf(deps, summary, false, undefined)).items.find((pod) => pod.metadata.name === name);
      if (found !== undefined) return found;
    }
    throw notFound('pods', '', name);
  },
};

/** The Events of a Job's or JobSet's log, as of `pinnedHead`. */
async function eventsOf(deps: KubeDeps, summary: JobSummary, superseded: boolean, pinnedHead: number | undefined): Promise<{ head: number; items: readonly EventObject[] }> {
  const stream = streamOf(summary);
  return objectsAsOf(deps, stream, 'events', pinnedHead, async () => {
    const involved = { kind: summary.kind, namespace: summary.namespace, name: summary.name, uid: summary.uid };
    const folded = summary.kind === 'Job' ? await foldJob(deps, summary, superseded) : await foldJobSet(deps, summary, superseded);
    const head = pinnedHead === undefined ? folded.head : Math.min(pinnedHead, folded.head);
    const builder = new EventBuilder(involved, summary.kind === 'Job' ? { job: (folded as Awaited<ReturnType<typeof foldJob>>).state } : { jobSet: (folded as Awaited<ReturnType<typeof foldJobSet>>).state });
    const events: EventObject[] = [];
    for (const entry of await wholeLog(deps, stream, head)) events.push(...builder.eventsOf(entry));
    return { head, items: events };
  });
}

export const events: ResourceHandler<EventObject> = {
  resource: findResource('', 'v1', 'events') as ServedResource,
  listKind: 'EventList',
  printer: eventPrinter,
  fieldNames: new Set([
    ...META_FIELDS, 'involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid',
    'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type',
  ]),
  fieldsOf: eventFields,
  async source(deps, scope, selection) {
    const kind = pinnedField(selection.fields, 'involvedObject.kind');
    const kinds: StreamId['kind'][] = kind === 'Job' ? ['Job'] : kind === 'JobSet' ? ['JobSet'] : kind === undefined ? ['Job', 'JobSet'] : [];
    const namespace = pinnedField(selection.fields, 'involvedObject.namespace') ?? scope.namespace;
    const narrowed = { ...scope, namespace };
    const only = await named(deps, narrowed, kinds, {
      name: pinnedField(selection.fields, 'involvedObject.name'), uid: pinnedField(selection.fields, 'involvedObject.uid'),
    });
    return {
      kinds,
      chunk: () => 8,
      // Events are a log, not objects of a name: an older Job's stay listed.
      includeSuperseded: true,
      ...(only === undefined ? {} : { only }),
      expand: (summary, superseded, pinnedHead) => eventsOf(deps, summary, superseded, pinnedHead),
      matches: (event) => selected(events, selection, event),
    };
  },
  async get(deps, scope, name) {
    const parsed = parseEventName(name);
    if (parsed !== undefined) {
      for (const kind of ['Job', 'JobSet'] as const) {
        const summary = await deps.store.findJob({ kind, clusterId: scope.cluster, namespace: scope.namespace, name: parsed.objectName });
        if (summary === undefined) continue;
        const found = (await eventsOf(deps, summary, false, undefined)).items.find((e) => e.metadata.name === name);
        if (found !== undefined) return found;
      }
    }
    throw notFound('events', '', name);
  },
};

export const HANDLERS: readonly ResourceHandler<KubeObject>[] = [jobs, jobSets, pods, events] as unknown as ResourceHandler<KubeObject>[];

export function handlerFor(resource: ServedResource): ResourceHandler<KubeObject> | undefined {
  return HANDLERS.find((h) => h.resource === resource);
}

