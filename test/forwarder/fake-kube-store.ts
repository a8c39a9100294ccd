import { randomUUID } from 'node:crypto';

/** A stored object: plain JSON as the API server writes it. */
export type KubeObject = {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
    deletionTimestamp?: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
};

export type Resource = 'pods' | 'jobs' | 'jobsets';
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface WatchEvent {
  readonly resourceVersion: number;
  readonly resource: Resource;
  readonly type: WatchEventType;
  readonly object: KubeObject;
}

const KINDS: Record<Resource, { kind: string; apiVersion: string }> = {
  pods: { kind: 'Pod', apiVersion: 'v1' },
  jobs: { kind: 'Job', apiVersion: 'batch/v1' },
  jobsets: { kind: 'JobSet', apiVersion: 'jobset.x-k8s.io/v1alpha2' },
};

/**
 * The fake API server's storage: objects by resource, namespace and name, one global
 * resourceVersion counter, and the history of changes a watch replays from (until compacted).
 */
export class FakeKubeStore {
  readonly #objects = new Map<string, KubeObject>();
  readonly #history: WatchEvent[] = [];
  readonly #listeners = new Set<(event: WatchEvent) => void>();
  #resourceVersion = 100;
  #compactedBelow = 0;

  get resourceVersion(): number {
    return this.#resourceVersion;
  }

  /** Watches from a version older than this get 410 Gone. */
  get compactedBelow(): number {
    return this.#compactedBelow;
  }

  /** Forgets the history up to now, as etcd compaction does. */
  compact(): void {
    this.#compactedBelow = this.#resourceVersion + 1;
    this.#history.length = 0;
  }

  get(resource: Resource, namespace: string, name: string): KubeObject | undefined {
    return this.#objects.get(key(resource, namespace, name));
  }

  list(resource: Resource, namespace?: string): KubeObject[] {
    return [...this.#objects.entries()]
      .filter(([k, o]) => k.startsWith(`${resource}/`) && (namespace === undefined || o.metadata.namespace === namespace))
      .map(([, o]) => structuredClone(o));
  }

  /**
   * The stored objects of `resource` as they are now, not copied: a list's snapshot, which later
   * writes do not change (every write stores a new object). Callers must not modify them.
   */
  snapshot(resource: Resource, namespace?: string): readonly KubeObject[] {
    const out: KubeObject[] = [];
    for (const [k, o] of this.#objects) if (k.startsWith(`${resource}/`) && (namespace === undefined || o.metadata.namespace === namespace)) out.push(o);
    return out;
  }

  /** Stores a new object, filling in uid, resourceVersion, namespace and creationTimestamp. */
  create(resource: Resource, object: KubeObject): KubeObject {
    const stored = structuredClone(object);
    stored.metadata.namespace ??= 'default';
    stored.metadata.uid ??= randomUUID();
    stored.metadata.creationTimestamp ??= '2026-01-01T00:00:00Z';
    return this.#write(resource, 'ADDED', { ...KINDS[resource], ...stored });
  }

  /** Changes an object in place and bumps its resourceVersion. */
  update(resource: Resource, namespace: string, name: string, change: (object: KubeObject) => void): KubeObject {
    const object = this.get(resource, namespace, name);
    if (!object) throw new Error(`no ${resource} ${namespace}/${name}`);
    const next = structuredClone(object);
    change(next);
    return this.#write(resource, 'MODIFIED', next);
  }

  /** Removes an object (a DELETED event carrying its final state). */
  remove(resource: Resource, namespace: string, name: string): KubeObject | undefined {
    const object = this.get(resource, namespace, name);
    if (!object) return undefined;
    this.#objects.delete(key(resource, namespace, name));
    return this.#write(resource, 'DELETED', structuredClone(object), false);
  }

  /** Events after `resourceVersion`, oldest first. */
  since(resourceVersion: number): WatchEvent[] {
    return this.#history.filter((e) => e.resourceVersion > resourceVersion);
  }

  subscribe(listener: (event: WatchEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #write(resource: Resource, type: WatchEventType, object: KubeObject, store = true): KubeObject {
    this.#resourceVersion++;
    object.metadata.resourceVersion = String(this.#resourceVersion);
    if (store) this.#objects.set(key(resource, object.metadata.namespace ?? 'default', object.metadata.name), object);
    const event: WatchEvent = { resourceVersion: this.#resourceVersion, resource, type, object: structuredClone(object) };
    this.#history.push(event);
    for (const listener of this.#listeners) listener(event);
    return structuredClone(object);
  }
}

const key = (resource: Resource, namespace: string, name: string) => `${resource}/${namespace}/${name}`;

/** Label selectors as the API server reads them: `k`, `!k`, `k=v`, `k==v`, `k!=v`, comma-joined. */
export function matchesSelector(selector: string | null, labels: Record<string, string> | undefined): boolean {
  if (!selector) return true;
  return selector.split(',').every((requirement) => {
    const r = requirement.trim();
    const notEqual = /^([^!=]+)!=(.*)$/.exec(r);
    if (notEqual) return labels?.[notEqual[1] ?? ''] !== notEqual[2];
    const equal = /^([^!=]+)==?(.*)$/.exec(r);
    if (equal) return labels?.[equal[1] ?? ''] === equal[2];
    if (r.startsWith('!')) return labels?.[r.slice(1)] === undefined;
    return labels?.[r] !== undefined;
  });
}
