import type { KubeDeps } from './fleet-reads.ts';
import type { ResourceHandler, Selection } from './handlers.ts';
import type { ObjectSource, Scope } from './list-walk.ts';
import { findResource } from './resources.ts';
import { compact, derivedUid, metaTime } from './objects/meta.ts';
import { versionAt } from './resource-version.ts';
import { matchesFields, matchesLabels } from './selectors.ts';
import { notFound } from './status.ts';
import { namespacePrinter, type NamespaceObject } from './tables.ts';

// Namespaces, as jobfold knows them: every namespace of the cluster that has held a Job or a
// JobSet, created when its first one was. Read from the fleet index (a few hundred bytes per
// object, fleetRows); listed whole (a cluster has far fewer namespaces than Jobs). Watched as the
// other resources are (watch.ts), through the logs that grow: a log's object is its namespace,
// sent once per watch — ADDED when its first Job was created after the watch began, else
// MODIFIED (informers, k9s and Headlamp watch namespaces; a namespace is never deleted here,
// since jobfold keeps what a cluster deleted).

export const namespaceFieldNames: ReadonlySet<string> = new Set(['metadata.name', 'status.phase']);

async function namespacesOf(deps: KubeDeps, cluster: string): Promise<NamespaceObject[]> {
  const created = new Map<string, string>();
  for (const row of await deps.store.fleetRows()) {
    if (row.clusterId !== cluster) continue;
    const known = created.get(row.namespace);
    if (known === undefined || row.createdAt < known) created.set(row.namespace, row.createdAt);
  }
  return [...created.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, createdAt]) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: compact({
      name,
      uid: derivedUid(`namespace/${cluster}/${name}`),
      resourceVersion: versionAt(Date.parse(createdAt) || 0),
      creationTimestamp: metaTime(createdAt),
      labels: { 'kubernetes.io/metadata.name': name },
    }),
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  }));
}

export async function listNamespaces(deps: KubeDeps, cluster: string, selection: Selection): Promise<{ items: NamespaceObject[]; printer: typeof namespacePrinter }> {
  const items = (await namespacesOf(deps, cluster)).filter((ns) =>
    matchesLabels(selection.labels, ns.metadata.labels) && matchesFields(selection.fields, { 'metadata.name': ns.metadata.name, 'status.phase': ns.status.phase }));
  return { items, printer: namespacePrinter };
}

export async function getNamespace(deps: KubeDeps, cluster: string, name: string): Promise<NamespaceObject> {
  const found = (await namespacesOf(deps, cluster)).find((ns) => ns.metadata.name === name);
  if (found === undefined) throw notFound('namespaces', '', name);
  return found;
}

const selectedNamespace = (selection: Selection, ns: NamespaceObject) =>
  matchesLabels(selection.labels, ns.metadata.labels) && matchesFields(selection.fields, { 'metadata.name': ns.metadata.name, 'status.phase': ns.status.phase });

/** The watch's view of namespaces (watch.ts runWatch): each grown log stands for its namespace. */
export const namespaceWatch: ResourceHandler<NamespaceObject> = {
  resource: findResource('', 'v1', 'namespaces')!,
  listKind: 'NamespaceList',
  printer: namespacePrinter,
  fieldNames: namespaceFieldNames,
  fieldsOf: (ns) => ({ 'metadata.name': ns.metadata.name, 'status.phase': ns.status.phase }),
  async source(deps: KubeDeps, scope: Scope, selection: Selection): Promise<ObjectSource<NamespaceObject>> {
    let known = new Map<string, NamespaceObject>();
    return {
      kinds: ['Job', 'JobSet'],
      chunk: () => 100,
      includeSuperseded: true,
      matches: (ns) => selectedNamespace(selection, ns),
      async expand(summary) {
        // Read again only for a namespace not seen yet: its first Job is new to the fleet index.
        if (!known.has(summary.namespace)) known = new Map((await namespacesOf(deps, scope.cluster)).map((ns) => [ns.metadata.name, ns]));
        const ns = known.get(summary.namespace);
        return { head: 0, items: ns === undefined ? [] : [ns] };
      },
    };
  },
  get: (deps, scope, name) => getNamespace(deps, scope.cluster, name),
};
