import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseJsonlEvents } from '../../../cli/replay/jsonl-events.ts';
import { inputFile, NAMED_FAILURE, runReplay, STORY_2 } from './run-replay.ts';

// Run from the repository root (vitest's root), as `npm start` runs the sample.

const STORY_2_DESCRIBED = `Name:               foobar
Namespace:          default
Cluster:            conformance
Uid:                job-uid
Replayed:           samples/story-2-leader.json (scenario success-policy__story-2-leader-rule): 4 reconciles, log of 28 events
Completion Mode:    Indexed
Parallelism:        10
Completions:        10
Backoff Limit:      6
Success Policy:
  rule 0: succeededIndexes "0"
  rule 1: succeededCount 5 of "1-9"
Start Time:         2026-01-01T00:00:00Z
Completed At:       2026-01-01T00:05:35Z
Duration:           5m35s
Pods Statuses:      0 Active (0 Ready) / 1 Succeeded / 0 Failed / 0 Terminating
Completed Indexes:  0
Failed Indexes:     <none>
Conditions:
  Type                Status  Reason         Message
  ----                ------  ------         -------
  SuccessCriteriaMet  True    SuccessPolicy  Matched rules at index 0
  Complete            True    SuccessPolicy  Matched rules at index 0
Commands:
  At                    Command       Count  Details
  --                    -------       -----  -------
  2026-01-01T00:00:00Z  CreatePod     10     indexes 0-9
  2026-01-01T00:05:00Z  TerminatePod  9      JobFinishing (SuccessPolicy): mypod-1, mypod-2, mypod-3, mypod-4, mypod-5, mypod-6, mypod-7, mypod-8, mypod-9
Explanation:
  Outcome:  Succeeded
  Summary:  Job default/foobar succeeded at 2026-01-01T00:05:35Z — SuccessPolicy: Matched rules at index 0.
  Why (event #N = position in the Job's log):
    SuccessCriteriaMet: SuccessPolicy — rule 0 (succeededIndexes "0") met when pod mypod-0 (index 0) succeeded, event #15; 9 lingering pods terminated
    Complete: SuccessPolicy — follows SuccessCriteriaMet (event #17) once no pod was left terminating, event #27
  Terminated Pods:
    2026-01-01T00:05:00Z JobFinishing (SuccessPolicy): mypod-1, mypod-2, mypod-3, mypod-4, mypod-5, mypod-6, mypod-7, mypod-8, mypod-9`;

describe('jobfold replay of a scenario', () => {
  it('describes the Story 2 sample like kubectl describe job, with commands and explanation', async () => {
    const { code, out, err } = await runReplay(STORY_2);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toBe(STORY_2_DESCRIBED);
  });

  it('stops after scenario event N with --at (0-based, like afterEvent)', async () => {
    const { code, out } = await runReplay(STORY_2, '--at', '11');
    expect(code).toBe(0);
    expect(out).toContain('Pods Statuses:      0 Active (0 Ready) / 1 Succeeded / 0 Failed / 9 Terminating');
    expect(out).toContain('  SuccessCriteriaMet  True    SuccessPolicy  Matched rules at index 0');
    expect(out).not.toContain('Complete            True');
    expect(out).toContain('  Outcome:  Succeeding');
  });

  it('shows the pods created by the first reconcile with --at 0', async () => {
    const { out } = await runReplay(STORY_2, '--at=0');
    expect(out).toContain('Pods Statuses:      10 Active (0 Ready) / 0 Succeeded / 0 Failed / 0 Terminating');
    expect(out).toContain('Conditions:         <none>');
    expect(out).toContain('  Outcome:  Running');
  });
});

describe('jobfold replay of a PutEvents JSONL stream (named FailJob rule)', () => {
  it('fails the Job with the KEP-4443 reason and explains the rule, container and exit code', async () => {
    const { code, out } = await runReplay(NAMED_FAILURE);
    expect(code).toBe(0);
    expect(out).toContain('Cluster:            dev-eu-1');
    expect(out).toContain('  rule 0 "ExitCode2": FailJob on exit code of main In [2]');
    expect(out).toContain('  Failed         True    PodFailurePolicy_ExitCode2  Container main for pod default/train-3 failed with exit code 2 matching FailJob rule at index 0');
    expect(out).toContain('  2026-01-01T00:04:00Z  TerminatePod  4      JobFinishing (PodFailurePolicy_ExitCode2): train-0, train-1, train-2, train-4');
    expect(out).toContain(
      '    FailureTarget: PodFailurePolicy_ExitCode2 — rule 0 "ExitCode2" matched container main of pod default/train-3 (index 3) exit code 2, event #9; 4 lingering pods terminated',
    );
  });

  it('gives the same description when the stream holds observations in the fold shape', async () => {
    const parsed = parseJsonlEvents(readFileSync(NAMED_FAILURE, 'utf8'));
    if (!parsed.ok) throw new Error('the sample parses');
    const foldShape = inputFile('fold-shape.jsonl', parsed.events.map((e) => JSON.stringify(e.observation)).join('\n'));
    const withoutSource = (text: string) => text.split('\n').filter((line) => !line.startsWith('Replayed:'));
    expect(withoutSource((await runReplay(foldShape)).out)).toEqual(withoutSource((await runReplay(NAMED_FAILURE)).out));
  });

  it('stops after file line N with --at', async () => {
    expect((await runReplay(NAMED_FAILURE, '--at', '6')).out).toContain('  Outcome:  Running');
    expect((await runReplay(NAMED_FAILURE, '--at', '7')).out).toContain('  Outcome:  Failing');
  });
});

describe('jobfold replay --gate', () => {
  it('gives the plain PodFailurePolicy reason with PodFailurePolicyName=false', async () => {
    const { out } = await runReplay(NAMED_FAILURE, '--gate', 'PodFailurePolicyName=false');
    expect(out).toContain('    FailureTarget: PodFailurePolicy — rule 0 "ExitCode2" matched');
    expect(out).not.toContain('PodFailurePolicy_ExitCode2');
  });

  it('gives PodFailurePolicy_<name> with PodFailurePolicyName=true where the scenario leaves it off', async () => {
    const story = '../shared/conformance/seed-stories/pod-failure-policy-name__gate-disabled-plain-reason.json';
    expect((await runReplay(story)).out).toMatch(/FailureTarget +True +PodFailurePolicy +/);
    expect((await runReplay(story, '--gate', 'PodFailurePolicyName=true')).out).toMatch(/FailureTarget +True +PodFailurePolicy_\w+ +/);
  });
});

describe('jobfold replay --json', () => {
  it('prints one object with status, conditions, commands, explanation and the log length', async () => {
    const { code, out } = await runReplay(STORY_2, '--json');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(Object.keys(report)).toEqual(['source', 'job', 'status', 'conditions', 'commands', 'explanation', 'logLength']);
    expect(report.source).toEqual({ file: STORY_2, kind: 'scenario', id: 'success-policy__story-2-leader-rule' });
    expect(report.status).toMatchObject({ active: 0, succeeded: 1, completedIndexes: '0', completionTime: '2026-01-01T00:05:35Z' });
    expect(report.conditions.map((c: { type: string }) => c.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
    expect(report.commands).toHaveLength(19);
    expect(report.commands[10]).toMatchObject({ at: '2026-01-01T00:05:00Z', type: 'TerminatePod', podName: 'mypod-1', cause: 'JobFinishing' });
    expect(report.explanation.outcome).toBe('Succeeded');
    expect(report.explanation.conditions[0].sentence).toContain('rule 0 (succeededIndexes "0") met');
    expect(report.logLength).toBe(28);
  });
});
