import { describe, expect, it } from 'vitest';
import { aJob, aPod, at, podObserved } from '../../support/builders.ts';
import { writeWarm } from '../../property/job/stored-log.ts';

// Issue 21: a pod's observation with its tracking finalizer, made in the same second as the first
// one without it, arriving after both. A cluster never puts the finalizer back (only the sync that
// counted the pod removes it), so the tracked observation is the older one: the evidence the
// cluster's sync counted the pod by. The fold took it as made at or after the removal (same
// second) and never counted the success: `succeeded` 0 where the cluster's order counts 1. Found
// by the generated cluster histories (generated-orders.property.spec.ts, seed-5/history-4, 8 of
// 10 deliveries apart; docs/ordering.md, the deadline row traced).

const job = aJob({ completions: 2, parallelism: 1 });
// p1 succeeded at 6:45, seen tracked at 6:46 (version 6), without its finalizer at 6:46 (8) and 7:21 (10)
const p1 = (version: string, seconds: number, finalizer: boolean) =>
  podObserved(aPod({ name: 'p1', phase: 'Succeeded', finishedAt: at(405), finalizer, resourceVersion: version }), at(seconds));

const finalStatus = async (batches: { at: string; events: ReturnType<typeof podObserved>[] }[]) =>
  (await writeWarm(job, batches, batches.map(() => false))).written.at(-1)?.status;

describe('a success seen tracked in the second its finalizer was removed, arriving after the untracked observations', () => {
  it('given the cluster order, when folded, then the success counts', async () => {
    const status = await finalStatus([
      { at: at(406), events: [p1('6', 406, true), p1('8', 406, false)] },
      { at: at(441), events: [p1('10', 441, false)] },
    ]);
    expect(status).toMatchObject({ succeeded: 1 });
  });

  it('given the untracked observations first and the tracked one last, when folded, then the success counts as in the cluster order', async () => {
    const status = await finalStatus([
      { at: at(441), events: [p1('10', 441, false)] },
      { at: at(406), events: [p1('8', 406, false)] },
      { at: at(406), events: [p1('6', 406, true)] },
    ]);
    expect(status).toMatchObject({ succeeded: 1 });
  });

  it('given a pod only ever seen without its finalizer, when folded, then nothing tells that this Job counted it: not counted', async () => {
    const status = await finalStatus([
      { at: at(441), events: [p1('10', 441, false)] },
      { at: at(406), events: [p1('8', 406, false)] },
    ]);
    expect(status).toMatchObject({ succeeded: 0 });
  });
});
