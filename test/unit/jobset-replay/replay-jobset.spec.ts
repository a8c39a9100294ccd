import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inputFile, runReplay } from '../replay/run-replay.ts';
import { EXIT_CODE_2_FIXTURE, EXIT_CODE_2_TRACE, EXIT_CODE_3_FIXTURE, EXIT_CODE_3_TRACE } from './jobset-scenarios.ts';

describe('jobfold replay of the seed-002 JobSet scenarios', () => {
  it('replays exit code 3: restart 1, then the exit code 2 failure after the restart fails it', async () => {
    const { code, out, err } = await runReplay(EXIT_CODE_3_FIXTURE);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('(JobSet scenario seed-002__story-2-exit-code-3-restarts-jobset): 11 reconciles');
    expect(out).toContain('Restarts:           1 (1 counted towards maxRestarts 10)');
    expect(out).toContain('Terminal State:     Failed');
    expect(out).toContain('Restarted (1 of maxRestarts 10): rule 1 "failurePolicyRule1" (RestartJobSet) matched child Job restart-job-example-simulations-3');
    expect(out).toContain('#26 2026-01-01T00:00:50Z  Failed: rule 0 "failurePolicyRule0" (FailJobSet) matched child Job restart-job-example-simulations-0 failing with PodFailurePolicy_ExitCode2, event #25');
  });

  it('replays exit code 2: the JobSet fails by rule failurePolicyRule0 without a restart', async () => {
    const { code, out } = await runReplay(EXIT_CODE_2_FIXTURE);
    expect(code).toBe(0);
    expect(out).toContain('Restarts:           0 (0 counted towards maxRestarts 10)');
    expect(out).toMatch(/^ {2}Failed +True +FailJobSetFailurePolicyAction +2026-01-01T00:00:10Z +applying FailJobSet failure policy action \(first failed job: restart-job-example-simulations-2\)$/m);
    expect(out).toMatch(/^ {2}restart-job-example-simulations-2 +simulations +2 +0 +Failed +PodFailurePolicy_ExitCode2$/m);
  });

  it('stops after scenario event N with --at', async () => {
    const { code, out } = await runReplay(EXIT_CODE_3_FIXTURE, '--at', '1');
    expect(code).toBe(0);
    expect(out).toContain('Outcome:   Restarting');
    expect(out).toContain('Terminal State:     <none>');
  });
});

describe('jobfold replay of the seed-002 JobSet traces, through the service', () => {
  it('exit code 2: the Job fold names the reason, and the JobSet fails by rule failurePolicyRule0', async () => {
    const out = (await runReplay(EXIT_CODE_2_TRACE)).out;
    expect(out).toContain('Terminal State:     Failed');
    expect(out).toContain('Restarts:           0 (0 counted towards maxRestarts 10)');
    expect(out).toContain(
      '#15 2026-01-01T00:02:00Z  Failed: rule 0 "failurePolicyRule0" (FailJobSet) matched child Job restart-job-example-simulations-2 failing with PodFailurePolicy_ExitCode2, event #14',
    );
    expect(out).toContain(
      'restart-job-example-simulations-2 (attempt 0): FailureTarget: PodFailurePolicy_ExitCode2 — rule 0 "ExitCode2" matched container main of pod default/restart-job-example-simulations-2-0-b3n8w (index 0) exit code 2',
    );
    expect(out).toMatch(/^ {2}2026-01-01T00:02:00Z +DeleteJob +3 +yes +restart-job-example-simulations-0, restart-job-example-simulations-1, restart-job-example-simulations-3$/m);
  });

  it('exit code 3: the JobSet restarts once, its Jobs are recreated with restart attempt 1 and become ready', async () => {
    const out = (await runReplay(EXIT_CODE_3_TRACE)).out;
    expect(out).toContain('Restarts:           1 (1 counted towards maxRestarts 10)');
    expect(out).toContain('Outcome:   Running');
    expect(out).toContain(
      '#15 2026-01-01T00:02:00Z  Restarted (1 of maxRestarts 10): rule 1 "failurePolicyRule1" (RestartJobSet) matched child Job restart-job-example-simulations-3 failing with PodFailurePolicy_ExitCode3 — "Container main for pod default/restart-job-example-simulations-3-0-f6r1z failed with exit code 3 matching FailJob rule at index 1", event #14',
    );
    expect(out).toMatch(/^ {2}restart-job-example-simulations-3 +simulations +3 +0 +Failed, deleted +PodFailurePolicy_ExitCode3$/m);
    expect(out).toMatch(/^ {2}restart-job-example-simulations-3 +simulations +3 +1 +Running \(1 active, 1 ready\) +-$/m);
    expect(out).toMatch(/^ {2}RestartingJobSet +False +JobsReady +2026-01-01T00:02:10Z +all jobs are ready$/m);
  });

  it('stops after line N with --at: right after the exit code 3 failure the JobSet is restarting', async () => {
    const out = (await runReplay(EXIT_CODE_3_TRACE, '--at', '10')).out;
    expect(out).toContain('Outcome:   Restarting');
    expect(out).toMatch(/^ {2}RestartingJobSet +True +FailurePolicy_failurePolicyRule1 /m);
  });

  it('takes the events as EventBridge delivers them too', async () => {
    const delivered = readFileSync(EXIT_CODE_3_TRACE, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { Source: string; DetailType: string; Detail: string })
      .map((e) => JSON.stringify({ source: e.Source, 'detail-type': e.DetailType, detail: JSON.parse(e.Detail) }));
    const out = (await runReplay(inputFile('delivered.jsonl', delivered.join('\n')))).out;
    expect(out).toContain('Restarted (1 of maxRestarts 10): rule 1 "failurePolicyRule1" (RestartJobSet)');
    expect(out).toContain('Outcome:   Running');
  });

  it('replays in process, each time on a fresh in-memory store: exit 0, nothing on stderr, the same description twice', async () => {
    const { code, out, err } = await runReplay(EXIT_CODE_3_TRACE);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toBe((await runReplay(EXIT_CODE_3_TRACE)).out);
  });
});

