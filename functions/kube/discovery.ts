import { createHash } from 'node:crypto';
import { GROUPS, groupVersion, resourcesOf, type ServedResource } from './resources.ts';
import { pathNotFound } from './status.ts';

// Discovery, as the API server answers it: /version, /api (APIVersions), /api/v1 and
// /apis/{group}/{version} (APIResourceList), /apis (APIGroupList), /apis/{group} (APIGroup),
// and aggregated discovery (apidiscovery.k8s.io/v2 APIGroupDiscoveryList) for /api and /apis
// when the client asks for it in Accept, as kubectl does: one request instead of one per group.

/** The Kubernetes version jobfold speaks; kubectl warns when its own is more than one minor away. */
export const SERVED_KUBERNETES = { major: '1', minor: '35' } as const;

export function versionInfo(jobfoldVersion: string): unknown {
  return {
    major: SERVED_KUBERNETES.major,
    minor: SERVED_KUBERNETES.minor,
    emulationMajor: SERVED_KUBERNETES.major,
    emulationMinor: SERVED_KUBERNETES.minor,
    minCompatibilityMajor: SERVED_KUBERNETES.major,
    minCompatibilityMinor: String(Number(SERVED_KUBERNETES.minor) - 1),
    gitVersion: `v${SERVED_KUBERNETES.major}.${SERVED_KUBERNETES.minor}.0+jobfold.${jobfoldVersion}`,
    gitCommit: '',
    gitTreeState: 'clean',
    buildDate: '',
    goVersion: '',
    compiler: 'jobfold',
    platform: 'jobfold/read-only',
  };
}

/** The paths this server has, as the API server lists them at its root. */
export function rootPaths(): unknown {
  const paths = ['/api', '/api/v1', '/apis', '/healthz', '/livez', '/readyz', '/version'];
  for (const { name, version } of GROUPS) paths.push(`/apis/${name}`, `/apis/${name}/${version}`);
  return { paths: paths.sort() };
}

export function apiVersions(serverAddress: string): unknown {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function groupOf(name: string, version: string) {
  const gv = { groupVersion: groupVersion(name, version), version };
  return { name, versions: [gv], preferredVersion: gv };
}

export function apiGroupList(): unknown {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: GROUPS.map(({ name, version }) => groupOf(name, version)) };
}

export function apiGroup(group: string, path: string): unknown {
  const found = GROUPS.find((g) => g.name === group);
  if (found === undefined) throw pathNotFound(path);
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupOf(found.name, found.version) };
}

export function apiResourceList(group: string, version: string, path: string): unknown {
  const resources = resourcesOf(group, version);
  if (resources.length === 0) throw pathNotFound(path);
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: groupVersion(group, version),
    resources: resources.flatMap((r) => [
      {
        name: r.resource, singularName: r.singular, namespaced: r.namespaced, kind: r.kind, verbs: r.verbs,
        ...(r.shortNames.length > 0 ? { shortNames: r.shortNames } : {}),
        ...(r.categories.length > 0 ? { categories: r.categories } : {}),
        storageVersionHash: storageVersionHash(r),
      },
      ...r.subresources.map((sub) => ({ name: `${r.resource}/${sub}`, singularName: '', namespaced: r.namespaced, kind: r.kind, verbs: ['get'] })),
    ]),
  };
}

/** The content type of aggregated discovery, as clients ask for it in Accept. */
export const AGGREGATED_DISCOVERY_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** /api (the core group) or /apis (the named groups) as one APIGroupDiscoveryList. */
export function aggregatedDiscovery(core: boolean): unknown {
  const groups = core ? [{ name: '', version: 'v1' }] : GROUPS;
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: groups.map(({ name, version }) => ({
      metadata: { name, creationTimestamp: null },
      versions: [{
        version,
        resources: resourcesOf(name, version).map((r) => ({
          resource: r.resource,
          responseKind: { group: r.group, version: r.version, kind: r.kind },
          scope: r.namespaced ? 'Namespaced' : 'Cluster',
          singularResource: r.singular,
          verbs: r.verbs,
          ...(r.shortNames.length > 0 ? { shortNames: r.shortNames } : {}),
          ...(r.categories.length > 0 ? { categories: r.categories } : {}),
          ...(r.subresources.length > 0 ? {
            subresources: r.subresources.map((subresource) => ({
              subresource, responseKind: { group: r.group, version: r.version, kind: r.kind }, verbs: ['get'],
            })),
          } : {}),
        })),
        freshness: 'Current',
      }],
    })),
  };
}

// Clients only compare it for change; derived from what the resource is.
function storageVersionHash(r: ServedResource): string {
  return createHash('sha256').update(`${r.group}/${r.version}/${r.kind}`).digest('base64').slice(0, 11);
}
