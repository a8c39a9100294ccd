import { describe, expect, it } from 'vitest';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { whatIfJob } from '../../../shared/whatif/what-if.ts';
import { aJob, anIndexedJob, at } from '../../support/builders.ts';
import { batches, recordHistory } from './record.ts';
import { pod } from './pods.ts';

// One recorded history per policy and a patch whose outcome, divergence and pod-seconds were
// worked out by hand (the comments say how). Seqs: 1 JobObserved, 2 StartTimeSet, 3 creations.

const whatIf = (log: ReturnType<typeof recordHistory>, patch: unknown) => whatIfJob({ log, config: DEFAULT_FOLD_CONFIG, patch });

describe('What-if: backoffLimit', () => {
  // completions 3, parallelism 2; p1 fails at 20, p2 at 40; p3, p4, p5 succeed: Complete at 130.
  const log = recordHistory(
    aJob({ completions: 3, parallelism: 2, backoffLimit: 6 }),
    batches(
      [at(10), [pod('p1', 'Running', 10), pod('p2', 'Running', 10)]], // seq 4, 5
      [at(20), [pod('p1', 'Failed', 20)]], // 6
      [at(30), [pod('p3', 'Running', 30)]], // 7
      [at(40), [pod('p2', 'Failed', 40)]], // 8
      [at(50), [pod('p4', 'Running', 50)]], // 9
      [at(60), [pod('p3', 'Succeeded', 60)]], // 10, then a creation (11)
      [at(70), [pod('p5', 'Running', 70)]], // 12
      [at(100), [pod('p4', 'Succeeded', 100)]], // 13
      [at(130), [pod('p5', 'Succeeded', 130)]], // 14, then SuccessCriteriaMet + Complete
    ),
  );

  it('backoffLimit 1 fails the Job on the second failure: p3 ends 20 s early, p4 and p5 never run', () => {
    // Second failure at seq 8 (t40): failed 2 > 1. p3 is the only active pod; it ended at 60.
    // The record then ran p4 (50–100) and p5 (70–130), which the failed Job never creates.
    const report = whatIf(log, { spec: { backoffLimit: 1 } });
    expect(report.recorded).toEqual({ outcome: 'Succeeded', condition: 'SuccessCriteriaMet', reason: 'CompletionsReached', atEvent: 14, at: at(130), podsTerminated: 0 });
    expect(report.whatIf).toEqual({ outcome: 'Failed', condition: 'FailureTarget', reason: 'BackoffLimitExceeded', atEvent: 8, at: at(40), podsTerminated: 1, exact: true });
    expect(report.divergesAtEvent).toBe(8);
    expect(report.divergence?.recorded).toEqual([]);
    expect(report.divergence?.whatIf.map((d) => d.kind)).toEqual(['termination', 'condition']);
    expect(report.podSecondsSaved).toBe(20 + 50 + 60);
  });

  it('backoffLimit 2 changes nothing: two failures stay within it', () => {
    const report = whatIf(log, { spec: { backoffLimit: 2 } });
    expect(report.divergesAtEvent).toBeNull();
    expect(report.whatIf).toEqual({ ...report.recorded, exact: true });
    expect(report.podSecondsSaved).toBe(0);
  });

  it('backoffLimit 0 fails on the first failure, at seq 6, terminating p2 (ended at 40)', () => {
    const report = whatIf(log, { spec: { backoffLimit: 0 } });
    expect(report.whatIf).toMatchObject({ outcome: 'Failed', reason: 'BackoffLimitExceeded', atEvent: 6, at: at(20), podsTerminated: 1, exact: true });
    // p2 20–40, and the record's later pods p3 (30–60), p4 (50–100), p5 (70–130).
    expect(report.podSecondsSaved).toBe(20 + 30 + 50 + 60);
  });
});

