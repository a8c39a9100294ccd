import { answerReview, AUTHORIZATION_GROUP, REVIEW_RESOURCES, type ReviewResource } from './access-review.ts';
import type { KubeDeps } from './fleet-reads.ts';
import {
  AGGREGATED_DISCOVERY_TYPE, aggregatedDiscovery, apiGroup, apiGroupList, apiResourceList, apiVersions, rootPaths, versionInfo,
} from './discovery.ts';
import { handlerFor, type KubeObject, type ResourceHandler, type Selection } from './handlers.ts';
import { walkPage } from './list-walk.ts';
import { getNamespace, listNamespaces, namespaceFieldNames, namespaceWatch } from './namespaces.ts';
import { negotiate, type Representation } from './negotiate.ts';
import { parsePath, parseQuery, type KubeRequest, type ResourceTarget } from './request.ts';
import { findResource, groupVersion } from './resources.ts';
import { checkListVersion, versionAt, watchStartMs } from './resource-version.ts';
import { parseFieldSelector, parseLabelSelector } from './selectors.ts';
import { badRequest, KubeError, onlyInCluster, pathNotFound, readOnly, type Status } from './status.ts';
import { namespacePrinter, tableOf, type IncludeObject } from './tables.ts';
import { initialObjects, InitialEventsTooMany, runWatch, type WatchPlan } from './watch.ts';
import type { WatchSink } from '../../shared/ports.ts';

// The Kubernetes-compatible read API under /k8s/clusters/{cluster}: discovery, get, list and
// watch of Jobs, JobSets, pods, events and namespaces, as the API server answers them (Status
// errors, Tables, limit/continue, selectors, resourceVersion, watch with bookmarks). One
// function for both homes: the Lambda behind API Gateway (lambda-handler.ts, watch buffered)
// and the local server (local/http, watch streamed).

/** What differs between the homes of this API. */
export interface ServeLimits {
  /** Longest a watch lasts: API Gateway's 29 s less a margin in AWS, 30 minutes locally. */
  readonly maxWatchMs: number;
  /** Largest list body: Lambda's 6 MB response less a margin in AWS. */
  readonly maxResponseBytes: number;
  /** Objects a watch may send before its first change (RV "0", sendInitialEvents), and an unpaged list may hold. */
  readonly maxInitialEvents: number;
  /** How far back a watch may resume (resource-version.ts WATCH_WINDOW_MS). */
  readonly watchWindowMs: number;
}

export type KubeResponse =
  | { readonly status: number; readonly headers: Record<string, string>; readonly body: string }
  | { readonly status: 200; readonly headers: Record<string, string>; readonly watch: (sink: WatchSink) => Promise<void> };

const JSON_TYPE = 'application/json';
const TABLE_TYPE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

export async function serveKube(request: KubeRequest, deps: KubeDeps, limits: ServeLimits): Promise<KubeResponse> {
  try {
    return await serve(request, deps, limits);
  } catch (error) {
    if (error instanceof KubeError) return statusResponse(error.status, error.headers);
    throw error;
  }
}

export function statusResponse(status: Status, headers: Record<string, string> = {}): KubeResponse {
  return { status: status.code, headers: { 'content-type': JSON_TYPE, ...headers }, body: JSON.stringify(status) };
}

function ok(body: unknown, contentType = JSON_TYPE): KubeResponse {
  return { status: 200, headers: { 'content-type': contentType }, body: JSON.stringify(body) };
}

