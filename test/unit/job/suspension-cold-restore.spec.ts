import { describe, expect, it } from 'vitest';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import { aJob, aPod, at, jobObserved, podDeleted, podObserved } from '../../support/builders.ts';
import { writeCold, writeWarm } from '../../property/job/stored-log.ts';

// Issues 20, 21: a writer loaded cold decides as one kept warm. A Job jobfold runs, seen
// suspended, then failed: the outcome's decision weighs the suspension against the instant the
// failure criterion was met, read from every pod (suspension-order.ts retractLateSuspension).
// Met before the suspension, Suspended is taken back (JobOutcomeCorrected). A writer loaded from
// a snapshot that archived the failure that met it held only the pods its batch names: it kept
// Suspended where the warm one took it back. Found by stored-orders.property.spec.ts (seed 7,
// free history 32, delivery 9, minimized).

const job = aJob({ managedBy: JOBFOLD_CONTROLLER_NAME, parallelism: 2, completions: 2, backoffLimit: 1, suspend: true });
const failed = { phase: 'Failed', exitCode: 1 } as const;
const batches = [
  // given a Job seen suspended at 7:48
  { at: at(468), events: [jobObserved(job, at(468))] },
  // and p4 failed at 7:42 (seen at 7:43), its deletion seen, then its last observation, archived by the snapshot after it
  { at: at(463), events: [podObserved(aPod({ ...failed, name: 'p4', finishedAt: at(462), deletionTimestamp: at(463), resourceVersion: '6' }), at(463))] },
  { at: at(401), events: [podDeleted('p4', at(401))] },
  { at: at(898), events: [podObserved(aPod({ ...failed, name: 'p4', finishedAt: at(462), resourceVersion: '10' }), at(898))] },
  // when p0's failure at 7:10 arrives: the backoff limit was exceeded at 7:43, before the suspension
  { at: at(431), events: [podObserved(aPod({ ...failed, name: 'p0', finishedAt: at(430), resourceVersion: '3' }), at(431))] },
];
const snapshotAfter = [false, false, false, true, false];

describe('a cold writer deciding the failure of a suspended Job jobfold runs', () => {
  it('takes Suspended back as a writer kept warm does', async () => {
    const warm = await writeWarm(undefined, batches, snapshotAfter);
    // then the warm writer takes Suspended back, the criterion met at 7:43
    expect(warm.written[4]?.decisions.map((d) => d.type)).toContain('JobOutcomeCorrected');
    // and the cold one decides the same
    const cold = await writeCold(undefined, batches, snapshotAfter);
    cold.forEach((written, batch) => expect({ batch, ...written }).toEqual({ batch, ...warm.written[batch] }));
  });
});