describe('What-if: success policy', () => {
  // Indexed, 3 indexes: index 0 succeeds at 30, index 1 at 50, index 2 at 80 (CompletionsReached).
  const log = recordHistory(
    anIndexedJob(3),
    batches(
      [at(10), [pod('pod-0', 'Running', 10, { index: 0 }), pod('pod-1', 'Running', 10, { index: 1 }), pod('pod-2', 'Running', 10, { index: 2 })]], // 4-6
      [at(30), [pod('pod-0', 'Succeeded', 30, { index: 0 })]], // 7
      [at(50), [pod('pod-1', 'Succeeded', 50, { index: 1 })]], // 8
      [at(80), [pod('pod-2', 'Succeeded', 80, { index: 2 })]], // 9
    ),
  );

  it('a leader rule (index 0) succeeds at 30 and ends pod-1 and pod-2 20 s and 50 s early', () => {
    const report = whatIf(log, { spec: { successPolicy: { rules: [{ succeededIndexes: '0' }] } } });
    expect(report.recorded).toMatchObject({ outcome: 'Succeeded', condition: 'SuccessCriteriaMet', reason: 'CompletionsReached', atEvent: 9 });
    expect(report.whatIf).toEqual({ outcome: 'Succeeded', condition: 'SuccessCriteriaMet', reason: 'SuccessPolicy', atEvent: 7, at: at(30), podsTerminated: 2, exact: true });
    expect(report.divergesAtEvent).toBe(7);
    expect(report.podSecondsSaved).toBe(70);
  });

  it('succeededCount 3 is what completions already asks: no divergence', () => {
    const report = whatIf(log, { spec: { successPolicy: { rules: [{ succeededCount: 3 }] } } });
    // The rule and CompletionsReached meet at the same event but name different reasons.
    expect(report.divergesAtEvent).toBe(9);
    expect(report.whatIf).toMatchObject({ outcome: 'Succeeded', reason: 'SuccessPolicy', atEvent: 9, exact: true });
    expect(report.podSecondsSaved).toBe(0);
  });
});

describe('What-if: pod failure policy with named rules', () => {
  // p1 fails with exit code 42 at 20 (counted; backoffLimit 6), p3 replaces it; p2 succeeds at
  // 90, p3 at 100: Complete.
  const log = recordHistory(
    aJob({ completions: 2, parallelism: 2 }),
    batches(
      [at(10), [pod('p1', 'Running', 10), pod('p2', 'Running', 10)]], // 4, 5
      [at(20), [pod('p1', 'Failed', 20, { exitCode: 42 })]], // 6, then a creation (7)
      [at(25), [pod('p3', 'Running', 25)]], // 8
      [at(90), [pod('p2', 'Succeeded', 90)]], // 9
      [at(100), [pod('p3', 'Succeeded', 100)]], // 10
    ),
  );
  const fatal = { name: 'Fatal', action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } };

  it('a FailJob rule named Fatal fails the Job at seq 6 with reason PodFailurePolicy_Fatal', () => {
    const report = whatIf(log, { spec: { podFailurePolicy: { rules: [fatal] } } });
    expect(report.whatIf).toMatchObject({ outcome: 'Failed', condition: 'FailureTarget', reason: 'PodFailurePolicy_Fatal', atEvent: 6, at: at(20), podsTerminated: 1, exact: true });
    expect(report.divergesAtEvent).toBe(6);
    expect(report.podSecondsSaved).toBe(70 + 75); // p2 ran until 90; p3, never created, from 25 to 100
  });

  it('a rule that matches no failure changes nothing', () => {
    const rule = { ...fatal, onExitCodes: { containerName: 'main', operator: 'In', values: [7] } };
    const report = whatIf(log, { spec: { podFailurePolicy: { rules: [rule] } } });
    expect(report.divergesAtEvent).toBeNull();
    expect(report.whatIf).toEqual({ ...report.recorded, exact: true });
  });

  it('an Ignore rule on a Job that failed on backoff: the failure is not counted, the outcome unknown', () => {
    // Counting p1 differently changes nothing in the cluster; the reconcile after it does: the
    // record fails the Job, the what-if waits out the recreation backoff (Ignore still feeds it).
    const strict = recordHistory(
      aJob({ completions: 2, parallelism: 2, backoffLimit: 0 }),
      batches([at(10), [pod('p1', 'Running', 10), pod('p2', 'Running', 10)]], [at(20), [pod('p1', 'Failed', 20, { exitCode: 42 })]]),
    );
    const ignore = { name: 'Flaky', action: 'Ignore', onExitCodes: { operator: 'In', values: [42] } };
    const report = whatIf(strict, { spec: { podFailurePolicy: { rules: [ignore] } } });
    expect(report.recorded).toMatchObject({ outcome: 'Failed', reason: 'BackoffLimitExceeded', atEvent: 6, podsTerminated: 1 });
    expect(report.divergesAtEvent).toBe(6);
    expect(report.divergence).toMatchObject({
      by: 'reconcile',
      recorded: [{ kind: 'termination', cause: 'JobFinishing', pods: ['p2'] }, { kind: 'condition', type: 'FailureTarget', reason: 'BackoffLimitExceeded' }],
      whatIf: [],
    });
    expect(report.whatIf).toEqual({ outcome: 'Running', condition: null, reason: null, atEvent: null, at: null, podsTerminated: 0, exact: false });
    // The record terminated p2 at the divergence; the what-if keeps it, for how long is unknown.
    expect(report.podSecondsSaved).toBe(0);
    expect(report.podsKeptUnknown).toBe(1);
  });
});

