import { describe, expect, it } from 'vitest';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { OutboundDetailType } from '../../../shared/contract/outbound.ts';
import { JOBFOLD_JOBSET_CONTROLLER_NAME } from '../../../shared/jobset/constants.ts';
import { createServiceHarness } from '../../support/service-harness.ts';
import { jobSetPath, queryClient } from '../query/support/query-client.ts';
import { wideJobSet } from '../jobset/support/builders.ts';

// A JobSet of 500 replicated Jobs × 2 replicas, which jobfold manages: its first sync decides
// 1,000 Job creations, far more than one commit step holds. The write loop cuts the sync into
// conditioned steps at decision bounds, each creation travelling with its own decision, so the
// JobSet is decided and visible, and each creation is published once.

const CLUSTER = 'c1';
const stream: StreamId = { kind: 'JobSet', clusterId: CLUSTER, namespace: 'default', uid: 'wide-uid' };
const REPLICATED = 500;
const REPLICAS = 2;

describe('Given a JobSet of 500 replicated Jobs × 2 replicas that jobfold manages', () => {
  it('when it is observed, then it is decided and visible, and each of its 1,000 Job creations is published once', async () => {
    const h = createServiceHarness({ store: new InMemoryEventStore(), now: '2026-01-01T00:00:01Z' });
    const event = {
      source: `jobfold.cluster.${CLUSTER}`,
      'detail-type': 'JobSet Observed',
      detail: { eventId: 'wide/1', observedAt: '2026-01-01T00:00:00Z', object: wideJobSet(stream.uid, REPLICATED, REPLICAS, JOBFOLD_JOBSET_CONTROLLER_NAME) },
    };

    expect(await h.deliver([event])).toEqual([]);
    expect(h.rejected).toEqual([]);
    await h.publish();

    const created = h.bus.sent.filter((e) => e.detailType === OutboundDetailType.CreateJob);
    expect(created).toHaveLength(REPLICATED * REPLICAS);
    expect(new Set(created.map((e) => e.detail['jobName'])).size).toBe(REPLICATED * REPLICAS);
    const log = await h.log(stream);
    expect(log.filter((e) => e.type === 'CreateJobIssued')).toHaveLength(REPLICATED * REPLICAS);
    const get = queryClient({ store: h.store, config: h.writerDeps.config });
    const view = await get(jobSetPath(CLUSTER, 'default', 'wide'));
    expect(view.status).toBe(200);
    expect(view.body.status.replicatedJobsStatus).toHaveLength(REPLICATED);
    const listed = await get('/v1/jobsets', { cluster: CLUSTER });
    expect(listed.body.items.map((item: { name: string }) => item.name)).toEqual(['wide']);
  }, 120_000);
});
