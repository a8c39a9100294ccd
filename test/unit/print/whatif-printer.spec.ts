import { describe, expect, it } from 'vitest';
import { fleetWhatIfBlocks, printText, whatIfBlocks } from '../../../cli/print/index.ts';
import { EMPTY_TALLY, type JobSetWhatIfReport, type WhatIfReport } from '../../../shared/whatif/index.ts';

// Given a what-if report of either kind (or a fleet's tally), when it is printed for a person,
// then both kinds come out of one printer: the outcomes side by side, the divergence with each
// side's decisions, then the kind's own figures; what came from a cluster escaped.

const jobReport: WhatIfReport = {
  kind: 'Job',
  recorded: { outcome: 'Failed', condition: 'FailureTarget', reason: 'BackoffLimitExceeded', atEvent: 9, at: '2026-01-01T00:04:00Z', podsTerminated: 2 },
  whatIf: { outcome: 'Succeeded', condition: 'SuccessCriteriaMet', reason: 'CompletionsReached', atEvent: 12, at: '2026-01-01T00:06:00Z', podsTerminated: 0, exact: true },
  divergesAtEvent: 9,
  divergence: {
    atEvent: 9,
    at: '2026-01-01T00:04:00Z',
    by: 'reconcile',
    recorded: [{ kind: 'condition', type: 'FailureTarget', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }],
    whatIf: [{ kind: 'creation', count: 1 }],
  },
  podSecondsSaved: -120,
  podsKeptUnknown: 2,
  replayMismatch: { atEvent: 4, at: '2026-01-01T00:01:00Z', recorded: [], refold: [{ kind: 'termination', cause: 'JobFinishing', reason: 'BackoffLimitExceeded', pods: ['evil\u001b[2J'] }] },
};

const jobSetReport: JobSetWhatIfReport = {
  kind: 'JobSet',
  recorded: { outcome: 'Running', condition: null, reason: null, atEvent: null, at: null, restarts: 1 },
  whatIf: { outcome: 'Failed', condition: 'Failed', reason: 'ReachedMaxRestarts', atEvent: 14, at: '2026-01-01T00:02:00Z', restarts: 0, exact: true },
  divergesAtEvent: 14,
  divergence: {
    atEvent: 14,
    at: '2026-01-01T00:02:00Z',
    by: 'reconcile',
    recorded: [{ kind: 'restarted', rule: 'r1 (rule 1, RestartJobSet)', action: 'RestartJobSet', failedJob: 'w-0', jobReason: 'BackoffLimitExceeded', restarts: 1 }],
    whatIf: [{ kind: 'failed', rule: 'r1 (rule 1, RestartJobSet)', failedJob: 'w-0', jobReason: 'BackoffLimitExceeded', reason: 'ReachedMaxRestarts' }],
  },
};

describe('jobfold whatif, printed', () => {
  it("prints a Job's report: outcomes side by side, the divergence, pod time, and that the record does not replay", () => {
    expect(printText(whatIfBlocks(jobReport, 'What-if for Job default/train')).split('\n')).toEqual([
      'What-if for Job default/train',
      '',
      '                    recorded               what-if (exact)',
      '  outcome           Failed                 Succeeded',
      '  condition         FailureTarget          SuccessCriteriaMet',
      '  reason            BackoffLimitExceeded   CompletionsReached',
      '  at event          9                      12',
      '  at                2026-01-01T00:04:00Z   2026-01-01T00:06:00Z',
      '  pods terminated   2                      0',
      '',
      'Diverges at event 9 (2026-01-01T00:04:00Z):',
      '  recorded decided: FailureTarget=True (BackoffLimitExceeded)',
      '  what-if decided:  create 1 pod(s)',
      'Pod-seconds saved: -120 (-0.03 pod-hours)',
      'NOT EXACT: the record does not replay under its own spec. At event 4 (2026-01-01T00:01:00Z) the log holds',
      '  nothing; the refold decides terminate evil\\x1b[2J (JobFinishing: BackoffLimitExceeded). Nothing above is evidence.',
      'The what-if keeps 2 pod(s) the record terminated there: how long is unknown.',
    ]);
  });

  it("prints a JobSet's report with the same printer: restarts instead of pods, the rule and Job each side acted on", () => {
    expect(printText(whatIfBlocks(jobSetReport, 'What-if for JobSet default/ws')).split('\n')).toEqual([
      'What-if for JobSet default/ws',
      '',
      '              recorded   what-if (exact)',
      '  outcome     Running    Failed',
      '  condition   -          Failed',
      '  reason      -          ReachedMaxRestarts',
      '  at event    -          14',
      '  at          -          2026-01-01T00:02:00Z',
      '  restarts    1          0',
      '',
      'Diverges at event 14 (2026-01-01T00:02:00Z):',
      '  recorded decided: restart #1 (RestartJobSet): r1 (rule 1, RestartJobSet) on Job w-0 (BackoffLimitExceeded)',
      '  what-if decided:  fail the JobSet (ReachedMaxRestarts): r1 (rule 1, RestartJobSet) on Job w-0 (BackoffLimitExceeded)',
    ]);
  });

  it('says so when the folds never differ', () => {
    const same: JobSetWhatIfReport = { ...jobSetReport, whatIf: { ...jobSetReport.recorded, exact: true }, divergesAtEvent: null, divergence: null };
    expect(printText(whatIfBlocks(same, 't'))).toContain('\nNo divergence: the patched JobSet fold decides what the recorded one did at every reconcile.');
  });

  it("prints a fleet's tally as fields, then one line per changed Job", () => {
    const tally = {
      ...EMPTY_TALLY,
      jobs: 3,
      skipped: 1,
      outcomeChanged: 1,
      decidedEarlier: 1,
      podSecondsSaved: 7200,
      changed: [{ cluster: 'c1', namespace: 'default', name: 'train', uid: 'u', recorded: 'Failed (BackoffLimitExceeded)', whatIf: 'Succeeded', divergesAtEvent: 9, at: '2026-01-01T00:04:00Z', podSecondsSaved: 7200 }],
    };
    expect(printText(fleetWhatIfBlocks(tally, 'spec.successPolicy: Invalid value')).split('\n')).toEqual([
      'Jobs read:        3 (1 skipped: the patched spec is invalid for them, e.g. spec.successPolicy: Invalid value)',
      'Outcome changes:  1 (exact)',
      'Outcome unknown:  0 (diverge before an outcome)',
      'Decided earlier:  1',
      'Decided later:    0',
      'Pod-hours saved:  2.00 (7200 pod-seconds)',
      '',
      'Changed Jobs (diverging at event N):',
      '  c1/default/train  @9 2026-01-01T00:04:00Z  Failed (BackoffLimitExceeded) → Succeeded  (7200 pod-s saved)',
    ]);
  });
});
