import { afterEach, describe, expect, it } from 'vitest';
import { eventually, startFakes, startHarness, type Fakes, type Harness } from './harness.ts';
import { aJob, aPod } from './objects.ts';

let harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.reverse()) await h.stopForwarder();
  await harnesses[0]?.close();
  harnesses = [];
});

async function start(fakes: Fakes, options: { spoolDir?: string; spoolMaxBytes?: number } = {}): Promise<Harness> {
  const h = await startHarness({ fakes, ...options });
  harnesses.push(h);
  return h;
}

describe('Losing nothing across failures and restarts', () => {
  it('spools while EventBridge is down and replays the spool, in order, after a restart', async () => {
    const fakes = await startFakes();
    const first = await start(fakes);
    fakes.bus.down();
    const job = fakes.kube.store.create('jobs', aJob());
    const a = fakes.kube.store.create('pods', aPod(job, { name: 'a' }));
    const b = fakes.kube.store.create('pods', aPod(job, { name: 'b' }));
    // Observed: the stop puts whatever is still waiting (in a pack or in memory) in the spool.
    await eventually(() => expect(first.metrics.total('forwarder_observations_total')).toBe(3));
    await first.stopForwarder();
    expect(first.metrics.get('forwarder_spooling')).toBe(1);
    fakes.bus.up();

    await start(fakes, { spoolDir: first.spoolDir });

    const spooled = [`${job.metadata.uid}/${job.metadata.resourceVersion}`, `${a.metadata.uid}/${a.metadata.resourceVersion}`, `${b.metadata.uid}/${b.metadata.resourceVersion}`];
    await eventually(() => expect(fakes.bus.uniqueEventIds().slice(0, 3).sort()).toEqual([...spooled].sort()));
    const ids = fakes.bus.uniqueEventIds();
    expect(ids.indexOf(spooled[1] ?? '')).toBeLessThan(ids.indexOf(spooled[2] ?? ''));
  });

  it('reports a pod deleted while the forwarder was stopped', async () => {
    const fakes = await startFakes();
    const first = await start(fakes);
    const job = fakes.kube.store.create('jobs', aJob());
    const gone = fakes.kube.store.create('pods', aPod(job, { name: 'gone' }));
    fakes.kube.store.create('pods', aPod(job, { name: 'stays' }));
    await eventually(() => expect(fakes.bus.delivered).toHaveLength(3));
    await first.stopForwarder();
    fakes.kube.store.remove('pods', 'default', 'gone');

    await start(fakes, { spoolDir: first.spoolDir });

    await eventually(() => expect(fakes.bus.uniqueEventIds()).toContain(`${gone.metadata.uid}/deleted`));
    const tombstone = fakes.bus.delivered.find((e) => e['detail-type'] === 'Pod Deleted');
    expect(tombstone?.detail).toMatchObject({ object: { kind: 'Pod', metadata: { name: 'gone', uid: gone.metadata.uid } } });
  });

  it('reports a pod deleted while EventBridge was down and the forwarder restarted', async () => {
    const fakes = await startFakes();
    const first = await start(fakes);
    fakes.bus.down();
    const job = fakes.kube.store.create('jobs', aJob());
    const gone = fakes.kube.store.create('pods', aPod(job, { name: 'gone' }));
    await eventually(() => expect(first.metrics.get('forwarder_spool_events')).toBe(2));
    await first.stopForwarder();
    fakes.kube.store.remove('pods', 'default', 'gone');
    fakes.bus.up();

    await start(fakes, { spoolDir: first.spoolDir });

    const observed = `${gone.metadata.uid}/${gone.metadata.resourceVersion}`;
    await eventually(() => expect(fakes.bus.uniqueEventIds()).toContain(`${gone.metadata.uid}/deleted`));
    expect(fakes.bus.uniqueEventIds().indexOf(observed)).toBeLessThan(fakes.bus.uniqueEventIds().indexOf(`${gone.metadata.uid}/deleted`));
  });

  it('stops watching while the spool is full, then relists and reports the current state', async () => {
    const fakes = await startFakes();
    const h = await start(fakes, { spoolMaxBytes: 6 * 1024 });
    fakes.bus.down();
    const job = fakes.kube.store.create('jobs', aJob());
    for (let i = 0; i < 20; i++) fakes.kube.store.create('pods', aPod(job, { name: `p${i}` }));

    await eventually(() => expect(h.metrics.total('forwarder_spool_overflow_events_total')).toBeGreaterThan(0));
    await eventually(() => expect(fakes.kube.watchCount('pods')).toBe(0));
    expect(h.logs.some((l) => l.level === 'error' && String(l.msg).startsWith('spool full'))).toBe(true);
    fakes.kube.store.update('pods', 'default', 'p19', (p) => void ((p.status as { phase: string }).phase = 'Succeeded'));
    fakes.bus.up();

    const latest = fakes.kube.store.list('pods').map((p) => `${p.metadata.uid}/${p.metadata.resourceVersion}`);
    await eventually(() => expect(fakes.bus.uniqueEventIds()).toEqual(expect.arrayContaining(latest)), 5_000);
    await eventually(() => expect(fakes.kube.watchCount('pods')).toBe(1));
  });
});
