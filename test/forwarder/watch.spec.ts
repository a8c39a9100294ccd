import { CoreV1Api } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { kubeConfigFor } from '../../forwarder/kube-config.ts';
import { observedEvent } from '../../forwarder/observation.ts';
import { parseInbound } from '../../shared/contract/parse-inbound.ts';
import { FakeKubeApi } from './fake-kube-api.ts';
import { aJob, aPod, aStandalonePod } from './objects.ts';
import { CLUSTER_ID, eventually, startFakes, startHarness, type Harness } from './harness.ts';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const detailTypes = (h: Harness) => h.bus.delivered.map((e) => `${e['detail-type']} ${(e.detail as { object: { metadata: { name: string } } }).object.metadata.name}`);

describe('Watching Jobs and Pods', () => {
  describe('Given objects that exist before the forwarder starts', () => {
    it('gives the same result for a listed object (client model classes, Date timestamps) as for a watched one (raw JSON)', async () => {
      const api = await FakeKubeApi.start();
      const watched = api.store.create('pods', aPod(aJob(), { name: 'p', phase: 'Failed' }));
      const [listed] = (await kubeConfigFor({ kubeServer: api.url }).makeApiClient(CoreV1Api).listPodForAllNamespaces()).items;
      await api.close();

      expect(listed?.status?.containerStatuses?.[0]?.state?.terminated?.finishedAt).toBeInstanceOf(Date);
      const at = '2026-01-01T00:00:10.000Z';
      expect(observedEvent('c1', 'Pod', listed, at)).toEqual(observedEvent('c1', 'Pod', watched, at));
    });

    it('reports every Job and every Job pod from the initial list, and no other pod', async () => {
      const fakes = await startFakes();
      const job = fakes.kube.store.create('jobs', aJob({ name: 'train' }));
      fakes.kube.store.create('pods', aPod(job, { name: 'train-a' }));
      fakes.kube.store.create('pods', aStandalonePod('web'));

      harness = await startHarness({ fakes });

      const h = harness;
      await eventually(() => expect(detailTypes(h).sort()).toEqual(['Job Observed train', 'Pod Observed train-a']));
      expect(h.kube.listRequests('pods')[0]?.query.get('labelSelector')).toBe('batch.kubernetes.io/controller-uid');
    });

    it('sends events that parseInbound accepts, with eventId uid/resourceVersion and trimmed objects', async () => {
      const fakes = await startFakes();
      const job = fakes.kube.store.create('jobs', aJob({ name: 'train' }));
      const pod = fakes.kube.store.create('pods', aPod(job, { name: 'train-a', phase: 'Failed', exitCode: 3 }));

      harness = await startHarness({ fakes });

      const h = harness;
      await eventually(() => expect(h.bus.delivered).toHaveLength(2));
      const podEvent = h.bus.delivered.find((e) => e['detail-type'] === 'Pod Observed');
      const jobEvent = h.bus.delivered.find((e) => e['detail-type'] === 'Job Observed');
      for (const event of h.bus.delivered) {
        const parsed = parseInbound(event);
        expect(parsed, JSON.stringify(parsed)).toMatchObject({ ok: true, targets: [{ stream: { kind: 'Job', clusterId: CLUSTER_ID, uid: job.metadata.uid } }] });
      }
      expect(podEvent?.source).toBe(`jobfold.cluster.${CLUSTER_ID}`);
      expect(podEvent?.eventBusName).toBe('jobfold');
      const detail = podEvent?.detail as { eventId: string; object: Record<string, any> };
      expect(detail.eventId).toBe(`${pod.metadata.uid}/${pod.metadata.resourceVersion}`);
      expect(detail.object.status.containerStatuses[0].state.terminated.exitCode).toBe(3);
      expect(detail.object.spec).toEqual({ nodeName: 'node-1', restartPolicy: 'Never' });
      const jobDetail = jobEvent?.detail as { object: { metadata: Record<string, unknown> } };
      expect(jobDetail.object.metadata.managedFields).toBeUndefined();
      expect(jobDetail.object.metadata.annotations).toBeUndefined();
    });
  });

  describe('Given a running forwarder', () => {
    it('reports pod updates and deletions from the watch', async () => {
      harness = await startHarness();
      const h = harness;
      const job = h.kube.store.create('jobs', aJob({ name: 'train' }));
      const pod = h.kube.store.create('pods', aPod(job, { name: 'train-a' }));
      h.kube.store.update('pods', 'default', 'train-a', (p) => void ((p.status as { phase: string }).phase = 'Succeeded'));
      h.kube.store.remove('pods', 'default', 'train-a');

      // Jobs and pods come from two watches; the order holds within each.
      const podEvents = () => detailTypes(h).filter((t) => t.startsWith('Pod'));
      await eventually(() => expect(podEvents()).toEqual(['Pod Observed train-a', 'Pod Observed train-a', 'Pod Deleted train-a']));
      expect(h.bus.eventIds()).toContain(`${pod.metadata.uid}/deleted`);
      await eventually(() => expect(detailTypes(h)).toContain('Job Observed train'));
      for (const event of h.bus.delivered) expect(parseInbound(event).ok).toBe(true);
    });

    it('asks for bookmarks and keeps watching across them', async () => {
      harness = await startHarness();
      const h = harness;
      await eventually(() => expect(h.kube.watchCount('pods')).toBe(1));
      expect(h.kube.watchRequests('pods')[0]?.query.get('allowWatchBookmarks')).toBe('true');
      h.kube.bookmark();
      const job = h.kube.store.create('jobs', aJob({ name: 'after-bookmark' }));
      await eventually(() => expect(h.bus.eventIds()).toEqual([`${job.metadata.uid}/${job.metadata.resourceVersion}`]));
    });

    it('reconnects from the last resourceVersion when the watch stream ends, losing nothing', async () => {
      harness = await startHarness();
      const h = harness;
      const job = h.kube.store.create('jobs', aJob({ name: 'train' }));
      await eventually(() => expect(h.bus.delivered).toHaveLength(1));
      const watchesBefore = h.kube.watchRequests('pods').length;

      h.kube.dropWatches('clean');
      h.kube.store.create('pods', aPod(job, { name: 'during-the-gap' }));

      await eventually(() => expect(detailTypes(h).sort()).toEqual(['Job Observed train', 'Pod Observed during-the-gap']));
      expect(h.kube.watchRequests('pods').length).toBeGreaterThan(watchesBefore);
      expect(h.kube.listRequests('pods')).toHaveLength(1);
    });

    it('restarts the watch after the connection breaks', async () => {
      harness = await startHarness();
      const h = harness;
      await eventually(() => expect(h.kube.watchCount('jobs')).toBe(1));

      h.kube.dropWatches('abrupt');
      const job = h.kube.store.create('jobs', aJob({ name: 'after-break' }));

      await eventually(() => expect(h.bus.eventIds()).toEqual([`${job.metadata.uid}/${job.metadata.resourceVersion}`]));
      expect(h.metrics.get('forwarder_watch_errors_total', { kind: 'Job' })).toBeGreaterThan(0);
    });

    it('relists on 410 Gone and reports what was deleted in between', async () => {
      harness = await startHarness();
      const h = harness;
      const job = h.kube.store.create('jobs', aJob({ name: 'train' }));
      const doomed = h.kube.store.create('pods', aPod(job, { name: 'doomed' }));
      await eventually(() => expect(h.bus.delivered).toHaveLength(2));

      h.kube.dropWatches('clean');
      h.kube.store.remove('pods', 'default', 'doomed');
      h.kube.store.create('pods', aPod(job, { name: 'newcomer' }));
      h.kube.store.compact();

      await eventually(() => expect(detailTypes(h).slice(2).sort()).toEqual(['Pod Deleted doomed', 'Pod Observed newcomer']));
      expect(h.kube.listRequests('pods').length).toBeGreaterThanOrEqual(2);
      expect(h.bus.eventIds()).toContain(`${doomed.metadata.uid}/deleted`);
    });

    it('keeps trying when the API server fails the list', async () => {
      const fakes = await startFakes();
      fakes.kube.failNext('GET', /^\/apis\/batch\/v1\/jobs$/, 500, 2);
      const job = fakes.kube.store.create('jobs', aJob({ name: 'patient' }));

      harness = await startHarness({ fakes });

      const h = harness;
      await eventually(() => expect(h.bus.eventIds()).toEqual([`${job.metadata.uid}/${job.metadata.resourceVersion}`]));
      expect(h.metrics.get('forwarder_watch_errors_total', { kind: 'Job' })).toBe(2);
    });

    it('watches one namespace when told to', async () => {
      harness = await startHarness({ namespace: 'team-a' });
      const h = harness;
      h.kube.store.create('jobs', aJob({ name: 'other', namespace: 'team-b' }));
      h.kube.store.create('jobs', aJob({ name: 'mine', namespace: 'team-a' }));

      await eventually(() => expect(detailTypes(h)).toEqual(['Job Observed mine']));
      expect(h.kube.watchRequests('jobs')[0]?.path).toBe('/apis/batch/v1/namespaces/team-a/jobs');
    });
  });
});
