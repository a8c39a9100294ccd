// The resources this API serves, as discovery describes them: group, version, names, scope and
// verbs. Everything is read only (get, list, watch); writes are answered 405 (status.ts).

export interface ServedResource {
  readonly group: string;
  readonly version: string;
  /** The plural, as in the path. */
  readonly resource: string;
  readonly singular: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly verbs: readonly string[];
  /** Subresources served with GET (`jobs/status`). */
  readonly subresources: readonly string[];
}

const READ = ['get', 'list', 'watch'] as const;

export const RESOURCES: readonly ServedResource[] = [
  { group: '', version: 'v1', resource: 'pods', singular: 'pod', kind: 'Pod', namespaced: true, shortNames: ['po'], categories: ['all'], verbs: READ, subresources: ['status'] },
  { group: '', version: 'v1', resource: 'events', singular: 'event', kind: 'Event', namespaced: true, shortNames: ['ev'], categories: [], verbs: READ, subresources: [] },
  { group: '', version: 'v1', resource: 'namespaces', singular: 'namespace', kind: 'Namespace', namespaced: false, shortNames: ['ns'], categories: [], verbs: READ, subresources: ['status'] },
  { group: 'batch', version: 'v1', resource: 'jobs', singular: 'job', kind: 'Job', namespaced: true, shortNames: [], categories: ['all'], verbs: READ, subresources: ['status'] },
  { group: 'jobset.x-k8s.io', version: 'v1alpha2', resource: 'jobsets', singular: 'jobset', kind: 'JobSet', namespaced: true, shortNames: [], categories: [], verbs: READ, subresources: ['status'] },
];

/** The groups, in the order discovery lists them (the core group first, as /api). */
export const GROUPS: readonly { readonly name: string; readonly version: string }[] = [
  { name: 'batch', version: 'v1' },
  { name: 'jobset.x-k8s.io', version: 'v1alpha2' },
];

export function findResource(group: string, version: string, resource: string): ServedResource | undefined {
  return RESOURCES.find((r) => r.group === group && r.version === version && r.resource === resource);
}

export function resourcesOf(group: string, version: string): ServedResource[] {
  return RESOURCES.filter((r) => r.group === group && r.version === version);
}

export function groupVersion(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}