async function serve(request: KubeRequest, deps: KubeDeps, limits: ServeLimits): Promise<KubeResponse> {
  const { cluster, target } = parsePath(request.path);
  const reading = request.method === 'GET' || request.method === 'HEAD';
  if (target.kind === 'resource') {
    const review = reviewOf(target);
    if (review !== undefined) {
      if (request.method !== 'POST') throw new KubeError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource (${request.method} ${review}): a review is created (POST), never read`, {}, { allow: 'POST' });
      const answer = answerReview(review, request.headers['content-type'], request.body, cluster);
      return { status: answer.code, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(answer.body) };
    }
    const inCluster = onlyInClusterSubresource(target);
    if (inCluster !== undefined) throw onlyInCluster(inCluster, `${request.method} ${describeTarget(target)}`, cluster);
    if (!reading) throw readOnly(request.method, describeTarget(target), cluster);
    return serveResource(request, deps, limits, cluster, target);
  }
  if (!reading) throw new KubeError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource (${request.method} ${request.path}): jobfold is read-only`, {}, { allow: 'GET' });
  const accept = request.headers['accept'];
  switch (target.kind) {
    case 'root': return ok(rootPaths());
    case 'version': return ok(versionInfo(deps.jobfoldVersion));
    // As the API server answers a probe (`kubectl get --raw /readyz`): this API answers, so it is up.
    case 'health': return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }, body: 'ok' };
    case 'api': return negotiate(accept, ['discovery-v2', 'json']) === 'discovery-v2'
      ? ok(aggregatedDiscovery(true), AGGREGATED_DISCOVERY_TYPE)
      : ok(apiVersions(request.headers['host'] ?? ''));
    case 'apis': return negotiate(accept, ['discovery-v2', 'json']) === 'discovery-v2'
      ? ok(aggregatedDiscovery(false), AGGREGATED_DISCOVERY_TYPE)
      : ok(apiGroupList());
    case 'group': return ok(apiGroup(target.group, request.path));
    case 'groupVersion': return ok(apiResourceList(target.group, target.version, request.path));
  }
}

/** `kubectl auth can-i`'s SelfSubjectAccessReview and SelfSubjectRulesReview (access-review.ts), cluster-scoped. */
function reviewOf(t: ResourceTarget): ReviewResource | undefined {
  if (t.group !== AUTHORIZATION_GROUP || t.version !== 'v1' || t.namespace !== undefined || t.name !== undefined) return undefined;
  return (REVIEW_RESOURCES as readonly string[]).includes(t.resource) ? (t.resource as ReviewResource) : undefined;
}

/** A pod's subresource that only its cluster has (status.ts onlyInCluster); kubectl exec asks with POST or a GET upgrade. */
function onlyInClusterSubresource(t: ResourceTarget): 'log' | 'exec' | 'attach' | 'portforward' | undefined {
  if (t.group !== '' || t.resource !== 'pods' || t.name === undefined) return undefined;
  const sub = t.subresource;
  return sub === 'log' || sub === 'exec' || sub === 'attach' || sub === 'portforward' ? sub : undefined;
}

function describeTarget(t: ResourceTarget): string {
  const gv = groupVersion(t.group, t.version);
  const where = t.namespace === undefined ? '' : ` in namespace ${t.namespace}`;
  return `${t.resource}${t.subresource ? `/${t.subresource}` : ''}${t.name === undefined ? '' : ` "${t.name}"`} (${gv})${where}`;
}

async function serveResource(request: KubeRequest, deps: KubeDeps, limits: ServeLimits, cluster: string, target: ResourceTarget): Promise<KubeResponse> {
  const resource = findResource(target.group, target.version, target.resource);
  if (resource === undefined) throw pathNotFound(request.path);
  if (target.subresource !== undefined && !resource.subresources.includes(target.subresource)) throw pathNotFound(request.path);
  if (target.subresource !== undefined && target.name === undefined) throw pathNotFound(request.path);
  if (!resource.namespaced && target.namespace !== undefined) throw pathNotFound(request.path);
  if (resource.namespaced && target.name !== undefined && target.namespace === undefined) throw pathNotFound(request.path);
  const query = parseQuery(request.rawQuery);
  const representation = negotiate(request.headers['accept'], ['table', 'json']);
  const include = includeObject(query.get('includeObject'));
  const nowMs = deps.now();
  if (resource.resource === 'namespaces') {
    const selection = { labels: parseLabelSelector(query.get('labelSelector')), fields: parseFieldSelector(query.get('fieldSelector'), namespaceFieldNames) };
    if (flag(query, 'watch')) {
      if (target.name !== undefined) throw badRequest('watch a single object with a list and fieldSelector=metadata.name=<name>', 'watch');
      const binding = JSON.stringify(['', 'namespaces', cluster, null, query.get('labelSelector') ?? '', query.get('fieldSelector') ?? '']);
      const initial = async () => (await listNamespaces(deps, cluster, selection)).items;
      return watchResponse(deps, limits, namespaceWatch as unknown as ResourceHandler<KubeObject>, { scope: { cluster, namespace: undefined }, selection, binding, query, representation, include }, initial);
    }
    // Namespaces are few and listed whole: a page is the whole list, and no token continues it.
    integerParam(query.get('limit'), 'limit');
    checkListVersion(query.get('resourceVersion'), query.get('resourceVersionMatch'), nowMs);
    if ((query.get('continue') ?? '') !== '') throw badRequest('continue: Invalid value: namespaces are listed whole; there is no next page', 'continue');
    if (target.name !== undefined) return present(await getNamespace(deps, cluster, target.name), representation, include, nowMs, namespacePrinter);
    const list = await listNamespaces(deps, cluster, selection);
    return presentList(list.items, 'NamespaceList', resource.version, { resourceVersion: versionAt(nowMs) }, representation, include, nowMs, list.printer);
  }
  const handler = handlerFor(resource);
  if (handler === undefined) throw pathNotFound(request.path);
  const scope = { cluster, namespace: target.namespace };
  if (target.name !== undefined) {
    if (flag(query, 'watch')) throw badRequest('watch a single object with a list and fieldSelector=metadata.name=<name>', 'watch');
    const object = await handler.get(deps, { cluster, namespace: target.namespace as string }, target.name);
    return representation === 'table'
      ? ok(tableOf(handler.printer, [object], include, { resourceVersion: object.metadata.resourceVersion }, nowMs), TABLE_TYPE)
      : ok(object);
  }
  const labelText = query.get('labelSelector') ?? '';
  const fieldText = query.get('fieldSelector') ?? '';
  const selection: Selection = { labels: parseLabelSelector(labelText), fields: parseFieldSelector(fieldText, handler.fieldNames) };
  const binding = JSON.stringify([resource.group, resource.resource, cluster, target.namespace ?? null, labelText, fieldText]);
  if (flag(query, 'watch')) return watchResponse(deps, limits, handler, { scope, selection, binding, query, representation, include });
  return listResponse(deps, limits, handler, { scope, selection, binding, query, representation, include });
}

