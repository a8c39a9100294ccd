import { describe, expect, it } from 'vitest';
import { jobStatus } from '../../../shared/job/status.ts';
import { aJob, aPod, at, jobObserved, podObserved } from '../../support/builders.ts';
import { queryFold, writeCold, writeWarm } from '../../property/job/stored-log.ts';

// Issue 21: the bus may deliver a Job's pods before the Job itself, and the writer stores what
// arrives. Before the Job is seen nothing decides how its pods count (its failure policy, its
// success policy), so a snapshot then archives none of them: a pod archived before it, and not
// named by the tail after, was left out of the decisions the Job's arrival makes (a cold writer
// and the query then missed a FailJob rule the warm writer and the replay applied).
// Found by stored-orders.property.spec.ts (cluster history 13, delivery 2).

const job = aJob({ backoffLimit: 6, podFailurePolicy: { rules: [{ name: 'Fatal', action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } }] } });
const batches = [
  // given p0 seen failed with exit code 42, its tracking finalizer already gone, before its Job
  { at: at(10), events: [podObserved(aPod({ name: 'p0', phase: 'Failed', exitCode: 42, finalizer: false }), at(10))] },
  // and a snapshot after it; when the Job, whose podFailurePolicy fails it on exit code 42, arrives
  { at: at(20), events: [jobObserved(job, at(20))] },
];
const snapshotAfter = [true, false];

describe('a Job whose pods arrive before it, folded from a snapshot taken before it arrived', () => {
  it('a writer loaded cold applies the failure policy to them as one kept warm', async () => {
    const warm = await writeWarm(undefined, batches, snapshotAfter);
    // then the warm writer fails the Job on p0's exit code
    expect(warm.written[1]?.status.conditions.map((c) => c.reason)).toContain('PodFailurePolicy_Fatal');
    expect(await writeCold(undefined, batches, snapshotAfter)).toEqual(warm.written);
  });

  it('folds to every position as a replay', async () => {
    const { log, statuses } = await writeWarm(undefined, batches, snapshotAfter);
    for (let seq = 1; seq <= log.head; seq++) expect({ seq, status: jobStatus(await queryFold(log, seq)) }).toEqual({ seq, status: statuses[seq] });
  });
});
