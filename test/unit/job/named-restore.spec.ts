import { describe, expect, it } from 'vitest';
import type { JobEvent } from '../../../shared/job/evolve.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { aJob, aPod, at, podObserved, tick } from '../../support/builders.ts';
import { queryFold, replayTo, writeCold, writeWarm, type StoredLog } from '../../property/job/stored-log.ts';

// Issues 20, 21: same log => same status, for a Job without a success policy too. The query API
// (status?at=, /explain) and a writer loaded cold fold from a snapshot with only the archived
// pods their tail names (shared/job/archive-restore.ts). Folding FailureTarget notes the instant
// its criterion was met (state.outcomeMetAt), which tells the pods the cluster saw only after it
// finished the Job. Read from the pods, it was unknown where the failure that met it was
// archived: a pod seen after the finish was then counted failed (2, where a replay says 1).
// The writer logs it with the condition (evidence.metAt), deciding on every pod; a log written
// before (no metAt) is folded by the walk, with the whole archive restored.

const job = aJob({ parallelism: 2, completions: 2, backoffLimit: 0 });
const batches = [
  // given a Job whose sync asked for 2 pods at 0:00
  { at: at(0), events: [tick(at(0))] },
  // and p0 seen failed at 0:01, alone (its sync waits for the other creation), archived by the snapshot after it
  { at: at(1), events: [podObserved(aPod({ name: 'p0', phase: 'Failed' }), at(1))] },
  // and p1 first seen at 6:41, after the expectations' timeout: the backoff limit was exceeded at 0:01,
  // and the cluster finished the Job before it saw p1 (at 5:01)
  { at: at(401), events: [podObserved(aPod({ name: 'p1' }), at(401))] },
];
const snapshotAfter = [false, true, false];

/** The log as a writer before fold-2026-11-29.35 wrote it: FailureTarget without its criterion's instant. */
function withoutMetAt(log: StoredLog): void {
  log.entries.forEach((entry, i) => {
    if (entry.type !== 'JobConditionChanged' || entry.condition.type !== 'FailureTarget') return;
    const { metAt: _, ...evidence } = entry.evidence;
    log.entries[i] = { ...entry, evidence } as JobEvent;
  });
}

describe('a fold from a snapshot of a Job without a success policy whose failure was archived', () => {
  it('the writer logs the criterion\'s instant with FailureTarget', async () => {
    const { log } = await writeWarm(job, batches, snapshotAfter);
    const failureTarget = log.entries.find((e) => e.type === 'JobConditionChanged' && e.condition.type === 'FailureTarget');
    expect(failureTarget?.type === 'JobConditionChanged' ? failureTarget.evidence.metAt : 'none').toBe(at(1));
  });

  it('folds to every position as a replay, restoring only the archived pods its tail names', async () => {
    const { log, statuses } = await writeWarm(job, batches, snapshotAfter);
    for (let seq = 1; seq <= log.head; seq++) expect({ seq, status: jobStatus(await queryFold(log, seq)) }).toEqual({ seq, status: statuses[seq] });
    // then p1, seen after the cluster finished the Job, is not counted
    expect(statuses[log.head]).toMatchObject({ failed: 1 });
    // no fold reads the archive whole: not the FailureTarget's (its instant is logged), nor the
    // finish's leave-out walk (finish-walk.ts: p0, archived, was seen by the criterion's instant,
    // and a Job not Indexed reads no pod at an unseen pod's index)
    expect(log.archive.wholeReads).toBe(0);
  });

  it('folds a log written without the instant as a replay, restoring the whole archive', async () => {
    const { log } = await writeWarm(job, batches, snapshotAfter);
    withoutMetAt(log);
    const folded = await queryFold(log, log.head);
    expect(jobStatus(folded)).toEqual(jobStatus(replayTo(log, log.head)));
    expect(jobStatus(folded)).toMatchObject({ failed: 1 });
    expect(log.archive.wholeReads).toBe(1);
  });

  it('a writer loaded cold decides as one kept warm', async () => {
    const warm = await writeWarm(job, batches, snapshotAfter);
    expect(await writeCold(job, batches, snapshotAfter)).toEqual(warm.written);
  });
});