interface ListRequest {
  readonly scope: { readonly cluster: string; readonly namespace: string | undefined };
  readonly selection: Selection;
  readonly binding: string;
  readonly query: ReadonlyMap<string, string>;
  readonly representation: Representation;
  readonly include: IncludeObject;
}

async function listResponse(deps: KubeDeps, limits: ServeLimits, handler: ResourceHandler<KubeObject>, request: ListRequest): Promise<KubeResponse> {
  const { query } = request;
  const nowMs = deps.now();
  const resourceVersion = query.get('resourceVersion');
  const continueToken = query.get('continue');
  checkListVersion(resourceVersion, query.get('resourceVersionMatch'), nowMs);
  if (continueToken !== undefined && continueToken !== '' && resourceVersion !== undefined && resourceVersion !== '' && resourceVersion !== '0') {
    throw badRequest('specifying resource version is not allowed when using continue', 'resourceVersion');
  }
  const limit = integerParam(query.get('limit'), 'limit') ?? 0;
  const source = await handler.source(deps, request.scope, request.selection);
  const page = await walkPage(deps, request.scope, source, {
    binding: request.binding, limit, listVersion: versionAt(nowMs), maxItems: limits.maxInitialEvents,
    ...(continueToken === undefined || continueToken === '' ? {} : { continueToken }),
  });
  if (page.truncated) {
    throw badRequest(`limit: Required value: this list holds more than ${limits.maxInitialEvents} objects, more than one response carries here; page it with limit and continue (kubectl does: --chunk-size)`, 'limit');
  }
  const listMeta = { resourceVersion: page.resourceVersion, ...(page.continueToken === undefined ? {} : { continue: page.continueToken }) };
  const response = presentList(page.items, handler.listKind, groupVersion(handler.resource.group, handler.resource.version), listMeta, request.representation, request.include, nowMs, handler.printer);
  const bytes = 'body' in response ? Buffer.byteLength(response.body, 'utf8') : 0;
  if (bytes > limits.maxResponseBytes) {
    throw badRequest(`limit: Invalid value: ${limit}: this page is ${bytes} bytes, more than one response carries here (${limits.maxResponseBytes}); ask for fewer objects a page (kubectl --chunk-size)`, 'limit');
  }
  return response;
}

function present(object: KubeObject, representation: Representation, include: IncludeObject, nowMs: number, printer?: Parameters<typeof tableOf>[0]): KubeResponse {
  if (representation === 'table' && printer !== undefined) {
    return ok(tableOf(printer, [object as never], include, { resourceVersion: object.metadata.resourceVersion }, nowMs), TABLE_TYPE);
  }
  return ok(object);
}

