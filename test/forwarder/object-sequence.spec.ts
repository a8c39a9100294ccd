import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../forwarder/log.ts';
import { EpochFile } from '../../forwarder/watch/epoch-file.ts';
import { ObjectSequencer } from '../../forwarder/watch/object-sequencer.ts';
import { compareSequence, type ObjectSequence } from '../../shared/k8s/object-sequence.ts';
import { parseInbound } from '../../shared/contract/parse-inbound.ts';
import { aJob, aPod } from './objects.ts';
import { eventually, startHarness, type Harness } from './harness.ts';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

type Detail = { object: { metadata: { name: string } }; sequence?: ObjectSequence };
const stamps = (h: Harness, name: string) =>
  h.bus.delivered
    .filter((e) => (e.detail as Detail).object.metadata.name === name)
    .map((e) => ({ type: e['detail-type'], sequence: (e.detail as Detail).sequence }));

describe('The forwarder stamps each event with its order among its object\'s events', () => {
  it('numbers one pod\'s events 1, 2, 3 within an epoch, and the service reads the stamp', async () => {
    harness = await startHarness();
    const h = harness;
    const job = h.kube.store.create('jobs', aJob({ name: 'train' }));
    h.kube.store.create('pods', aPod(job, { name: 'train-a' }));
    h.kube.store.update('pods', 'default', 'train-a', (p) => void ((p.status as { phase: string }).phase = 'Succeeded'));
    h.kube.store.remove('pods', 'default', 'train-a');

    await eventually(() => expect(stamps(h, 'train-a')).toHaveLength(3));
    const seen = stamps(h, 'train-a');
    expect(seen.map((s) => s.sequence?.seq)).toEqual([1, 2, 3]);
    expect(new Set(seen.map((s) => s.sequence?.epoch)).size).toBe(1);
    const observed = h.bus.delivered.find((e) => e['detail-type'] === 'Pod Observed');
    const parsed = parseInbound(observed);
    expect(parsed.ok && parsed.observation.type === 'PodObserved' && parsed.observation.sequence).toEqual(seen[0]?.sequence);
  });

  it('starts a later epoch after a relist (410 Gone), so what the list shows is newer than anything before', async () => {
    harness = await startHarness();
    const h = harness;
    const job = h.kube.store.create('jobs', aJob({ name: 'train' }));
    h.kube.store.create('pods', aPod(job, { name: 'survivor' }));
    await eventually(() => expect(stamps(h, 'survivor')).toHaveLength(1));

    h.kube.dropWatches('clean');
    h.kube.store.update('pods', 'default', 'survivor', (p) => void ((p.status as { phase: string }).phase = 'Succeeded'));
    h.kube.store.compact();

    await eventually(() => expect(stamps(h, 'survivor')).toHaveLength(2));
    const [before, after] = stamps(h, 'survivor').map((s) => s.sequence as ObjectSequence);
    expect(after!.epoch).toBeGreaterThan(before!.epoch);
    expect(compareSequence(after!, before!)).toBeGreaterThan(0);
  });
});

describe('ObjectSequencer', () => {
  it('keeps epochs strictly increasing when the clock stalls or steps back', () => {
    let now = 1_000;
    const sequencer = new ObjectSequencer(() => now);
    sequencer.relisted('Pod');
    const first = sequencer.peek('Pod', 'u');
    now = 500;
    sequencer.relisted('Pod');
    const second = sequencer.peek('Pod', 'u');
    expect(second.epoch).toBeGreaterThan(first.epoch);
  });

  it('starts a later epoch after a restart on a clock behind the last run\'s (the last epoch kept beside the spool)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobfold-epochs-'));
    try {
      const before = new ObjectSequencer(() => 1_000_000, EpochFile.open(dir, silentLogger));
      before.relisted('Pod');
      const sent = before.peek('Pod', 'u');
      // a new process (the pod rescheduled on a node whose clock is a minute slow)
      const after = new ObjectSequencer(() => 1_000_000 - 60_000, EpochFile.open(dir, silentLogger));
      after.relisted('Pod');
      expect(compareSequence(after.peek('Pod', 'u'), sent)).toBeGreaterThan(0);
      // without the file, the same restart would start an earlier epoch
      const forgetful = new ObjectSequencer(() => 1_000_000 - 60_000);
      forgetful.relisted('Pod');
      expect(compareSequence(forgetful.peek('Pod', 'u'), sent)).toBeLessThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts per uid, and only what was committed', () => {
    const sequencer = new ObjectSequencer(() => 7);
    const a1 = sequencer.peek('Pod', 'a');
    expect(sequencer.peek('Pod', 'a')).toEqual(a1); // not committed: the same stamp again
    sequencer.commit('a', a1);
    expect(sequencer.peek('Pod', 'a').seq).toBe(2);
    expect(sequencer.peek('Pod', 'b').seq).toBe(1);
  });
});
