import { describe, expect, it } from 'vitest';
import type { JobEvent } from '../../../shared/job/evolve.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { whatIfJob } from '../../../shared/whatif/what-if.ts';
import { aJob, anIndexedJob, at, tick } from '../../support/builders.ts';
import { pod } from './pods.ts';
import { batches, recordHistory } from './record.ts';

// The patched world follows the record past a difference that changes nothing in the cluster
// (a pod counted differently), and past pods it never has (the retries of an index it failed);
// a patch adding backoffLimitPerIndex gives the recorded pods the failure counts the patched
// controller would have written. The timelines leave room for the recreation backoff (10 s,
// then 20 s, after a failure that finished a second before it was seen).

const whatIf = (log: JobEvent[], patch: unknown) => whatIfJob({ log, config: DEFAULT_FOLD_CONFIG, patch });
const ignoreDisruptions = { podFailurePolicy: { rules: [{ name: 'Disruption', action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] } };

describe('What-if: a pod counted differently is not a divergence by itself', () => {
  // p1 is disrupted at 20 and counted; p2, created once the backoff ran out, succeeds at 60.
  const log = recordHistory(
    aJob({ backoffLimit: 6 }),
    batches(
      [at(10), [pod('p1', 'Running', 10)]], // 4
      [at(20), [pod('p1', 'Failed', 20, { exitCode: 137, conditions: [{ type: 'DisruptionTarget' }] })]], // 5
      [at(30), [tick(at(30))]], // 6, then a creation
      [at(31), [pod('p2', 'Running', 31)]],
      [at(60), [pod('p2', 'Succeeded', 60)]],
    ),
  );

  it('ignoring the disruption decides exactly what the record decided: no divergence', () => {
    const report = whatIf(log, { spec: ignoreDisruptions });
    expect(report.divergesAtEvent).toBeNull();
    expect(report.whatIf).toEqual({ ...report.recorded, exact: true });
    expect(report.recorded).toMatchObject({ outcome: 'Succeeded', reason: 'CompletionsReached' });
    expect(report.replayMismatch).toBeNull();
  });

  it('backoffLimit 0 with the disruption ignored still succeeds; without it, fails at 20', () => {
    expect(whatIf(log, { spec: { ...ignoreDisruptions, backoffLimit: 0 } }).divergesAtEvent).toBeNull();
    expect(whatIf(log, { spec: { backoffLimit: 0 } }).whatIf).toMatchObject({ outcome: 'Failed', reason: 'BackoffLimitExceeded', at: at(20), exact: true });
  });
});

describe('What-if: the retries of an index the patched fold failed are phantoms', () => {
  // backoffLimitPerIndex 2: index 1 fails with exit code 3 at 20, 50 and 90 (failure counts 0,
  // 1, 2) and is failed then; indexes 0 and 2 succeed at 30 and 60: FailedIndexes at 90.
  const log = recordHistory(
    anIndexedJob(3, { backoffLimitPerIndex: 2, backoffLimit: 6 }),
    batches(
      [at(10), [pod('a0', 'Running', 10, { index: 0, failureCount: 0 }), pod('b0', 'Running', 10, { index: 1, failureCount: 0 }), pod('c0', 'Running', 10, { index: 2, failureCount: 0 })]],
      [at(20), [pod('b0', 'Failed', 20, { index: 1, failureCount: 0, exitCode: 3 })]],
      [at(30), [pod('a0', 'Succeeded', 30, { index: 0, failureCount: 0 })]], // then index 1 again
      [at(31), [pod('b1', 'Running', 31, { index: 1, failureCount: 1 })]],
      [at(50), [pod('b1', 'Failed', 50, { index: 1, failureCount: 1, exitCode: 3 })]],
      [at(60), [pod('c0', 'Succeeded', 60, { index: 2, failureCount: 0 })]],
      [at(70), [tick(at(70))]], // index 1 again
      [at(71), [pod('b2', 'Running', 71, { index: 1, failureCount: 2 })]],
      [at(90), [pod('b2', 'Failed', 90, { index: 1, failureCount: 2, exitCode: 3 })]],
    ),
  );
  const failIndex = { podFailurePolicy: { rules: [{ name: 'ExitCode3', action: 'FailIndex', onExitCodes: { containerName: 'main', operator: 'In', values: [3] } }] } };

  it('FailIndex on exit code 3 fails index 1 at 20 and the Job at 60, when the other indexes are done', () => {
    const report = whatIf(log, { spec: failIndex });
    expect(report.recorded).toMatchObject({ outcome: 'Failed', reason: 'FailedIndexes', at: at(90) });
    // At 30 the record recreates index 1, the patched world does not: its pod b1 is a phantom.
    expect(report.whatIf).toMatchObject({ outcome: 'Failed', condition: 'FailureTarget', reason: 'FailedIndexes', at: at(60), exact: true });
    expect(report.divergence?.at).toBe(at(60));
    // b1 never ran (31–50); b2 ran after the outcome (71–90).
    expect(report.podSecondsSaved).toBe(19 + 19);
    expect(report.replayMismatch).toBeNull();
  });

  it('backoffLimitPerIndex 1 fails index 1 at 50, the Job at 60: b2 never runs', () => {
    const report = whatIf(log, { spec: { backoffLimitPerIndex: 1 } });
    expect(report.whatIf).toMatchObject({ outcome: 'Failed', reason: 'FailedIndexes', at: at(60), exact: true });
    expect(report.podSecondsSaved).toBe(19);
  });
});

describe('What-if: adding backoffLimitPerIndex', () => {
  // No backoffLimitPerIndex: index 1 fails at 20 and 50 and succeeds on its third pod at 90. The
  // recorded pods carry no index failure counts.
  const log = recordHistory(
    anIndexedJob(2, { backoffLimit: 6 }),
    batches(
      [at(10), [pod('a0', 'Running', 10, { index: 0 }), pod('q0', 'Running', 10, { index: 1 })]],
      [at(20), [pod('q0', 'Failed', 20, { index: 1 })]],
      [at(30), [pod('a0', 'Succeeded', 30, { index: 0 })]], // then index 1 again
      [at(31), [pod('q1', 'Running', 31, { index: 1 })]],
      [at(50), [pod('q1', 'Failed', 50, { index: 1 })]],
      [at(70), [tick(at(70))]], // index 1 again
      [at(71), [pod('q2', 'Running', 71, { index: 1 })]],
      [at(90), [pod('q2', 'Succeeded', 90, { index: 1 })]],
    ),
  );

  it('gives q1 the failure count 1 its creation carried: index 1 fails at 50, a success lost', () => {
    const report = whatIf(log, { spec: { backoffLimitPerIndex: 1 } });
    expect(report.recorded).toMatchObject({ outcome: 'Succeeded', reason: 'CompletionsReached', at: at(90) });
    expect(report.whatIf).toMatchObject({ outcome: 'Failed', reason: 'FailedIndexes', at: at(50), exact: true });
    expect(report.podSecondsSaved).toBe(19);
  });

  it('backoffLimitPerIndex 2 is what the success needed: no divergence', () => {
    expect(whatIf(log, { spec: { backoffLimitPerIndex: 2 } }).divergesAtEvent).toBeNull();
  });
});

describe('What-if: the record replayed under its own spec', () => {
  const log = recordHistory(
    aJob({ completions: 2, parallelism: 2 }),
    batches([at(10), [pod('p1', 'Running', 10), pod('p2', 'Running', 10)]], [at(20), [pod('p1', 'Succeeded', 20)]], [at(30), [pod('p2', 'Succeeded', 30)]]),
  );

  it('matches a log the fold recorded', () => {
    expect(whatIf(log, { spec: { backoffLimit: 0 } }).replayMismatch).toBeNull();
  });

  it('names the first reconcile where the log holds other decisions than the refold takes', () => {
    const altered = log.map((e) => (e.type === 'JobConditionChanged' && e.condition.type === 'SuccessCriteriaMet' ? { ...e, condition: { ...e.condition, reason: 'SuccessPolicy' } } : e));
    const mismatch = whatIf(altered, { spec: {} }).replayMismatch;
    expect(mismatch).toMatchObject({ at: at(30), recorded: [{ kind: 'condition', reason: 'SuccessPolicy' }, expect.anything()], refold: [{ kind: 'condition', reason: 'CompletionsReached' }, expect.anything()] });
  });

  it('names a batch the record left undecided where the refold decides', () => {
    const undecided = log.filter((e) => !('at' in e) || e.at !== at(30));
    expect(whatIf(undecided, { spec: {} }).replayMismatch).toMatchObject({ at: at(30), recorded: [] });
  });
});