describe('What-if: backoffLimitPerIndex and maxFailedIndexes', () => {
  // 3 indexes, one try each; index 0 fails at 20, indexes 1, 2 succeed at 40, 50: FailedIndexes.
  const log = recordHistory(
    anIndexedJob(3, { backoffLimitPerIndex: 0, maxFailedIndexes: 2 }),
    batches(
      [at(10), [pod('pod-0', 'Running', 10, { index: 0 }), pod('pod-1', 'Running', 10, { index: 1 }), pod('pod-2', 'Running', 10, { index: 2 })]],
      [at(20), [pod('pod-0', 'Failed', 20, { index: 0 })]], // 7
      [at(40), [pod('pod-1', 'Succeeded', 40, { index: 1 })]],
      [at(50), [pod('pod-2', 'Succeeded', 50, { index: 2 })]], // 9
    ),
  );

  it('maxFailedIndexes 0 fails the Job on the first failed index, ending two pods early', () => {
    const report = whatIf(log, { spec: { maxFailedIndexes: 0 } });
    expect(report.recorded).toMatchObject({ outcome: 'Failed', condition: 'FailureTarget', reason: 'FailedIndexes', atEvent: 9 });
    expect(report.whatIf).toMatchObject({ outcome: 'Failed', reason: 'MaxFailedIndexesExceeded', atEvent: 7, at: at(20), podsTerminated: 2, exact: true });
    expect(report.divergesAtEvent).toBe(7);
    expect(report.podSecondsSaved).toBe(50); // pod-1: 40 − 20, pod-2: 50 − 20
  });

  it('maxFailedIndexes 1 still tolerates the one failed index', () => {
    expect(whatIf(log, { spec: { maxFailedIndexes: 1 } }).divergesAtEvent).toBeNull();
  });

  it('backoffLimitPerIndex 1 keeps index 0 open: the what-if retries it, past the evidence', () => {
    const report = whatIf(log, { spec: { backoffLimitPerIndex: 1 } });
    expect(report.divergesAtEvent).toBe(7);
    expect(report.divergence).toMatchObject({ by: 'reconcile', recorded: [], whatIf: [{ kind: 'creation', count: 1, indexes: [0] }] });
    expect(report.whatIf.exact).toBe(false);
  });
});

describe('What-if: activeDeadlineSeconds', () => {
  // Started at 0; p1 runs from 10 and succeeds at 200: Complete at 200 (deadline 300).
  const log = recordHistory(
    aJob({ activeDeadlineSeconds: 300 }),
    batches([at(10), [pod('p1', 'Running', 10)]], [at(200), [pod('p1', 'Succeeded', 200)]]), // 4, 5
  );

  it('a 100 s deadline fails the Job at 100, on its timer, after reading seq 4', () => {
    const report = whatIf(log, { spec: { activeDeadlineSeconds: 100 } });
    expect(report.whatIf).toEqual({ outcome: 'Failed', condition: 'FailureTarget', reason: 'DeadlineExceeded', atEvent: 4, at: at(100), podsTerminated: 1, exact: true });
    expect(report.divergesAtEvent).toBe(4);
    expect(report.divergence?.at).toBe(at(100));
    expect(report.podSecondsSaved).toBe(100);
  });

  it('a 250 s deadline is never reached', () => {
    expect(whatIf(log, { spec: { activeDeadlineSeconds: 250 } }).divergesAtEvent).toBeNull();
  });
});
