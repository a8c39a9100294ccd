import { describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import type { ReadOptions, ReadResult, StreamId } from '../../../shared/log/event-store.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import type { KubeDeps } from '../../../functions/kube/fleet-reads.ts';
import { serveKube } from '../../../functions/kube/kube-api.ts';
import { LogCache } from '../../../functions/kube/log-cache.ts';
import { aPod } from '../../support/builders.ts';
import { aService, busEvent, deliverAt, observeJob } from '../query/support/service-fleet.ts';

// `kubectl get pods -l job-name=X --chunk-size=N` on a big Job: the first page builds the Job's
// pods from its log at its head, and the continue token pins that head, so the pages after it
// are served from what the first one built: they fold nothing and read no log, snapshot or
// archive, and a pod the cluster reports meanwhile is not in this list (it is at a newer head).

/** The in-memory store, counting the reads of a log, its snapshots and its archived pods. */
class CountingStore extends InMemoryEventStore {
  reads = 0;
  override read(stream: StreamId, options?: ReadOptions): Promise<ReadResult> {
    this.reads++;
    return super.read(stream, options);
  }
  override loadSnapshot(...args: Parameters<InMemoryEventStore['loadSnapshot']>): ReturnType<InMemoryEventStore['loadSnapshot']> {
    this.reads++;
    return super.loadSnapshot(...args);
  }
  override loadArchivedPods(...args: Parameters<InMemoryEventStore['loadArchivedPods']>): ReturnType<InMemoryEventStore['loadArchivedPods']> {
    this.reads++;
    return super.loadArchivedPods(...args);
  }
}

const T0 = '2026-01-01T00:00:00Z';
const PODS = 30;
const LIMITS = { maxWatchMs: 1_000, maxResponseBytes: 5_500_000, maxInitialEvents: 5_000, watchWindowMs: 15 * 60_000 };
const OWNER = { apiVersion: 'batch/v1', kind: 'Job', name: 'wide', uid: 'uid-wide', controller: true };

function podEvent(index: number, at: string) {
  const pod = aPod({ index, name: `wide-${index}-x`, uid: `uid-wide-${index}`, phase: 'Succeeded' });
  return busEvent('c1', 'Pod Observed', { eventId: `pod-${index}`, observedAt: at, object: { ...pod, metadata: { ...pod.metadata, namespace: 'batch', ownerReferences: [OWNER] } } });
}

async function page(deps: KubeDeps, token: string | undefined): Promise<{ names: string[]; token?: string }> {
  const query = `labelSelector=${encodeURIComponent('job-name=wide')}&limit=10${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
  const answer = await serveKube({ method: 'GET', path: '/k8s/clusters/c1/api/v1/namespaces/batch/pods', rawQuery: query, headers: {} }, deps, LIMITS);
  if (!('body' in answer) || answer.status !== 200) throw new Error(`the pod list answered ${answer.status}`);
  const list = JSON.parse(answer.body) as { items: { metadata: { name: string } }[]; metadata: { continue?: string } };
  return { names: list.items.map((pod) => pod.metadata.name), ...(list.metadata.continue ? { token: list.metadata.continue } : {}) };
}

/** A Job of PODS pods listed in pages, with one more pod reported after the first page: the names listed, and the store reads of the pages after the first. */
async function listWhileItGrows(cache: LogCache | undefined): Promise<{ first: string[]; rest: string[]; readsAfterFirst: number }> {
  const store = new CountingStore();
  const service = aService(store);
  await observeJob(service, { clusterId: 'c1', namespace: 'batch', name: 'wide', uid: 'uid-wide', creationTimestamp: T0 });
  await deliverAt(service, '2026-01-01T00:01:00Z', Array.from({ length: PODS }, (_, i) => podEvent(i, '2026-01-01T00:01:00Z')));
  const deps: KubeDeps = {
    store, config: DEFAULT_FOLD_CONFIG, cursorKey: new Uint8Array(32).fill(5), now: Date.now, jobfoldVersion: '0.1.0', ...(cache ? { logCache: cache } : {}),
  };
  const first = await page(deps, undefined);
  // The cluster reports another pod of the Job between two pages.
  await deliverAt(service, '2026-01-01T00:02:00Z', [podEvent(PODS, '2026-01-01T00:02:00Z')]);
  const readsBefore = store.reads;
  const rest: string[] = [];
  for (let token = first.token; token !== undefined; ) {
    const next = await page(deps, token);
    rest.push(...next.names);
    token = next.token;
  }
  return { first: first.names, rest, readsAfterFirst: store.reads - readsBefore };
}

const EVERY_POD = new Set(Array.from({ length: PODS }, (_, i) => `wide-${i}-x`));

describe('the pods of a big Job, listed in pages', () => {
  it('are built once, on the first page: the pages after it read nothing, as of the first page\'s head', async () => {
    const { first, rest, readsAfterFirst } = await listWhileItGrows(new LogCache());

    expect(first).toHaveLength(10);
    expect(rest).toHaveLength(PODS - 10);
    expect(new Set([...first, ...rest])).toEqual(EVERY_POD);
    expect(readsAfterFirst).toBe(0);
  });

  it('without the cache, the pages after the first read the log again and list the same pods', async () => {
    const { first, rest, readsAfterFirst } = await listWhileItGrows(undefined);

    expect(rest).toHaveLength(PODS - 10);
    expect(new Set([...first, ...rest])).toEqual(EVERY_POD);
    expect(readsAfterFirst).toBeGreaterThan(0);
  });
});
