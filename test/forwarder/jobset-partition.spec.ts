import { describe, expect, it } from 'vitest';
import { observedEvent, type OutgoingEvent } from '../../forwarder/observation.ts';
import { MAX_ENTRY_BYTES } from '../../forwarder/send/batching.ts';
import { DEFAULT_PACK_LIMITS, PackBuffer, packEntries } from '../../forwarder/send/pack.ts';
import { parseInboundRecord } from '../../shared/contract/parse-inbound-record.ts';
import type { KubeObject } from './fake-kube-store.ts';
import { aJob, aPod } from './objects.ts';

// A JobSet's child Jobs and their pods go out keyed by the JobSet's uid, so the writer reads a
// JobSet's Jobs in the order the cluster reported them (docs/events.md, `partitionKey`); a pack
// still holds one Job's pods, and the service takes it keyed by the Job or by its JobSet.

const JOBSET_UID = 'js-uid-1';
const LABEL = 'jobset.sigs.k8s.io/jobset-uid';

function childJob(name: string): KubeObject {
  const job = aJob({ name });
  const metadata = {
    ...job.metadata,
    labels: { ...job.metadata.labels, [LABEL]: JOBSET_UID },
    ownerReferences: [{ apiVersion: 'jobset.x-k8s.io/v1alpha2', kind: 'JobSet', name: 'js', uid: JOBSET_UID, controller: true, blockOwnerDeletion: true }],
  };
  return { ...job, metadata };
}

/** A pod event of `job`; a JobSet's Job's pods carry the JobSet's uid label (the pod template's). */
function podEvent(job: KubeObject, n: number): OutgoingEvent {
  const pod = aPod(job, { name: `${job.metadata.name}-${n}`, index: n });
  const jobSet = job.metadata.labels?.[LABEL];
  const labels = jobSet === undefined ? pod.metadata.labels : { ...pod.metadata.labels, [LABEL]: jobSet };
  const labelled = { ...pod, metadata: { ...pod.metadata, resourceVersion: String(100 + n), labels } };
  const result = observedEvent('c1', 'Pod', labelled, '2026-01-01T00:00:10.000Z', { epoch: 1, seq: n });
  if (!result.ok) throw new Error(result.reason);
  return result.event;
}

const parse = (event: OutgoingEvent) => parseInboundRecord({ source: event.source, 'detail-type': event.detailType, detail: JSON.parse(event.detail) });

describe('a JobSet\'s child Jobs and their pods', () => {
  it('are keyed by the JobSet\'s uid, a Job by its owner, a pod by its label', () => {
    const job = childJob('js-a-0');
    const observed = observedEvent('c1', 'Job', { ...job, metadata: { ...job.metadata, resourceVersion: '7' } }, '2026-01-01T00:00:10.000Z');
    if (!observed.ok) throw new Error(observed.reason);
    expect(observed.event.partitionKey).toBe(JOBSET_UID);
    expect(podEvent(job, 1).partitionKey).toBe(JOBSET_UID);
    const plain = aJob();
    expect(podEvent(plain, 1).partitionKey).toBe(plain.metadata.uid);
  });

  it('are packed per Job, and the service takes each pack as that Job\'s', () => {
    const a = childJob('js-a-0');
    const b = childJob('js-b-0');
    const buffer = new PackBuffer(DEFAULT_PACK_LIMITS);
    const events = [podEvent(a, 1), podEvent(b, 1), podEvent(a, 2), podEvent(b, 2)];
    for (const event of events) buffer.add(event, 0);
    const packs = buffer.drain();
    expect(packs).toHaveLength(2);
    for (const pack of packs) {
      expect(pack.partitionKey).toBe(JOBSET_UID);
      const parsed = parse(pack);
      expect(parsed.ok && parsed.refused).toEqual([]);
      expect(parsed.ok && new Set(parsed.primary.map((t) => t.stream.uid)).size).toBe(1);
    }
  });

  it('in one pack of two Jobs are refused as a whole: a pack holds one Job', () => {
    const [pack] = packEntries([podEvent(childJob('js-a-0'), 1), podEvent(childJob('js-b-0'), 1)], MAX_ENTRY_BYTES);
    const parsed = parse(pack!);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.errors[0]?.message).toMatch(/a pack holds the observations of one Job/);
  });
});
