import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../forwarder/log.ts';
import { EpochFile } from '../../forwarder/watch/epoch-file.ts';
import { ObjectSequencer } from '../../forwarder/watch/object-sequencer.ts';
import { Observer } from '../../forwarder/watch/observer.ts';
import { LiveObjects } from '../../forwarder/watch/live-objects.ts';
import { Metrics } from '../../forwarder/metrics.ts';
import type { OutgoingEvent } from '../../forwarder/observation.ts';
import type { KubernetesObject } from '@kubernetes/client-node';
import { compareSequence, type ObjectSequence } from '../../shared/k8s/object-sequence.ts';
import { parseInbound } from '../../shared/contract/parse-inbound.ts';
import { LABELS } from '../../shared/jobset/constants.ts';
import { aJob, aPod } from './objects.ts';
import { eventually, startHarness, type Harness } from './harness.ts';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

type Detail = { object: { metadata: { name: string } }; sequence?: ObjectSequence };
/** An Observer with no watch behind it, sending into `sent`: what the forwarder's watches call. */
const observerSending = (sent: OutgoingEvent[], now: () => number = () => 1_000) =>
  new Observer({ clusterId: 'c1', namespace: undefined, live: new LiveObjects(), submit: (e) => sent.push(e), metrics: new Metrics(), log: silentLogger, now });

/** The object as the API server shows it at resourceVersion `rv`. */
const atVersion = (object: { metadata?: object }, rv: string) =>
  ({ ...object, metadata: { ...object.metadata, resourceVersion: rv } }) as unknown as KubernetesObject;

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
    expect(parsed.ok && parsed.targets[0]?.entry.type === 'PodObserved' && (parsed.targets[0].entry.body as { sequence?: unknown }).sequence).toEqual(seen[0]?.sequence);
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

describe('The forwarder counts the pod events it sends for each Job (jobSeq)', () => {
  const jobSeqs = (h: Harness, names: readonly string[]) =>
    h.bus.delivered.filter((e) => names.includes((e.detail as Detail).object.metadata.name)).map((e) => (e.detail as Detail).sequence?.jobSeq);

  it('numbers a Job\'s pod events 1, 2, 3 … across its pods, in the order sent; another Job counts its own', async () => {
    harness = await startHarness();
    const h = harness;
    const train = h.kube.store.create('jobs', aJob({ name: 'train' }));
    const other = h.kube.store.create('jobs', aJob({ name: 'other' }));
    h.kube.store.create('pods', aPod(train, { name: 'train-a' }));
    h.kube.store.create('pods', aPod(other, { name: 'other-a' }));
    h.kube.store.create('pods', aPod(train, { name: 'train-b' }));
    h.kube.store.update('pods', 'default', 'train-a', (p) => void ((p.status as { phase: string }).phase = 'Succeeded'));
    h.kube.store.remove('pods', 'default', 'train-b');

    await eventually(() => expect(jobSeqs(h, ['train-a', 'train-b'])).toHaveLength(4));
    expect(jobSeqs(h, ['train-a', 'train-b'])).toEqual([1, 2, 3, 4]);
    expect(jobSeqs(h, ['other-a'])).toEqual([1]);
    expect(jobSeqs(h, ['train', 'other']).every((s) => s === undefined)).toBe(true);
  });

  it('does not count what a relist shows, and starts again at 1 with the watch after it', () => {
    const sent: OutgoingEvent[] = [];
    const observer = observerSending(sent);
    const job = aJob({ name: 'train' });
    const version = (rv: string, phase: string) => {
      const pod = aPod(job, { name: 'train-a', phase: phase as 'Running' });
      return { ...pod, metadata: { ...pod.metadata, uid: 'a', resourceVersion: rv } } as unknown as KubernetesObject;
    };
    const counts = () => sent.map((e) => (JSON.parse(e.detail) as Detail).sequence?.jobSeq);
    observer.relisted('Pod', []);
    observer.observed('Pod', version('1', 'Pending'));
    observer.observed('Pod', version('2', 'Running'));
    // The forwarder restarted, or its watch expired: the list shows the pod as it is now.
    observer.relisted('Pod', [version('3', 'Running')]);
    observer.observed('Pod', version('3', 'Running'));
    observer.observed('Pod', version('4', 'Succeeded'));
    observer.deleted('Pod', version('5', 'Succeeded'));
    expect(counts()).toEqual([1, 2, undefined, 1, 2]);
  });
});

describe('ObjectSequencer, per Job', () => {
  it('counts only what was sent, and forgets a deleted Job', () => {
    const sequencer = new ObjectSequencer(() => 1_000);
    sequencer.relisted('Pod');
    const first = sequencer.peek('Pod', 'p1', { owner: 'job' });
    expect(first.jobSeq).toBe(1);
    // Not sent (refused by the contract, too large): the next event takes the same number.
    expect(sequencer.peek('Pod', 'p2', { owner: 'job' }).jobSeq).toBe(1);
    sequencer.sent('Pod', 'p1', 'job', first);
    expect(sequencer.peek('Pod', 'p2', { owner: 'job' }).jobSeq).toBe(2);
    expect(sequencer.peek('Job', 'job', { owner: undefined }).jobSeq).toBeUndefined();
    sequencer.forgetJob('job');
    expect(sequencer.peek('Pod', 'p2', { owner: 'job' }).jobSeq).toBe(1);
  });
});

