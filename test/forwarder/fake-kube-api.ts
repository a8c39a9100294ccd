import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeKubeStore, matchesSelector, type KubeObject, type Resource, type WatchEvent } from './fake-kube-store.ts';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly contentType: string | undefined;
  readonly body: unknown;
}

interface Fault {
  readonly method: string;
  readonly path: RegExp;
  /** An HTTP status, or `cut`: the connection is dropped before any answer. */
  readonly status: number | 'cut';
  readonly when: ((query: URLSearchParams) => boolean) | undefined;
  remaining: number;
}

/** The rest of a paginated list: the snapshot its first page was served from. */
interface Continuation {
  readonly resource: Resource;
  readonly items: readonly KubeObject[];
  readonly offset: number;
  readonly resourceVersion: number;
}

/**
 * An in-process Kubernetes API server on 127.0.0.1 (random port) for pods and jobs:
 * - list and watch (`?watch=true`) on cluster-wide and namespaced collections, with label
 *   selectors; a list with `limit` is served in pages (`continue`) from the snapshot of its first
 *   page, as the API server serves them from one resourceVersion (410 Expired for a continue token
 *   it no longer holds: expireContinues()); watches are chunked JSON lines from a resourceVersion, with BOOKMARK events when
 *   asked for, and 410 Gone (an ERROR event, as the API server sends it) below the compaction;
 * - GET of one pod or job, POST of pods (generateName) and jobs (409 AlreadyExists), DELETE of
 *   pods and jobs with `preconditions.uid` (409 on mismatch; a Foreground delete of a job only
 *   marks it), merge PATCH of `jobs/{name}` and of `jobs/{name}/status`.
 */
export class FakeKubeApi {
  readonly store = new FakeKubeStore();
  readonly requests: RecordedRequest[] = [];
  readonly #watches = new Set<{ resource: Resource; res: ServerResponse; bookmarks: boolean }>();
  readonly #faults: Fault[] = [];
  readonly #continues = new Map<string, Continuation>();
  /** Objects served by lists (not watches), by resource: what listing costs the API server. */
  readonly listedItems: Record<Resource, number> = { pods: 0, jobs: 0, jobsets: 0 };
  /** The most objects one list response held. */
  largestList = 0;
  /**
   * The API server's clock, as a deletion stamps it (`deletionTimestamp`, no grace period): a
   * fixed instant unless a harness runs the cluster on a scenario's clock (managed/cluster-relay.ts).
   */
  now = '2026-01-01T00:10:00Z';
  readonly #server = createServer((req, res) => void this.#handle(req, res));
  url = '';

