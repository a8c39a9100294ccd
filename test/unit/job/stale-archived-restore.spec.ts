import { describe, expect, it } from 'vitest';
import { jobStatus } from '../../../shared/job/status.ts';
import { aJob, aPod, at, jobObserved, podDeleted, podObserved } from '../../support/builders.ts';
import { queryFold, writeCold, writeWarm } from '../../property/job/stored-log.ts';

// Issue 21: an older observation of a pod may arrive after newer ones (the bus's order), and the
// fold tells it by the pod's resourceVersion (KEP-5504) or the forwarder's stamp: a late copy of a
// counted pod changes nothing of it but the instant its outcome was seen, which moves back to the
// copy's (observe-pod.ts outcomeSeenEarlier). An archived pod was restored without its version, so
// after a cold load the same late copy was folded as news, and the writer decided otherwise than
// the warm one. Found by stored-orders.property.spec.ts (cluster history 21, delivery 3).

const job = aJob({ completionMode: 'Indexed', completions: 3, parallelism: 3, suspend: true, successPolicy: { rules: [{ succeededIndexes: '0' }] } });
// p0 of index 0 succeeded (before the Job was seen) and is being deleted, at each observation's instant.
const p0 = (resourceVersion: string, seconds: number) =>
  podObserved(aPod({ name: 'p0', index: 0, phase: 'Succeeded', resourceVersion, deletionTimestamp: at(seconds) }), at(seconds));
const batches = [
  // given p0 seen succeeded at 1:00 (resourceVersion 4), then its Job (suspended): the success policy is met
  { at: at(60), events: [p0('4', 60)] },
  { at: at(61), events: [jobObserved(job, at(61))] },
  // and a snapshot after an unknown pod's deletion, which archives p0
  { at: at(128), events: [podDeleted('p1', at(128))] },
  // when a late copy of an older version of p0 (2), seen at 0:00, arrives
  { at: at(0), events: [p0('2', 0)] },
];
const snapshotAfter = [false, false, true, false];

describe('a late, older observation of an archived pod', () => {
  it('a writer loaded cold decides on it as one kept warm does', async () => {
    const warm = await writeWarm(undefined, batches, snapshotAfter);
    // then the warm writer takes the success's instant back to the copy's, 0:00, as the cluster's order has it
    expect(warm.written[3]?.decisions.filter((d) => d.type !== 'JobStatusSent')).toMatchObject([{ type: 'CriterionMetEarlier', metAt: at(0), was: at(60) }]);
    expect(await writeCold(undefined, batches, snapshotAfter)).toEqual(warm.written);
  });

  it('folds to every position as a replay', async () => {
    const { log, statuses } = await writeWarm(undefined, batches, snapshotAfter);
    for (let seq = 1; seq <= log.head; seq++) expect({ seq, status: jobStatus(await queryFold(log, seq)) }).toEqual({ seq, status: statuses[seq] });
  });
});