describe('The forwarder counts the Job events it sends for each JobSet (jobSetSeq)', () => {
  const ofJobSet = (name: string, jobSetUid: string) => {
    const job = aJob({ name });
    return { ...job, metadata: { ...job.metadata, labels: { ...job.metadata.labels, [LABELS.jobSetUid]: jobSetUid } } } as typeof job;
  };
  const jobSetSeqs = (h: Harness, names: readonly string[]) =>
    h.bus.delivered.filter((e) => names.includes((e.detail as Detail).object.metadata.name)).map((e) => (e.detail as Detail).sequence?.jobSetSeq);

  it('numbers a JobSet\'s Job events 1, 2, 3 … across its Jobs, in the order sent; another JobSet counts its own; a lone Job has none', async () => {
    harness = await startHarness();
    const h = harness;
    h.kube.store.create('jobs', ofJobSet('js-a-0', 'js-a'));
    h.kube.store.create('jobs', ofJobSet('js-b-0', 'js-b'));
    h.kube.store.create('jobs', ofJobSet('js-a-1', 'js-a'));
    h.kube.store.create('jobs', aJob({ name: 'alone' }));
    h.kube.store.update('jobs', 'default', 'js-a-0', (j) => void ((j.spec as { suspend?: boolean }).suspend = true));
    h.kube.store.remove('jobs', 'default', 'js-a-1');

    await eventually(() => expect(jobSetSeqs(h, ['js-a-0', 'js-a-1'])).toHaveLength(4));
    expect(jobSetSeqs(h, ['js-a-0', 'js-a-1'])).toEqual([1, 2, 3, 4]);
    expect(jobSetSeqs(h, ['js-b-0'])).toEqual([1]);
    await eventually(() => expect(jobSetSeqs(h, ['alone'])).toHaveLength(1));
    expect(jobSetSeqs(h, ['alone'])).toEqual([undefined]);
    // The service keeps the count: the contract reads it, the Job's log stores it.
    const observed = h.bus.delivered.find((e) => e['detail-type'] === 'Job Observed' && (e.detail as Detail).object.metadata.name === 'js-b-0');
    const parsed = parseInbound(observed);
    expect(parsed.ok && (parsed.targets[0]?.entry.body as { sequence?: ObjectSequence }).sequence?.jobSetSeq).toBe(1);
    // A child's deletion, routed to its JobSet's log as well, carries its count there (shared/jobset/child-counts.ts).
    const deletion = h.bus.delivered.find((e) => e['detail-type'] === 'Job Deleted' && (e.detail as Detail).object.metadata.name === 'js-a-1');
    const detail = deletion?.detail as Detail;
    const owned = { ...deletion, detail: { ...detail, object: { ...detail.object, metadata: { ...detail.object.metadata, ownerReferences: [{ apiVersion: 'jobset.x-k8s.io/v1alpha2', kind: 'JobSet', name: 'js-a', uid: 'js-a', controller: true }] } } } };
    const routed = parseInbound(owned);
    expect(routed.ok && routed.targets.map((t) => (t.entry.body as { jobSetSeq?: unknown }).jobSetSeq)).toEqual([undefined, { epoch: detail.sequence?.epoch, counts: [4] }]);
  });

  it('does not count what a relist of Jobs shows, and starts again at 1 with the watch after it; a pod relist leaves it alone', () => {
    const sent: OutgoingEvent[] = [];
    const observer = observerSending(sent);
    const job = ofJobSet('js-a-0', 'js-a');
    const version = (rv: string) => ({ ...job, metadata: { ...job.metadata, uid: 'j', resourceVersion: rv } }) as unknown as KubernetesObject;
    const counts = () => sent.map((e) => (JSON.parse(e.detail) as Detail).sequence?.jobSetSeq);
    observer.relisted('Job', []);
    observer.observed('Job', version('1'));
    observer.relisted('Pod', []);
    observer.observed('Job', version('2'));
    observer.relisted('Job', [version('3')]);
    observer.observed('Job', version('3'));
    observer.observed('Job', version('4'));
    observer.deleted('Job', version('5'));
    expect(counts()).toEqual([1, 2, undefined, 1, 2]);
  });
});

