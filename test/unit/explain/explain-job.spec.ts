import { describe, expect, it } from 'vitest';
import { explain } from '../../../cli/print/index.ts';
import { explainJob } from '../../../shared/job/index.ts';
import { initialState } from '../../../shared/job/state.ts';
import { playScenario } from './replay-scenario.ts';

function sentences(path: string): string[] {
  const run = playScenario(path);
  return explainJob(run.state, run.log).conditions.map((c) => c.sentence);
}

describe('explainJob on a success policy (seed Story 2, leader rule)', () => {
  const run = playScenario('samples/story-2-leader.json');
  const explanation = explainJob(run.state, run.log);

  it('says the Job succeeded', () => {
    expect(explanation.outcome).toBe('Succeeded');
    expect(explanation.summary).toBe(
      'Job default/foobar succeeded at 2026-01-01T00:05:35Z — SuccessPolicy: Matched rules at index 0.',
    );
  });

  it('names the rule from the spec, the pod that tipped it and the lingering pods', () => {
    expect(explanation.conditions[0]?.sentence).toBe(
      'SuccessCriteriaMet: SuccessPolicy — rule 0 (succeededIndexes "0") met when pod mypod-0 (index 0) succeeded, event #15; 9 lingering pods terminated',
    );
  });

  it('says Complete follows SuccessCriteriaMet once no pod was left terminating', () => {
    expect(explanation.conditions[1]?.sentence).toBe(
      'Complete: SuccessPolicy — follows SuccessCriteriaMet (event #17) once no pod was left terminating, event #27',
    );
  });

  it('keeps the logged evidence and the tipping observation as data', () => {
    const met = explanation.conditions[0];
    expect(met).toMatchObject({
      type: 'SuccessCriteriaMet',
      status: 'True',
      reason: 'SuccessPolicy',
      decidedBy: 17,
      evidence: { tippedBy: 15, rule: { policy: 'successPolicy', index: 0 }, succeededIndexes: '0' },
      tippingEvent: { seq: 15, type: 'PodObserved', eventId: 'event-11', at: '2026-01-01T00:05:00Z' },
    });
  });

  it('lists the terminated pods with their cause', () => {
    expect(explanation.terminatedPods).toHaveLength(9);
    expect(explanation.terminatedPods[0]).toEqual({
      name: 'mypod-1',
      uid: 'mypod-1',
      index: 1,
      cause: 'JobFinishing',
      reason: 'SuccessPolicy',
      requestedAt: '2026-01-01T00:05:00Z',
      decidedBy: 16,
    });
  });

  it('is plain JSON, so the API can serve it as it is', () => {
    expect(JSON.parse(JSON.stringify(explanation))).toEqual(explanation);
  });
});

