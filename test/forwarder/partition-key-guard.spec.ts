import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../forwarder/log.ts';
import { Metrics } from '../../forwarder/metrics.ts';
import type { KubernetesObject } from '@kubernetes/client-node';
import { observedEvent, type OutgoingEvent } from '../../forwarder/observation.ts';
import { LiveObjects } from '../../forwarder/watch/live-objects.ts';
import { Observer } from '../../forwarder/watch/observer.ts';
import { aJob, aPod } from './objects.ts';

// Issue 14: the forwarder never sends a partition key the ingest stream cannot take (Kinesis:
// 1–256 characters). EventBridge would dead-letter such an event at the rule's Kinesis target;
// without a key it is keyed by its event id, which costs ordering only, and a metric says so.

const job = { ...aJob(), metadata: { ...aJob().metadata, resourceVersion: '7' } };
const podOwnedBy = (ownerUid: string) => {
  const pod = aPod(job, { name: 'p' });
  return { ...pod, metadata: { ...pod.metadata, resourceVersion: '9', ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'j', uid: ownerUid, controller: true }] } };
};
const keyOf = (e: OutgoingEvent) => (JSON.parse(e.detail) as { partitionKey?: string }).partitionKey;

describe('given a pod whose owning Job uid is no Kinesis partition key', () => {
  it.each([['of 257 characters', 'u'.repeat(257)], ['with a lone surrogate', 'u\uD800']])('when the uid is %s, then the event is sent without a key, saying why', (_name, uid) => {
    const result = observedEvent('c1', 'Pod', podOwnedBy(uid), '2026-01-01T00:00:10.000Z');
    if (!result.ok) throw new Error(result.reason);
    expect(keyOf(result.event)).toBeUndefined();
    expect(result.partitionKeyDropped).toMatch(/^partitionKey (must be at most 256|is not well-formed)/);
  });

  it('when the uid is 256 characters, then it is the key', () => {
    const result = observedEvent('c1', 'Pod', podOwnedBy('u'.repeat(256)), '2026-01-01T00:00:10.000Z');
    if (!result.ok) throw new Error(result.reason);
    expect(keyOf(result.event)).toBe('u'.repeat(256));
    expect(result.partitionKeyDropped).toBeUndefined();
  });

  it('when the observer sends it, then forwarder_partition_keys_dropped_total counts it', () => {
    const metrics = new Metrics();
    const sent: OutgoingEvent[] = [];
    const observer = new Observer({ clusterId: 'c1', namespace: undefined, live: new LiveObjects(), submit: (e) => sent.push(e), metrics, log: silentLogger, now: () => 0 });
    const healthy = podOwnedBy(job.metadata.uid ?? '');
    observer.observed('Pod', podOwnedBy('u'.repeat(300)) as unknown as KubernetesObject);
    observer.observed('Pod', { ...healthy, metadata: { ...healthy.metadata, uid: 'other', resourceVersion: '10' } } as unknown as KubernetesObject);
    expect(sent.map(keyOf)).toEqual([undefined, job.metadata.uid]);
    expect(metrics.get('forwarder_partition_keys_dropped_total', { kind: 'Pod' })).toBe(1);
  });
});
