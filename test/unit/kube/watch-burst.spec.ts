import { describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import type { KubeDeps } from '../../../functions/kube/fleet-reads.ts';
import { serveKube } from '../../../functions/kube/kube-api.ts';
import { LogCache } from '../../../functions/kube/log-cache.ts';
import { CHANGES_PER_POLL } from '../../../functions/kube/watch.ts';
import { aService, observeJob } from '../query/support/service-fleet.ts';
import { logEntries } from '../../support/log-entries.ts';
import type { WatchEvent } from '../../../shared/k8s/watch-event.ts';

// A watch reads at most CHANGES_PER_POLL log writes a poll (functions/kube/watch.ts). Given
// twice that many written in the cluster within one poll, when a watch polls, then it ends with
// an ERROR 410 Expired (clients list again) instead of following some and skipping the rest.

describe('a watch behind a burst of writes', () => {
  it('ends with 410 Expired when more changes came than it follows in one poll', { timeout: 60_000 }, async () => {
    const store = new InMemoryEventStore();
    const deps: KubeDeps = {
      store, config: DEFAULT_FOLD_CONFIG, cursorKey: new Uint8Array(32).fill(3), now: Date.now, jobfoldVersion: '0.1.0', logCache: new LogCache(),
    };
    const stream = await observeJob(aService(store), { clusterId: 'c1', namespace: 'batch', name: 'busy', uid: 'uid-busy', creationTimestamp: '2026-01-01T00:00:00Z' });
    const limits = { maxWatchMs: 5_000, maxResponseBytes: 5_500_000, maxInitialEvents: 5_000, watchWindowMs: 15 * 60_000 };
    const list = await serveKube({ method: 'GET', path: '/k8s/clusters/c1/apis/batch/v1/jobs', rawQuery: '', headers: {} }, deps, limits);
    const version = (JSON.parse('body' in list ? list.body : '{}') as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const burst = Array.from({ length: 2 * CHANGES_PER_POLL }, (_, i) => ({ eventId: `burst-${i}`, type: 'Noted', observedAt: new Date().toISOString(), body: { i } }));
    // One commit per entry: each is a log write of its own, as a burst of small batches makes them.
    for (const entry of burst) await logEntries(store, stream, [entry], new Date().toISOString());

    const watch = await serveKube({ method: 'GET', path: '/k8s/clusters/c1/apis/batch/v1/jobs', rawQuery: `watch=1&resourceVersion=${version}`, headers: {} }, deps, limits);
    const events: WatchEvent[] = [];
    if ('body' in watch) throw new Error(`not a watch: ${watch.body}`);
    await watch.watch({ closed: false, write: (event) => events.push(event) > 0 });

    expect(events.at(-1)).toEqual({
      type: 'ERROR',
      object: expect.objectContaining({ kind: 'Status', code: 410, reason: 'Expired', message: expect.stringContaining(`more than ${CHANGES_PER_POLL} changes`) }),
    });
  });
});