describe('explainJob sentences per reason', () => {
  it('names a succeededCount rule with its indexes', () => {
    expect(sentences('seed-stories/success-policy__story-2-worker-rule.json')[0]).toBe(
      'SuccessCriteriaMet: SuccessPolicy — rule 1 (succeededCount 5 of "1-9") met when pod mypod-5 (index 5) succeeded, event #23; 5 lingering pods terminated',
    );
  });

  it('names the FailJob rule, container, pod and exit code', () => {
    expect(sentences('seed-stories/pod-failure-policy-name__story-2-exit-code-2.json')).toEqual([
      'FailureTarget: PodFailurePolicy_ExitCode2 — rule 0 "ExitCode2" matched container main of pod default/mypod-0 exit code 2, event #6',
      'Failed: PodFailurePolicy_ExitCode2 — no pod was left terminating when FailureTarget was set, event #6',
    ]);
  });

  it('names the pod condition of an onPodConditions rule', () => {
    expect(sentences('seed-stories/pod-failure-policy-name__on-pod-conditions-named-disrupted.json')[0]).toBe(
      'FailureTarget: PodFailurePolicy_Disrupted — rule 0 "Disrupted" matched pod condition DisruptionTarget of pod default/mypod-0, event #6',
    );
  });

  it('compares the failed count with backoffLimit', () => {
    expect(sentences('k8s-job/backoff-limit__never-seven-failures-exceed-limit.json')[0]).toBe(
      'FailureTarget: BackoffLimitExceeded — 7 failed pods exceed backoffLimit 6, event #8',
    );
  });

  it('gives startTime, activeDeadlineSeconds and when the deadline passed', () => {
    expect(sentences('k8s-job/deadline__deadline-exceeded-failure-target-while-terminating.json')[0]).toBe(
      'FailureTarget: DeadlineExceeded — started 2026-01-01T00:00:00Z with activeDeadlineSeconds 10: the deadline passed at 2026-01-01T00:00:10Z, event #4; 1 lingering pod terminated',
    );
  });

  it('lists the failed indexes against maxFailedIndexes', () => {
    expect(sentences('k8s-job/backoff-per-index__max-failed-indexes-exceeded.json')[0]).toBe(
      'FailureTarget: MaxFailedIndexesExceeded — 2 failed indexes "0,2" exceed maxFailedIndexes 1, event #5; 1 lingering pod terminated',
    );
  });

  it('lists the failed indexes once every index finished', () => {
    expect(sentences('k8s-job/backoff-per-index__job-fails-with-failed-indexes.json')[0]).toBe(
      'FailureTarget: FailedIndexes — every index finished and index "0" failed (backoffLimitPerIndex 1), event #3',
    );
  });

  it('compares succeeded pods with completions', () => {
    expect(sentences('seed-stories/completions__completions-reached-non-indexed.json')[0]).toMatch(
      /^SuccessCriteriaMet: CompletionsReached — \d+ of \d+ completions succeeded; the last was pod \S+, event #\d+$/,
    );
  });

  it('says a suspended Job had its active pods terminated', () => {
    const run = playScenario('k8s-job/suspend__suspend-deletes-active-pods.json');
    const explanation = explainJob(run.state, run.log);
    expect(explanation.outcome).toBe('Suspended');
    expect(explanation.conditions[0]?.sentence).toMatch(/^Suspended: JobSuspended — spec.suspend is true, event #\d+; \d+ active pods? terminated$/);
  });
});

describe('explainJob without the log', () => {
  it('rebuilds what it can from the state, without event numbers', () => {
    const run = playScenario('samples/story-2-leader.json');
    const explanation = explainJob(run.state);
    expect(explanation.conditions.map((c) => c.sentence)).toEqual([
      'SuccessCriteriaMet: SuccessPolicy — rule 0 (succeededIndexes "0") met when pod mypod-0 (index 0) succeeded; 9 lingering pods terminated',
      'Complete: SuccessPolicy — follows SuccessCriteriaMet once no pod was left terminating',
    ]);
    expect(explanation.terminatedPods[0]).toMatchObject({ name: 'mypod-1', cause: undefined, requestedAt: '2026-01-01T00:05:00Z' });
  });

  it('uses the FailJob candidate the state keeps', () => {
    const run = playScenario('seed-stories/pod-failure-policy-name__story-2-exit-code-2.json');
    expect(explainJob(run.state).conditions[0]?.sentence).toBe(
      'FailureTarget: PodFailurePolicy_ExitCode2 — rule 0 "ExitCode2" matched container main of pod default/mypod-0 exit code 2, event #6',
    );
  });
});

describe('explainJob outcomes before the end', () => {
  it('says Unknown when no Job was observed', () => {
    const explanation = explainJob(initialState());
    expect(explanation).toMatchObject({ outcome: 'Unknown', summary: 'No Job has been observed.', conditions: [], job: undefined });
  });

  it('says Running while pods run', () => {
    const run = playScenario('samples/story-2-leader.json', { stopAfterEvent: 10 });
    const explanation = explainJob(run.state, run.log);
    expect(explanation.outcome).toBe('Running');
    expect(explanation.summary).toBe('Job default/foobar is running: 10 active, 0 succeeded, 0 failed.');
  });

  it('says Succeeding while the lingering pods terminate', () => {
    const run = playScenario('samples/story-2-leader.json', { stopAfterEvent: 11 });
    const explanation = explainJob(run.state, run.log);
    expect(explanation.outcome).toBe('Succeeding');
    expect(explanation.summary).toContain('will complete once its 9 terminating pods are gone');
  });
});

describe('the explanation printed', () => {
  it('prints outcome, summary, one sentence per condition and the terminated pods', () => {
    const run = playScenario('samples/story-2-leader.json');
    const text = explain(explainJob(run.state, run.log));
    expect(text.split('\n')).toEqual([
      'Outcome:  Succeeded',
      'Summary:  Job default/foobar succeeded at 2026-01-01T00:05:35Z — SuccessPolicy: Matched rules at index 0.',
      "Why (event #N = position in the Job's log):",
      '  SuccessCriteriaMet: SuccessPolicy — rule 0 (succeededIndexes "0") met when pod mypod-0 (index 0) succeeded, event #15; 9 lingering pods terminated',
      '  Complete: SuccessPolicy — follows SuccessCriteriaMet (event #17) once no pod was left terminating, event #27',
      'Terminated Pods:',
      '  2026-01-01T00:05:00Z JobFinishing (SuccessPolicy): mypod-1, mypod-2, mypod-3, mypod-4, mypod-5, mypod-6, mypod-7, mypod-8, mypod-9',
    ]);
  });
});