function presentList(
  items: readonly KubeObject[], listKind: string, apiVersion: string, listMeta: Record<string, string>,
  representation: Representation, include: IncludeObject, nowMs: number, printer: Parameters<typeof tableOf>[0],
): KubeResponse {
  if (representation === 'table') return ok(tableOf(printer, items as never[], include, listMeta, nowMs), TABLE_TYPE);
  return ok({ kind: listKind, apiVersion, metadata: listMeta, items });
}

/**
 * `initialList`: the objects a watch from the start sends first, when the handler's logs do not
 * list them one each (namespaces: many logs, one namespace); else they are walked from its logs.
 */
async function watchResponse(
  deps: KubeDeps, limits: ServeLimits, handler: ResourceHandler<KubeObject>, request: ListRequest, initialList?: () => Promise<KubeObject[]>,
): Promise<KubeResponse> {
  const { query } = request;
  const nowMs = deps.now();
  const version = query.get('resourceVersion');
  const match = query.get('resourceVersionMatch');
  const sendInitialEvents = booleanParam(query.get('sendInitialEvents'), 'sendInitialEvents') ?? false;
  const bookmarks = booleanParam(query.get('allowWatchBookmarks'), 'allowWatchBookmarks') ?? false;
  if (sendInitialEvents) {
    if (match !== 'NotOlderThan') throw new KubeError(422, 'Invalid', 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless resourceVersionMatch is set to NotOlderThan');
    if (!bookmarks) throw new KubeError(422, 'Invalid', 'allowWatchBookmarks: Required value: allowWatchBookmarks must be set to true when sendInitialEvents is set');
  } else if (match !== undefined) {
    throw new KubeError(422, 'Invalid', `resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided`);
  }
  const fromStart = version === undefined || version === '' || version === '0';
  const startMs = fromStart || sendInitialEvents ? nowMs : watchStartMs(version as string, nowMs, limits.watchWindowMs);
  if (!fromStart && sendInitialEvents) watchStartMs(version as string, nowMs, limits.watchWindowMs);
  const timeout = integerParam(query.get('timeoutSeconds'), 'timeoutSeconds');
  const allowed = timeout === undefined || timeout === 0 ? limits.maxWatchMs : Math.min(timeout * 1000, limits.maxWatchMs);
  const printer = handler.printer;
  const plan: WatchPlan<KubeObject> = {
    handler,
    scope: request.scope,
    selection: request.selection,
    binding: request.binding,
    fromVersion: fromStart || sendInitialEvents ? undefined : versionAt(startMs),
    sendInitialEvents,
    bookmarks,
    deadlineMs: nowMs + allowed,
    maxInitial: limits.maxInitialEvents,
    present: (objects) => request.representation === 'table'
      ? objects.map((object) => tableOf(printer, [object as never], request.include, { resourceVersion: object.metadata.resourceVersion }, deps.now()))
      : [...objects],
  };
  let initial: KubeObject[] | undefined;
  if (fromStart || sendInitialEvents) {
    try {
      initial = initialList === undefined ? await initialObjects(deps, plan, versionAt(nowMs)) : await initialList();
    } catch (error) {
      if (error instanceof InitialEventsTooMany) throw new KubeError(422, 'Invalid', `sendInitialEvents: ${error.message}`);
      throw error;
    }
  }
  return {
    status: 200,
    headers: { 'content-type': request.representation === 'table' ? TABLE_TYPE : JSON_TYPE, 'cache-control': 'no-store' },
    watch: (sink) => runWatch(deps, plan, sink, initial),
  };
}

function flag(query: ReadonlyMap<string, string>, name: string): boolean {
  return booleanParam(query.get(name), name) ?? false;
}

function booleanParam(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === '1' || value === '') return true;
  if (value === 'false' || value === '0') return false;
  throw badRequest(`${name}: Invalid value: "${value.slice(0, 64)}": must be true or false`, name);
}

function integerParam(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,15}$/.test(value)) throw badRequest(`${name}: Invalid value: "${value.slice(0, 64)}": must be a non-negative integer`, name);
  return Number(value);
}

function includeObject(value: string | undefined): IncludeObject {
  if (value === undefined || value === '') return 'Metadata';
  if (value === 'None' || value === 'Metadata' || value === 'Object') return value;
  throw badRequest(`includeObject: Unsupported value: "${value.slice(0, 64)}": supported values: "None", "Metadata", "Object"`, 'includeObject');
}

