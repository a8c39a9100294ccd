import { describe, expect, it } from 'vitest';
import { aJob, aPod, at, jobObserved, podObserved } from '../../support/builders.ts';
import { writeCold, writeWarm } from '../../property/job/stored-log.ts';

// Issues 20, 21: a late, older observation of a failed pod, showing it with its tracking
// finalizer, counts it as the sync that read it counted it: the pod failure policy matched
// against that observation (upstream matchPodFailurePolicy on the pod its informer held), not
// against a newer one. The fold kept the match of the newer observation (a DisruptionTarget
// condition, ignored by the policy), so a writer kept warm left the failure uncounted while one
// loaded cold, whose archived pod keeps no match, counted it: the same log, two statuses. Found by
// stored-orders.property.spec.ts at seed 5 (free history-4, delivery 5; 60 x (1 + 10)).

const job = aJob({
  completions: 2,
  parallelism: 1,
  backoffLimit: 1,
  activeDeadlineSeconds: 900,
  podReplacementPolicy: 'Failed',
  podFailurePolicy: {
    rules: [
      { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
      { action: 'Count', onExitCodes: { operator: 'In', values: [1] } },
    ],
  },
});
// p4 failed with exit code 42 (no rule matches it: it counts), seen at 0:00 tracked and being
// deleted, then at 6:40 without its finalizer and with a DisruptionTarget condition.
const tracked = podObserved(aPod({ name: 'p4', phase: 'Failed', exitCode: 42, deletionTimestamp: at(0), resourceVersion: '3' }), at(0));
const stripped = podObserved(aPod({ name: 'p4', phase: 'Failed', exitCode: 42, finalizer: false, conditions: [{ type: 'DisruptionTarget' }], resourceVersion: '4' }), at(400));

const status = async (batches: { at: string; events: ReturnType<typeof podObserved>[] }[]) =>
  (await writeWarm(job, batches, batches.map(() => false))).written.at(-1)?.status;

describe('a failed pod counted by a late observation that shows it tracked', () => {
  it('given the cluster order (tracked, then stripped with DisruptionTarget), when folded, then it counts failed', async () => {
    expect(await status([{ at: at(0), events: [tracked] }, { at: at(400), events: [stripped] }])).toMatchObject({ failed: 1 });
  });

  it('given the stripped observation first, when the tracked one arrives after, then it counts failed as in the cluster order', async () => {
    expect(await status([{ at: at(400), events: [stripped] }, { at: at(0), events: [tracked] }])).toMatchObject({ failed: 1 });
  });

  it('given a snapshot between the two (the pod archived), when a writer loaded cold folds the late one, then it writes what a warm writer writes', async () => {
    const batches = [{ at: at(400), events: [stripped] }, { at: at(0), events: [tracked] }];
    const snapshotAfter = [true, false];
    const warm = await writeWarm(job, batches, snapshotAfter);
    expect(warm.written.at(-1)?.status).toMatchObject({ failed: 1 });
    expect(await writeCold(job, batches, snapshotAfter)).toEqual(warm.written);
  });
});