  static async start(): Promise<FakeKubeApi> {
    const api = new FakeKubeApi();
    await new Promise<void>((resolve) => api.#server.listen(0, '127.0.0.1', resolve));
    api.url = `http://127.0.0.1:${(api.#server.address() as AddressInfo).port}`;
    return api;
  }

  /** Open watch streams on `resource`. */
  watchCount(resource: Resource): number {
    return [...this.#watches].filter((w) => w.resource === resource).length;
  }

  watchRequests(resource: Resource): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/${resource}`) && r.query.get('watch') === 'true');
  }

  listRequests(resource: Resource): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/${resource}`) && r.query.get('watch') !== 'true');
  }

  /** Ends every watch stream: cleanly (the server closed it) or abruptly (the connection broke). */
  dropWatches(how: 'clean' | 'abrupt' = 'clean'): void {
    for (const watch of this.#watches) (how === 'clean' ? watch.res.end() : watch.res.destroy());
    this.#watches.clear();
  }

  /** Sends a BOOKMARK with the current resourceVersion to every watch that asked for them. */
  bookmark(): void {
    for (const watch of this.#watches) {
      if (!watch.bookmarks) continue;
      const kind = watch.resource === 'pods' ? { kind: 'Pod', apiVersion: 'v1' } : { kind: 'Job', apiVersion: 'batch/v1' };
      writeEvent(watch.res, 'BOOKMARK', { ...kind, metadata: { resourceVersion: String(this.store.resourceVersion) } });
    }
  }

  /**
   * The next `times` requests matching method and path (and `when`, of the query) fail with
   * `status`, or, with `cut`, have their connection dropped unanswered.
   */
  failNext(method: string, path: RegExp, status: number | 'cut', times = 1, when?: (query: URLSearchParams) => boolean): void {
    this.#faults.push({ method, path, status, when, remaining: times });
  }

  /** Forgets every continue token handed out, as a compaction past their snapshot does. */
  expireContinues(): void {
    this.#continues.clear();
  }

  async close(): Promise<void> {
    this.dropWatches('abrupt');
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const text = await readBody(req);
    const body = text ? JSON.parse(text) : undefined;
    const method = req.method ?? 'GET';
    this.requests.push({ method, path: url.pathname, query: url.searchParams, contentType: req.headers['content-type'], body });
    const fault = this.#faults.find((f) => f.remaining > 0 && f.method === method && f.path.test(url.pathname) && (f.when?.(url.searchParams) ?? true));
    if (fault) {
      fault.remaining--;
      if (fault.status === 'cut') return void res.destroy();
      return sendStatus(res, fault.status, 'InternalError', 'injected failure');
    }
    const route = parseRoute(url.pathname);
    if (!route) return sendStatus(res, 404, 'NotFound', `no route ${url.pathname}`);
    const { resource, namespace, name, subresource } = route;
    if (method === 'GET' && name === undefined) return this.#listOrWatch(resource, namespace, url.searchParams, res);
    if (method === 'GET' && name !== undefined && !subresource) return this.#get(resource, namespace ?? 'default', name, res);
    if (method === 'DELETE' && resource === 'pods' && name !== undefined) return this.#deletePod(namespace ?? 'default', name, body, res);
    if (method === 'POST' && resource === 'pods' && name === undefined) return this.#createPod(namespace ?? 'default', body, res);
    if (method === 'POST' && resource === 'jobs' && name === undefined) return this.#createJob(namespace ?? 'default', body, res);
    if (method === 'DELETE' && (resource === 'jobs' || resource === 'jobsets') && name !== undefined) {
      return this.#deleteForeground(resource, namespace ?? 'default', name, body, res);
    }
    if (method === 'PATCH' && resource === 'pods' && !subresource && name !== undefined) {
      return this.#patchPod(namespace ?? 'default', name, req.headers['content-type'], body, res);
    }
    if (method === 'PATCH' && resource === 'jobs' && !subresource && name !== undefined) {
      return this.#patchJob(namespace ?? 'default', name, req.headers['content-type'], body, res);
    }
    if (method === 'PATCH' && resource === 'jobs' && subresource === 'status' && name !== undefined) {
      return this.#patchJobStatus(namespace ?? 'default', name, req.headers['content-type'], body, res);
    }
    return sendStatus(res, 405, 'MethodNotAllowed', `${method} ${url.pathname}`);
  }

  #listOrWatch(resource: Resource, namespace: string | undefined, query: URLSearchParams, res: ServerResponse): void {
    const selector = query.get('labelSelector');
    const matches = (o: KubeObject) => matchesSelector(selector, o.metadata.labels);
    if (query.get('watch') !== 'true' && query.get('watch') !== '1') return this.#list(resource, namespace, query, matches, res);
    const from = Number(query.get('resourceVersion') || '0');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    if (from > 0 && from < this.store.compactedBelow) {
      writeEvent(res, 'ERROR', { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Expired', code: 410, message: `too old resource version: ${from} (${this.store.compactedBelow})` });
      return void res.end();
    }
    const relevant = (e: WatchEvent) => e.resource === resource && (namespace === undefined || e.object.metadata.namespace === namespace) && matches(e.object);
    const backlog = from === 0 ? this.store.list(resource, namespace).filter(matches).map((object) => ({ type: 'ADDED', object })) : this.store.since(from).filter(relevant);
    for (const event of backlog) writeEvent(res, event.type, event.object);
    const watch = { resource, res, bookmarks: query.get('allowWatchBookmarks') === 'true' };
    this.#watches.add(watch);
    const unsubscribe = this.store.subscribe((event) => relevant(event) && writeEvent(res, event.type, event.object));
    res.on('close', () => {
      unsubscribe();
      this.#watches.delete(watch);
    });
  }

  #list(resource: Resource, namespace: string | undefined, query: URLSearchParams, matches: (o: KubeObject) => boolean, res: ServerResponse): void {
    const token = query.get('continue');
    let from: Continuation;
    if (token) {
      const held = this.#continues.get(token);
      if (!held || held.resource !== resource) {
        const message = 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.';
        return sendJson(res, 410, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Expired', code: 410 });
      }
      this.#continues.delete(token);
      from = held;
    } else {
      from = { resource, items: this.store.snapshot(resource, namespace).filter(matches), offset: 0, resourceVersion: this.store.resourceVersion };
    }
    const limit = Number(query.get('limit') || '0');
    const end = limit > 0 ? Math.min(from.items.length, from.offset + limit) : from.items.length;
    const items = from.items.slice(from.offset, end).map(({ kind: _k, apiVersion: _a, ...item }) => item);
    this.listedItems[resource] += items.length;
    this.largestList = Math.max(this.largestList, items.length);
    const metadata: Record<string, unknown> = { resourceVersion: String(from.resourceVersion) };
    if (end < from.items.length) {
      const next = randomBytes(12).toString('base64url');
      this.#continues.set(next, { ...from, offset: end });
      // Lists read one page and dropped (the guards' one-pod version reads) leave tokens behind: keep the newest.
      if (this.#continues.size > 64) this.#continues.delete(this.#continues.keys().next().value as string);
      metadata.continue = next;
      metadata.remainingItemCount = from.items.length - end;
    }
    const kind = resource === 'pods' ? { kind: 'PodList', apiVersion: 'v1' } : { kind: 'JobList', apiVersion: 'batch/v1' };
    sendJson(res, 200, { ...kind, metadata, items });
  }

  #get(resource: Resource, namespace: string, name: string, res: ServerResponse): void {
    const object = this.store.get(resource, namespace, name);
    if (!object) return sendStatus(res, 404, 'NotFound', `${resource} "${name}" not found`);
    sendJson(res, 200, object);
  }

  #deletePod(namespace: string, name: string, body: { preconditions?: { uid?: string } } | undefined, res: ServerResponse): void {
    const pod = this.store.get('pods', namespace, name);
    if (!pod) return sendStatus(res, 404, 'NotFound', `pods "${name}" not found`);
    const uid = body?.preconditions?.uid;
    if (uid !== undefined && uid !== pod.metadata.uid) {
      return sendStatus(res, 409, 'Conflict', `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${pod.metadata.uid}`);
    }
    // With finalizers, deletion only marks the pod; whoever owns the finalizer removes it.
    const result = pod.metadata.finalizers?.length
      ? this.store.update('pods', namespace, name, (p) => void (p.metadata.deletionTimestamp = this.now))
      : this.store.remove('pods', namespace, name);
    sendJson(res, 200, result);
  }

  #createPod(namespace: string, body: KubeObject, res: ServerResponse): void {
    const name = body.metadata.name ?? `${body.metadata.generateName as string}${randomBytes(3).toString('hex').slice(0, 5)}`;
    if (this.store.get('pods', namespace, name)) return sendStatus(res, 409, 'AlreadyExists', `pods "${name}" already exists`);
    const created = this.store.create('pods', { ...body, metadata: { ...body.metadata, name, namespace }, status: { phase: 'Pending' } });
    sendJson(res, 201, created);
  }

  #createJob(namespace: string, body: KubeObject, res: ServerResponse): void {
    if (this.store.get('jobs', namespace, body.metadata.name)) return sendStatus(res, 409, 'AlreadyExists', `jobs.batch "${body.metadata.name}" already exists`);
    const { status: _ignored, ...job } = body;
    sendJson(res, 201, this.store.create('jobs', { ...job, metadata: { ...job.metadata, namespace }, status: {} }));
  }

  /** A Job or a JobSet: with Foreground propagation it stays, marked, until its dependents are gone. */
  #deleteForeground(resource: 'jobs' | 'jobsets', namespace: string, name: string, body: { preconditions?: { uid?: string }; propagationPolicy?: string } | undefined, res: ServerResponse): void {
    const plural = resource === 'jobs' ? 'jobs.batch' : 'jobsets.jobset.x-k8s.io';
    const object = this.store.get(resource, namespace, name);
    if (!object) return sendStatus(res, 404, 'NotFound', `${plural} "${name}" not found`);
    const uid = body?.preconditions?.uid;
    if (uid !== undefined && uid !== object.metadata.uid) {
      return sendStatus(res, 409, 'Conflict', `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${object.metadata.uid}`);
    }
    const result = body?.propagationPolicy === 'Foreground'
      ? this.store.update(resource, namespace, name, (o) => {
          o.metadata.deletionTimestamp = '2026-01-01T00:10:00Z';
          o.metadata.finalizers = [...(o.metadata.finalizers ?? []), 'foregroundDeletion'];
        })
      : this.store.remove(resource, namespace, name);
    sendJson(res, 200, result);
  }

  #patchJob(namespace: string, name: string, contentType: string | undefined, patch: { status?: unknown }, res: ServerResponse): void {
    if (contentType !== 'application/merge-patch+json') return sendStatus(res, 415, 'UnsupportedMediaType', `${contentType}`);
    if (!this.store.get('jobs', namespace, name)) return sendStatus(res, 404, 'NotFound', `jobs.batch "${name}" not found`);
    // The main resource ignores `status`.
    const { status: _ignored, ...rest } = patch;
    const updated = this.store.update('jobs', namespace, name, (job) => Object.assign(job, mergePatch(job, rest)));
    sendJson(res, 200, updated);
  }

  /** JSON patch (test, remove, add, replace); a pod being deleted goes once no finalizer holds it. */
  #patchPod(namespace: string, name: string, contentType: string | undefined, patch: JsonPatchOp[], res: ServerResponse): void {
    if (contentType !== 'application/json-patch+json') return sendStatus(res, 415, 'UnsupportedMediaType', `${contentType}`);
    const pod = this.store.get('pods', namespace, name);
    if (!pod) return sendStatus(res, 404, 'NotFound', `pods "${name}" not found`);
    let patched: KubeObject;
    try {
      patched = applyJsonPatch(structuredClone(pod), patch);
    } catch (error) {
      return sendStatus(res, 422, 'Invalid', (error as Error).message);
    }
    const updated = this.store.update('pods', namespace, name, (p) => void Object.assign(p, patched));
    if (updated.metadata.deletionTimestamp && !updated.metadata.finalizers?.length) {
      return sendJson(res, 200, this.store.remove('pods', namespace, name));
    }
    sendJson(res, 200, updated);
  }

  #patchJobStatus(namespace: string, name: string, contentType: string | undefined, patch: { status?: unknown }, res: ServerResponse): void {
    if (contentType !== 'application/merge-patch+json') return sendStatus(res, 415, 'UnsupportedMediaType', `${contentType}`);
    if (!this.store.get('jobs', namespace, name)) return sendStatus(res, 404, 'NotFound', `jobs.batch "${name}" not found`);
    // The status subresource takes only `status` from the patch.
    const updated = this.store.update('jobs', namespace, name, (job) => void (job.status = mergePatch(job.status, patch.status)));
    sendJson(res, 200, updated);
  }
}

