import { ClusterIdSchema } from '../../shared/job/index.ts';
import { badRequest, pathNotFound } from './status.ts';

// What a request under /k8s/clusters/{cluster} asks for, as the API server's RequestInfoFactory
// reads a path: discovery documents, or a resource (group, version, resource, namespace,
// name, subresource). The path prefix is what client-go's kubeconfig `server:` carries.

export const KUBE_PREFIX = '/k8s/clusters/';

/** An HTTP request as the kube API sees it: the raw query string, headers lower-cased. */
export interface KubeRequest {
  readonly method: string;
  readonly path: string;
  readonly rawQuery: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The body of a POST (a review, access-review.ts); undefined when the home read none. */
  readonly body?: Uint8Array;
}

export type Target =
  | { readonly kind: 'root' }
  | { readonly kind: 'version' }
  | { readonly kind: 'health' }
  | { readonly kind: 'api' }
  | { readonly kind: 'apis' }
  | { readonly kind: 'group'; readonly group: string }
  | { readonly kind: 'groupVersion'; readonly group: string; readonly version: string }
  | ResourceTarget;

export interface ResourceTarget {
  readonly kind: 'resource';
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly subresource?: string;
}

export interface ParsedPath {
  readonly cluster: string;
  readonly target: Target;
}

/** Longest path accepted; longer ones are refused before they are looked at. */
const MAX_PATH_BYTES = 2048;

export function parsePath(path: string): ParsedPath {
  if (path.length > MAX_PATH_BYTES) throw badRequest(`the request path is longer than ${MAX_PATH_BYTES} characters`);
  if (!path.startsWith(KUBE_PREFIX)) throw pathNotFound(path);
  const parts = path.slice(KUBE_PREFIX.length).split('/');
  const [rawCluster = '', ...rest] = parts;
  const segments = rest.filter((s, i) => s !== '' || i < rest.length - 1).map((s) => decodeSegment(s, path));
  if (segments.some((s) => s === '')) throw pathNotFound(path);
  const cluster = decodeSegment(rawCluster, path);
  if (!ClusterIdSchema.safeParse(cluster).success) {
    throw badRequest(`cluster "${cluster}" is not a cluster id (a DNS label: lowercase letters, digits, "-")`, 'path.cluster');
  }
  return { cluster, target: targetOf(segments, path) };
}

function targetOf(s: readonly string[], path: string): Target {
  if (s.length === 0) return { kind: 'root' };
  if (s[0] === 'version' && s.length === 1) return { kind: 'version' };
  if ((s[0] === 'healthz' || s[0] === 'livez' || s[0] === 'readyz') && s.length === 1) return { kind: 'health' };
  if (s[0] === 'api') {
    if (s.length === 1) return { kind: 'api' };
    if (s[1] !== 'v1') throw pathNotFound(path);
    if (s.length === 2) return { kind: 'groupVersion', group: '', version: 'v1' };
    return resourceOf('', 'v1', s.slice(2), path);
  }
  if (s[0] === 'apis') {
    if (s.length === 1) return { kind: 'apis' };
    const group = s[1] as string;
    if (s.length === 2) return { kind: 'group', group };
    const version = s[2] as string;
    if (s.length === 3) return { kind: 'groupVersion', group, version };
    return resourceOf(group, version, s.slice(3), path);
  }
  throw pathNotFound(path);
}

/**
 * `{resource}[/{name}[/{sub}]]` or `namespaces/{ns}/{resource}[/{name}[/{sub}]]`; `namespaces`
 * and `namespaces/{name}` name the namespaces themselves.
 */
function resourceOf(group: string, version: string, s: readonly string[], path: string): ResourceTarget {
  const base = { kind: 'resource' as const, group, version };
  if (s[0] === 'namespaces' && s.length >= 3) {
    const [, namespace, resource, name, subresource, ...extra] = s as string[];
    if (extra.length > 0) throw pathNotFound(path);
    return { ...base, namespace, resource: resource as string, ...(name === undefined ? {} : { name }), ...(subresource === undefined ? {} : { subresource }) };
  }
  const [resource, name, subresource, ...extra] = s as string[];
  if (extra.length > 0) throw pathNotFound(path);
  return { ...base, resource: resource as string, ...(name === undefined ? {} : { name }), ...(subresource === undefined ? {} : { subresource }) };
}

function decodeSegment(segment: string, path: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`the request path ${JSON.stringify(path)} has a malformed percent escape`);
  }
}

/** Longest query string accepted. */
const MAX_QUERY_BYTES = 16 * 1024;

/**
 * The query parameters, each once: a malformed percent escape or a repeated parameter is a 400
 * naming it, so a route never reads a different value than the client sent.
 */
export function parseQuery(rawQuery: string): ReadonlyMap<string, string> {
  if (rawQuery.length > MAX_QUERY_BYTES) throw badRequest(`the query string is longer than ${MAX_QUERY_BYTES} characters`);
  const params = new Map<string, string>();
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const rawName = at < 0 ? pair : pair.slice(0, at);
    const rawValue = at < 0 ? '' : pair.slice(at + 1);
    const name = decodeQueryPart(rawName);
    const value = decodeQueryPart(rawValue);
    if (name === undefined || value === undefined) throw badRequest(`query parameter ${JSON.stringify(name ?? rawName)} is not valid percent-encoded UTF-8`, name ?? rawName);
    if (params.has(name)) throw badRequest(`query parameter ${JSON.stringify(name)} is given more than once`, name);
    params.set(name, value);
  }
  return params;
}

function decodeQueryPart(part: string): string | undefined {
  try {
    const decoded = decodeURIComponent(part.replace(/\+/g, ' '));
    return decoded.isWellFormed() ? decoded : undefined;
  } catch {
    return undefined;
  }
}
