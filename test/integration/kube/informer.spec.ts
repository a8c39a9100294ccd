import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchV1Api, CoreV1Api, KubeConfig, makeInformer, type V1Job } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextsFor } from '../../../cli/kube/kubeconfig-command.ts';
import type { LocalStack } from '../../../local/local-stack.ts';
import { TraceRecorder } from '../../../local/sample/trace-recorder.ts';
import { eventually, startTestStack } from '../local/local-stack-fixture.ts';

// @kubernetes/client-node's informer (a client-go-style list, then watch from the list's
// resourceVersion) against npm start's kube API, through the kubeconfig `jobfold kubeconfig`
// writes. The kube API here keeps short limits: a watch lasts 2 s, and a resourceVersion older
// than 6 s is 410 Gone. Given a fleet, when the informer runs through several watches that end
// and a version that expires, and Jobs change meanwhile, then it converges on what a fresh list
// says, with jobfold's folded status, and never reports an error.

const WATCH_MS = 2_000;
const WINDOW_MS = 6_000;
const dir = mkdtempSync(join(tmpdir(), 'jobfold-informer-'));
let stack: LocalStack;

async function feed(trace: TraceRecorder, name: string): Promise<void> {
  const file = join(dir, `${name}.jsonl`);
  writeFileSync(file, trace.jsonl());
  await stack.replay(file, { speed: 1000 });
}

beforeAll(async () => {
  stack = await startTestStack({ kubeLimits: { maxWatchMs: WATCH_MS, watchWindowMs: WINDOW_MS } });
  const trace = new TraceRecorder('2026-01-01T00:00:00Z', 'a1f0');
  const done = trace.job('kc1', 0, 'batch', 'done', {});
  trace.exitPod(trace.runPod(done, 1, undefined), 2, 0);
  const failed = trace.job('kc1', 0, 'batch', 'failed', { backoffLimit: 0 });
  trace.exitPod(trace.runPod(failed, 1, undefined), 2, 1);
  trace.runPod(trace.job('kc1', 0, 'ml', 'running', {}), 1, undefined);
  trace.job('kc2', 0, 'batch', 'other-cluster', {});
  await feed(trace, 'fleet');
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** namespace/name → the state that matters, of a list of Jobs, in name order. */
function digest(jobs: readonly V1Job[]): Record<string, string> {
  const out: Record<string, string> = {};
  const sorted = [...jobs].sort((a, b) => `${a.metadata?.namespace}/${a.metadata?.name}`.localeCompare(`${b.metadata?.namespace}/${b.metadata?.name}`));
  for (const job of sorted) {
    const conditions = (job.status?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type).join('+');
    out[`${job.metadata?.namespace}/${job.metadata?.name}`] = `${job.metadata?.uid} active=${job.status?.active ?? 0} succeeded=${job.status?.succeeded ?? 0} failed=${job.status?.failed ?? 0} ${conditions}`;
  }
  return out;
}

/** How often an informer connected its watch, and the errors it reported (it stops at one). */
function followed(informer: { on(event: 'connect' | 'error', callback: (arg: unknown) => void): void }): { connects: number; errors: unknown[] } {
  const seen = { connects: 0, errors: [] as unknown[] };
  informer.on('connect', () => {
    seen.connects += 1;
  });
  informer.on('error', (error) => {
    seen.errors.push(error);
  });
  return seen;
}

describe('an informer of Jobs across namespaces', () => {
  it('lists, watches again after each watch ends, lists again after 410 Gone, and converges on the fleet', { timeout: 180_000 }, async () => {
    const kc = new KubeConfig();
    kc.loadFromString(JSON.stringify(contextsFor(new URL(stack.url), ['kc1'])));
    const batch = kc.makeApiClient(BatchV1Api);
    let lists = 0;
    const informer = makeInformer(kc, '/apis/batch/v1/jobs', () => {
      lists += 1;
      return batch.listJobForAllNamespaces();
    });
    const seen = followed(informer);
    await informer.start();
    try {
      const served = async () => digest((await batch.listJobForAllNamespaces()).items);
      await eventually(() => (informer.list().length === 3 ? true : undefined), 30_000);
      expect(digest(informer.list())).toEqual(await served());
      expect(digest(informer.list())['batch/failed']).toMatch(/ failed=1 FailureTarget\+Failed$/);

      // Each watch ends after WATCH_MS and is resumed from the last version the informer saw;
      // once that version is older than the window the watch is answered 410 Gone, and the
      // informer lists again (client-node lists again on a 410 only: any other error stops it).
      await eventually(() => (lists >= 2 ? true : undefined), 60_000);
      expect(seen.connects).toBeGreaterThanOrEqual(3);

      // Changes while it watches: a new Job, a name reused, then the new Job's pod succeeding.
      const oldDone = informer.get('done', 'batch')?.metadata?.uid;
      const trace = new TraceRecorder(new Date().toISOString(), 'a1f1');
      const late = trace.job('kc1', 0, 'ml', 'late', {});
      trace.job('kc1', 0, 'batch', 'done', {});
      await feed(trace, 'late');
      await eventually(() => (informer.get('late', 'ml') === undefined ? undefined : true), 30_000);
      const changes = new TraceRecorder(new Date().toISOString(), 'a1f2');
      changes.exitPod(changes.runPod(late, 1, undefined), 2, 0);
      await feed(changes, 'changes');

      const expected = await eventually(async () => {
        const now = await served();
        return /\+Complete$/.test(now['ml/late'] ?? '') ? now : undefined;
      }, 30_000);
      expect(Object.keys(expected).sort()).toEqual(['batch/done', 'batch/failed', 'ml/late', 'ml/running']);
      await eventually(() => (JSON.stringify(digest(informer.list())) === JSON.stringify(expected) ? true : undefined), 60_000);
      // The reused name is the newest Job, as kubectl shows it.
      expect(informer.get('done', 'batch')?.metadata?.uid).not.toBe(oldDone);
      expect(seen.errors).toEqual([]);
    } finally {
      await informer.stop();
    }
  });
});

describe('an informer of namespaces', () => {
  it('lists the namespaces jobfold knows, keeps watching, and sees one its first Job brings', { timeout: 120_000 }, async () => {
    // given the fleet's namespaces of cluster kc1 (batch, ml), and an informer on them
    const kc = new KubeConfig();
    kc.loadFromString(JSON.stringify(contextsFor(new URL(stack.url), ['kc1'])));
    const core = kc.makeApiClient(CoreV1Api);
    const informer = makeInformer(kc, '/api/v1/namespaces', () => core.listNamespace());
    const seen = followed(informer);
    await informer.start();
    try {
      const names = () => informer.list().map((ns) => ns.metadata?.name).sort();
      await eventually(() => (names().includes('batch') && names().includes('ml') ? true : undefined), 30_000);

      // when a Job comes in a namespace of its own, while the watch is renewed every WATCH_MS
      const trace = new TraceRecorder(new Date().toISOString(), 'a1f3');
      trace.job('kc1', 0, 'fresh', 'first', {});
      await feed(trace, 'fresh');

      // then the informer holds the new namespace, with no error (a watch answered 405 stopped it)
      await eventually(() => (informer.get('fresh') === undefined ? undefined : true), 30_000);
      expect(informer.get('fresh')?.status?.phase).toBe('Active');
      await eventually(() => (seen.connects >= 2 ? true : undefined), 30_000);
      expect(seen.errors).toEqual([]);
    } finally {
      await informer.stop();
    }
  });
});
