import { describe, expect, it } from 'vitest';
import { bodyJson, MAX_ENTRY_BODY_BYTES, textBytes } from '../../../shared/log/event-store-limits.ts';
import { decisionEntry } from '../../../shared/job/log-codec.ts';
import { decide } from '../../../shared/job/decide.ts';
import { DecisionSchema, type DecisionOf } from '../../../shared/job/decisions.ts';
import type { PodObserved } from '../../../shared/job/events.ts';
import { evolve, type JobEvent } from '../../../shared/job/evolve.ts';
import { jobCorrectionSentence } from '../../../shared/job/explain.ts';
import { REOPENING_PODS_NAMED } from '../../../shared/job/outcome-correction.ts';
import { restoreSnapshot, takeSnapshot, type JobSnapshot } from '../../../shared/job/snapshot.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { aJob, aPod, at, podDeleted, podObserved, tick } from '../../support/builders.ts';
import { conditionsOf, given, play } from '../../support/job-spec.ts';

// Issue 21, the reopening's evidence (outcome-correction.ts reopenFinish): a Job jobfold does not
// run, failed at once on p-fail's failure at 65 s, then learns from observations made at 30 s
// (arriving after, in one run of one instant, so one decide reads them all) that the cluster's
// Job still ran those pods: Failed is taken back. The entry names the first REOPENING_PODS_NAMED
// pods and counts all, so it stays under the store's entry limit at any size (before, it named
// every pod: 100,000 of them is ~5 MB, the commit fails with StoreLimitError and the log is
// parked), and Failed follows once their deletions arrive.

const failed = { ...podObserved(aPod({ name: 'p-fail', resourceVersion: '100000000', phase: 'Failed', exitCode: 1, finishedAt: at(64) }), at(65)), eventId: 'p-fail/failed' };
const running = (n: number): PodObserved[] =>
  Array.from({ length: n }, (_, i) => ({ ...podObserved(aPod({ name: `p${i}`, resourceVersion: String(i + 1) }), at(30)), eventId: `p${i}/running` }));
const jobOf = (n: number) => aJob({ backoffLimit: 0, parallelism: n + 1, completions: n + 1 });

function reopening(log: readonly JobEvent[]): DecisionOf<'JobOutcomeCorrected'> {
  const corrections = log.filter((e): e is DecisionOf<'JobOutcomeCorrected'> => e.type === 'JobOutcomeCorrected');
  expect(corrections).toHaveLength(1);
  return corrections[0] as DecisionOf<'JobOutcomeCorrected'>;
}

describe('a reopening over many pods names the first ones and counts all', () => {
  for (const n of [2 * REOPENING_PODS_NAMED, 100_000]) {
    it(`given ${n} pods still running then, arriving in one run after jobfold failed the Job: the entry is under the limit, names ${REOPENING_PODS_NAMED} and counts ${n}; Failed follows their deletions`, { timeout: 300_000 }, () => {
      const pods = running(n);
      const { log, state } = given(jobOf(n), failed, ...pods).when();
      const entry = reopening(log);
      expect(entry).toMatchObject({ retracted: [{ type: 'Failed', reason: 'BackoffLimitExceeded' }], reason: 'BackoffLimitExceeded' });
      expect(entry.evidence.podCount).toBe(n);
      expect(entry.evidence.pods?.map((p) => p.name)).toEqual(pods.slice(0, REOPENING_PODS_NAMED).map((p) => p.pod.metadata.name));
      // Written as the store writes it: its body under the entry limit, and read back whole.
      const { seq: _seq, ...stored } = entry;
      expect(textBytes(bodyJson(decisionEntry(stored).body))).toBeLessThan(MAX_ENTRY_BODY_BYTES);
      expect(DecisionSchema.parse(JSON.parse(JSON.stringify(stored)))).toEqual(stored);
      expect(jobCorrectionSentence(entry)).toContain(`showed pods p0, p1, p2, `);
      expect(jobCorrectionSentence(entry)).toContain(`p${REOPENING_PODS_NAMED - 1} and ${n - REOPENING_PODS_NAMED} more still running then`);
      expect(conditionsOf(jobStatus(state))).toEqual(['FailureTarget=True:BackoffLimitExceeded']);

      // Not wedged: once the cluster reports them gone, Failed follows.
      play(state, [...pods.map((p) => podDeleted(p.pod.metadata.uid, at(80))), tick(at(100))], [...log]);
      expect(conditionsOf(jobStatus(state))).toEqual(['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded']);
      expect(jobStatus(state)).toMatchObject({ failed: n + 1, terminating: 0, active: 0 });
    });
  }

  it('a reopening over one pod still names it alone ("pod p0"), with its count', () => {
    const { log } = given(jobOf(1), failed, ...running(1)).when();
    const entry = reopening(log);
    expect(entry.evidence).toMatchObject({ pods: [{ name: 'p0' }], podCount: 1 });
    expect(jobCorrectionSentence(entry)).toContain('showed pod p0 still running then');
  });

  it('an entry logged before the count (no podCount) still reads: its pods are all it names', () => {
    const { log } = given(jobOf(3), failed, ...running(3)).when();
    const { podCount: _count, ...evidence } = reopening(log).evidence;
    const old = DecisionSchema.parse({ ...reopening(log), evidence }) as DecisionOf<'JobOutcomeCorrected'>;
    expect(old.evidence.podCount).toBeUndefined();
    expect(jobCorrectionSentence(old)).toContain('showed pods p0, p1, p2 still running then');
  });
});

describe('the pods a finished Job waits for, in its snapshot', () => {
  it('given many waited for, some gone since: the snapshot keeps only the unfinished ones, each a live pod of it, and the restored fold reopens alike', () => {
    const n = 2 * REOPENING_PODS_NAMED;
    const pods = running(n);
    // The run of late observations is folded and not yet decided; then half the pods go.
    const { state, log } = given(jobOf(n), failed, ...pods).fold();
    for (const [i, p] of pods.entries()) if (i % 2 === 0) evolve(state, { ...podDeleted(p.pod.metadata.uid, at(30)), seq: log.length + 1 + i });
    expect(state.waitedFor?.size).toBe(n);

    const { snapshot } = takeSnapshot(state);
    const kept = snapshot.state['waitedFor'] as string[];
    expect(kept).toEqual(pods.filter((_, i) => i % 2 === 1).map((p) => p.pod.metadata.uid));
    // The snapshot's live pods, as they read back (their tuples store the uid in a code: pod-field-codes.ts).
    const restored = restoreSnapshot(JSON.parse(JSON.stringify(snapshot)) as JobSnapshot);
    expect(restored.pods.size).toBe(snapshot.livePods.length);
    expect(kept.every((uid) => restored.pods.has(uid))).toBe(true);

    const now = at(31);
    expect(decide(restored, now).decisions).toEqual(decide(state, now).decisions);
    const entry = decide(state, now).decisions.find((d) => d.type === 'JobOutcomeCorrected') as DecisionOf<'JobOutcomeCorrected'>;
    expect(entry.evidence.podCount).toBe(n / 2);
  });

  it('once none is left unfinished, the snapshot keeps none', () => {
    const pods = running(3);
    const { state, log } = given(jobOf(3), failed, ...pods).fold();
    pods.forEach((p, i) => evolve(state, { ...podDeleted(p.pod.metadata.uid, at(30)), seq: log.length + 1 + i }));
    expect(takeSnapshot(state).snapshot.state['waitedFor']).toBeUndefined();
  });
});