describe('the seed-002 sample traces', () => {
  const entries = (path: string) =>
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { Source: string; DetailType: string; Detail: string })
      .map((entry) => ({ ...entry, detail: JSON.parse(entry.Detail) as { object: Record<string, any> } }));

  it.each([
    [EXIT_CODE_2_TRACE, 2],
    [EXIT_CODE_3_TRACE, 3],
  ])('%s: the failing container exits with %i and no Job carries a failure reason', (path, exitCode) => {
    const lines = entries(path);
    expect(lines.every((e) => e.Source === 'jobfold.cluster.dev-eu-1' && typeof e.Detail === 'string')).toBe(true);
    const failedPods = lines.filter((e) => e.DetailType === 'Pod Observed' && e.detail.object.status.phase === 'Failed');
    expect(failedPods.map((e) => e.detail.object.status.containerStatuses[0].state.terminated.exitCode)).toEqual([exitCode]);
    const jobs = lines.filter((e) => e.DetailType === 'Job Observed');
    expect(jobs.map((e) => e.detail.object.status)).toEqual(jobs.map(() => ({})));
  });
});

describe('jobfold replay of the translated upstream JobSet cases (test/conformance/jobset)', () => {
  const corpus = (id: string) => `test/conformance/jobset/${id}.json`;

  it('shows dependsOn under its replicated job, and what a replicated job waits for', async () => {
    const { code, out } = await runReplay(corpus('depends-on__ready-not-reached-while-a-job-is-not-ready'));
    expect(code).toBe(0);
    expect(out).toMatch(/^ {4}depends on model-initializer Ready, dataset-initializer Ready$/m);
    expect(out).toContain('  Waiting:\n    trainer-node: 1 of 1 Job not created — waiting for model-initializer to be Ready: 2 of 3 ready');
  });

  it('shows the coordinator, and the TTL with the deletion it decided at a Tick', async () => {
    expect((await runReplay(corpus('coordinator__endpoint-label-and-annotation-on-every-job'))).out).toContain(
      'Coordinator:        replicated-job-a job index 0, pod index 0',
    );
    const { code, out } = await runReplay(corpus('ttl__completed-10s-ago-with-ttl-5s-is-deleted'));
    expect(code).toBe(0);
    expect(out).toContain('TTL:                ttlSecondsAfterFinished 5 (deleted 5s after it finishes)');
    expect(out).toMatch(/^ {2}2026-01-01T00:00:20Z {2}DeleteJobSet {2}1 {6}test-jobset$/m);
    expect(out).toContain('Summary:   JobSet default/test-jobset (being deleted) completed');
  });

  it('lists a Tick as time passing, not as a decision (it once printed as "[object Object]")', async () => {
    const { code, out } = await runReplay(corpus('ttl__failed-jobset-deleted-once-ttl-passed'));
    expect(code).toBe(0);
    expect(out).not.toContain('[object Object]');
    const report = JSON.parse((await runReplay(corpus('ttl__failed-jobset-deleted-once-ttl-passed'), '--json')).out);
    expect(report.explanation.events.map((e: { type: string }) => e.type)).not.toContain('Tick');
    expect(report.explanation.events.map((e: { type: string }) => e.type)).toContain('JobSetDeletionRequested');
  });

  it('plays a JobSet marked for deletion, and one deleted, without deciding anything more', async () => {
    const { code, out } = await runReplay(corpus('ttl__jobset-being-deleted-is-not-deleted-again'));
    expect(code).toBe(0);
    expect(out).not.toContain('DeleteJobSet');
  });
});