function parseRoute(path: string): { resource: Resource; namespace?: string; name?: string; subresource?: string } | undefined {
  const m = /^\/(?:api\/v1|apis\/batch\/v1|apis\/jobset\.x-k8s\.io\/v1alpha2)(?:\/namespaces\/([^/]+))?\/(pods|jobs|jobsets)(?:\/([^/]+))?(?:\/(status))?$/.exec(path);
  if (!m) return undefined;
  const [, namespace, resource, name, subresource] = m;
  return { resource: resource as Resource, ...(namespace ? { namespace } : {}), ...(name ? { name } : {}), ...(subresource ? { subresource } : {}) };
}

type JsonPatchOp = { op: 'test' | 'remove' | 'add' | 'replace'; path: string; value?: unknown };

/** RFC 6902, the operations the forwarder uses; a failed `test` throws. */
export function applyJsonPatch<T>(target: T, patch: readonly JsonPatchOp[]): T {
  for (const op of patch) {
    const keys = op.path.split('/').slice(1).map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = keys.pop() as string;
    let parent: unknown = target;
    for (const key of keys) parent = (parent as Record<string, unknown> | undefined)?.[key];
    if (parent === null || typeof parent !== 'object') throw new Error(`path ${op.path} does not exist`);
    const container = parent as Record<string, unknown> & unknown[];
    const exists = Array.isArray(container) ? Number(last) < container.length : last in container;
    if (op.op === 'test') {
      if (JSON.stringify(container[last as never]) !== JSON.stringify(op.value)) throw new Error(`test failed at ${op.path}`);
    } else if (op.op === 'remove') {
      if (!exists) throw new Error(`path ${op.path} does not exist`);
      if (Array.isArray(container)) container.splice(Number(last), 1);
      else delete container[last];
    } else if (Array.isArray(container) && op.op === 'add') container.splice(last === '-' ? container.length : Number(last), 0, op.value);
    else (container as Record<string, unknown>)[last] = op.value;
  }
  return target;
}

/** RFC 7386 JSON merge patch: objects merge, null removes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as object) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

function writeEvent(res: ServerResponse, type: string, object: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  res.write(`${JSON.stringify({ type, object })}\n`);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function sendStatus(res: ServerResponse, code: number, reason: string, message: string): void {
  sendJson(res, code, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
