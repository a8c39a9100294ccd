import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { afterAll, describe, expect, it } from 'vitest';
import { servingUrl, startProcess } from '../../support/start-process.ts';
import { entryOf, jobEvent, podEvent, type Probe } from '../hostile/hostile-cases.ts';

// `npm start -- --data DIR` killed (SIGKILL) right after PutEvents accepted a burst, before the
// writer stored it, then started again on DIR: the ingest stream's journal (DIR/stream) puts the
// accepted events again, so every one is in its Job's log exactly once, as with Kinesis.

const dir = mkdtempSync(join(tmpdir(), 'jobfold-burst-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const JOBS = 10;
const stamp = Date.now();
const burst = Array.from({ length: JOBS }, (_, j) => {
  const uid = `burst-${j}-${stamp}`;
  const name = `burst-${j}`;
  return { name, events: [jobEvent(uid, name, { completions: 3, parallelism: 3 }), ...['a', 'b', 'c'].map((p) => podEvent(uid, name, p, 'Running'))] };
});

interface JobView {
  readonly status: { readonly active?: number };
  readonly commands: ReadonlyArray<Record<string, unknown>>;
}

async function jobOf(url: string, name: string): Promise<{ ids: string[]; view: JobView | undefined }> {
  const base = `${url}/v1/clusters/cluster-a/namespaces/default/jobs/${name}`;
  const history = await fetch(`${base}/history?limit=500`);
  if (history.status !== 200) return { ids: [], view: undefined };
  const body = await history.json() as { entries?: { eventId: string; type: string }[]; items?: { eventId: string; type: string }[] };
  const ids = (body.entries ?? body.items ?? []).filter((e) => e.type === 'JobObserved' || e.type === 'PodObserved').map((e) => e.eventId);
  return { ids, view: await (await fetch(base)).json() as JobView };
}

describe('given npm start --data DIR killed right after PutEvents accepted a burst of 10 Jobs', () => {
  it('when started again on DIR, then every accepted event is in its log once and nothing is decided twice', async () => {
    const first = startProcess(['--data', dir, '--no-sample']);
    const url = await servingUrl(first);
    await first.when(/waiting for events/);
    const client = new EventBridgeClient({ endpoint: `${url}/events`, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, maxAttempts: 1 });
    const entries = burst.flatMap((j) => j.events).map((e) => (entryOf(e) as Extract<Probe, { kind: 'entry' }>).entry);
    for (let i = 0; i < entries.length; i += 10) {
      const output = await client.send(new PutEventsCommand({ Entries: entries.slice(i, i + 10) }));
      expect(output.FailedEntryCount ?? 0).toBe(0);
    }
    first.child.kill('SIGKILL');
    await first.exited();
    client.destroy();

    const second = startProcess(['--data', dir, '--no-sample']);
    const again = await servingUrl(second);
    await second.when(/waiting for events/);
    let kept: Array<Awaited<ReturnType<typeof jobOf>>> = [];
    for (let waited = 0; waited < 30_000; waited += 250) {
      kept = await Promise.all(burst.map((j) => jobOf(again, j.name)));
      if (kept.every((k, i) => k.ids.length >= (burst[i]?.events.length ?? 0))) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    second.child.kill('SIGTERM');
    await second.exited();
    for (const [i, j] of burst.entries()) {
      const job = kept[i];
      expect(job?.ids.sort(), j.name).toEqual(j.events.map((e) => e.detail.eventId as string).sort());
      expect(job?.view?.status.active, j.name).toBe(3);
      const commands = (job?.view?.commands ?? []).map(({ seq: _seq, at: _at, ...command }) => JSON.stringify(command));
      expect(new Set(commands).size, `${j.name} decided twice: ${commands.join('\n')}`).toBe(commands.length);
    }
  }, 180_000);
});