describe('The forwarder counts each Job\'s events and stamps its pods\' events with that count (jobEvents)', () => {
  type Counted = { object: { kind?: string; metadata: { name: string } }; sequence?: ObjectSequence };
  const counted = (sent: readonly OutgoingEvent[]) =>
    sent.map((e) => {
      const detail = JSON.parse(e.detail) as Counted;
      const { jobEvents, jobEpoch } = detail.sequence ?? {};
      return `${e.detailType} ${detail.object.metadata.name} ${jobEvents ?? '-'}${jobEpoch === undefined ? '' : `@${jobEpoch}`}`;
    });

  it('given a Job\'s watch events and its pods\', then each Job event carries its own count and each pod event the count sent before it; a list carries none and a relist of Jobs starts again', () => {
    const sent: OutgoingEvent[] = [];
    let now = 1_000;
    const observer = observerSending(sent, () => now);
    const job = aJob({ name: 'train' });
    const jobVersion = (rv: string, suspend = false) => ({ ...job, metadata: { ...job.metadata, resourceVersion: rv }, spec: { ...(job.spec as object), suspend } }) as unknown as KubernetesObject;
    const pod = (rv: string, phase: 'Pending' | 'Running' | 'Succeeded' = 'Running') => {
      const p = aPod(job, { name: 'train-a', phase });
      return { ...p, metadata: { ...p.metadata, resourceVersion: rv } } as unknown as KubernetesObject;
    };
    observer.relisted('Job', []);
    observer.relisted('Pod', []);
    observer.observed('Pod', pod('p1', 'Pending')); // no Job event sent yet: names none
    observer.observed('Job', jobVersion('1'));
    observer.observed('Job', jobVersion('2', true));
    observer.observed('Pod', pod('p2'));
    now = 2_000;
    observer.relisted('Job', [jobVersion('3', false)]);
    observer.observed('Job', jobVersion('3', false)); // the list's: not counted
    observer.observed('Pod', pod('p3')); // the new Job epoch has no Job event sent yet
    observer.observed('Job', jobVersion('4', true));
    observer.observed('Pod', pod('p4', 'Succeeded'));
    expect(counted(sent)).toEqual([
      'Pod Observed train-a -',
      'Job Observed train 1',
      'Job Observed train 2',
      'Pod Observed train-a 2@1000',
      'Job Observed train -',
      'Pod Observed train-a -',
      'Job Observed train 1',
      'Pod Observed train-a 1@2000',
    ]);
  });

  it('given a Job event refused by the contract, then it is not counted: the next takes its number', () => {
    const sent: OutgoingEvent[] = [];
    const observer = observerSending(sent);
    const job = aJob({ name: 'train' });
    const jobVersion = (rv: string) => atVersion(job, rv);
    observer.relisted('Job', []);
    observer.observed('Job', jobVersion('1'));
    observer.observed('Job', jobVersion('')); // no resourceVersion: refused by the contract, never sent
    observer.observed('Job', jobVersion('3'));
    expect(counted(sent)).toEqual(['Job Observed train 1', 'Job Observed train 2']);
  });

  it('given a deleted Job, then its deletion is counted and its pods\' later events name none', () => {
    const sent: OutgoingEvent[] = [];
    const observer = observerSending(sent);
    const job = aJob({ name: 'train' });
    const p = aPod(job, { name: 'train-a' });
    observer.relisted('Job', []);
    observer.relisted('Pod', []);
    observer.observed('Job', atVersion(job, '1'));
    observer.deleted('Job', atVersion(job, '2'));
    observer.observed('Pod', atVersion(p, '3'));
    expect(counted(sent)).toEqual(['Job Observed train 1', 'Job Deleted train 2', 'Pod Observed train-a -']);
  });

  it('given a pod event with the counts, then the contract keeps them for the Job\'s log; without them it parses as before', () => {
    const sent: OutgoingEvent[] = [];
    const observer = observerSending(sent);
    const job = aJob({ name: 'train' });
    const p = aPod(job, { name: 'train-a' });
    observer.relisted('Job', []);
    observer.relisted('Pod', []);
    observer.observed('Job', atVersion(job, '1'));
    observer.observed('Pod', atVersion(p, '2'));
    const [jobEvent, podEvent] = sent.map((e) => ({ source: e.source, 'detail-type': e.detailType, detail: JSON.parse(e.detail) as Counted }));
    const body = (event: unknown) => {
      const parsed = parseInbound(event);
      return parsed.ok ? (parsed.targets[0]?.entry.body as { sequence?: ObjectSequence }).sequence : undefined;
    };
    expect(body(jobEvent)?.jobEvents).toBe(1);
    expect(body(podEvent)).toMatchObject({ jobEvents: 1, jobEpoch: 1_000 });
    const { jobEvents: _n, jobEpoch: _e, ...older } = podEvent!.detail.sequence as ObjectSequence;
    expect(body({ ...podEvent, detail: { ...podEvent!.detail, sequence: older } })).toEqual(older);
    const refused = parseInbound({ ...podEvent, detail: { ...podEvent!.detail, sequence: { ...older, jobEvents: 0, jobEpoch: 1_000 } } });
    expect(refused.ok).toBe(false);
  });
});
