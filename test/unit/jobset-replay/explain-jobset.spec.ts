import { describe, expect, it } from 'vitest';
import { explain as print } from '../../../cli/print/index.ts';
import { explainJobSet } from '../../../shared/jobset/index.ts';
import { initialState } from '../../../shared/jobset/state.ts';
import {
  aChildJob,
  aJobSet,
  decisionsOf,
  EXIT_CODE_2_FIXTURE,
  EXIT_CODE_3_FIXTURE,
  playFixture,
  playInline,
} from './jobset-scenarios.ts';

const explain = (run: ReturnType<typeof playFixture>) => explainJobSet(run.state, decisionsOf(run));
const SIM_3_MESSAGE =
  'Container main for pod default/restart-job-example-simulations-3-0-abcde failed with exit code 3 matching FailJob rule at index 1';

describe('explainJobSet after a restart (seed 002, exit code 3)', () => {
  const explanation = explain(playFixture(EXIT_CODE_3_FIXTURE, 1));

  it('says the JobSet is restarting, with its counters', () => {
    expect(explanation).toMatchObject({
      jobSet: { namespace: 'default', name: 'restart-job-example', uid: 'restart-job-example-uid' },
      outcome: 'Restarting',
      restarts: 1,
      restartsCountTowardsMax: 1,
    });
  });

  it('names the rule, the failed child Job, its KEP-4443 reason and message and the tipping event', () => {
    const restarted = explanation.events.find((e) => e.type === 'JobSetRestarted');
    expect(restarted?.sentence).toBe(
      `Restarted (1 of maxRestarts 10): rule 1 "failurePolicyRule1" (RestartJobSet) matched child Job restart-job-example-simulations-3 failing with PodFailurePolicy_ExitCode3 — "${SIM_3_MESSAGE}", event #6`,
    );
    expect(restarted).toMatchObject({ seq: 7, tippedBy: 6, at: '2026-01-01T00:00:05Z' });
  });

  it('explains the RestartingJobSet condition with the decision that set it', () => {
    expect(explanation.conditions).toEqual([
      expect.objectContaining({
        type: 'RestartingJobSet',
        status: 'True',
        reason: 'FailurePolicy_failurePolicyRule1',
        decidedBy: 7,
        tippedBy: 6,
        evidence: expect.objectContaining({ type: 'JobSetRestarted', rule: { index: 1, name: 'failurePolicyRule1', action: 'RestartJobSet' } }),
        sentence:
          'RestartingJobSet: FailurePolicy_failurePolicyRule1 — restarted (1 of maxRestarts 10): rule 1 "failurePolicyRule1" (RestartJobSet) matched child Job restart-job-example-simulations-3 failing with PodFailurePolicy_ExitCode3, event #6',
      }),
    ]);
  });

  it('says RestartingJobSet went False once the recreated Jobs were all ready', () => {
    const ready = explain(playFixture(EXIT_CODE_3_FIXTURE, 9));
    expect(ready.outcome).toBe('Running');
    expect(ready.conditions.map((c) => c.sentence)).toEqual(['RestartingJobSet (False): JobsReady — all jobs are ready, event #23']);
    expect(ready.summary).toBe(
      'JobSet default/restart-job-example is running (restart attempt 1, 1 of maxRestarts 10 counted): 4 Jobs — 4 active, 4 ready, 0 succeeded, 0 failed.',
    );
  });
});

describe('explainJobSet after a failure (seed 002, exit code 2)', () => {
  const explanation = explain(playFixture(EXIT_CODE_2_FIXTURE, 2));

  it('says the JobSet failed, and why, in its summary', () => {
    expect(explanation.outcome).toBe('Failed');
    expect(explanation.summary).toBe(
      'JobSet default/restart-job-example failed at 2026-01-01T00:00:10Z — FailJobSetFailurePolicyAction: applying FailJobSet failure policy action (first failed job: restart-job-example-simulations-2).',
    );
  });

  it('names rule 0, the failed child Job and its reason in the decision and the condition', () => {
    const failed = explanation.events.find((e) => e.type === 'JobSetFailed');
    expect(failed?.sentence).toBe(
      'Failed: rule 0 "failurePolicyRule0" (FailJobSet) matched child Job restart-job-example-simulations-2 failing with PodFailurePolicy_ExitCode2, event #7',
    );
    expect(explanation.conditions[0]?.sentence).toBe(
      'Failed: FailJobSetFailurePolicyAction — rule 0 "failurePolicyRule0" (FailJobSet) matched child Job restart-job-example-simulations-2 failing with PodFailurePolicy_ExitCode2, event #7',
    );
  });

  it('without the log, still names the child Job the message names and its reason', () => {
    const run = playFixture(EXIT_CODE_2_FIXTURE, 2);
    const bare = explainJobSet(run.state);
    expect(bare.events).toEqual([]);
    expect(bare.conditions[0]).toMatchObject({ evidence: undefined, decidedBy: undefined });
    expect(bare.conditions[0]?.sentence).toBe(
      'Failed: FailJobSetFailurePolicyAction — applying FailJobSet failure policy action (first failed job: restart-job-example-simulations-2); child Job restart-job-example-simulations-2 failed with PodFailurePolicy_ExitCode2',
    );
  });

  it('says when restarts reached maxRestarts', () => {
    const jobSet = aJobSet({ workers: 2 }, { failurePolicy: { maxRestarts: 0, rules: [{ action: 'RestartJobSet' }] } });
    const run = playInline(jobSet, [aChildJob('workers', 1, { type: 'Failed', reason: 'BackoffLimitExceeded' })]);
    expect(explain(run).events.find((e) => e.type === 'JobSetFailed')?.sentence).toBe(
      'Failed: rule 0 "failurePolicyRule0" (RestartJobSet) matched child Job ex-workers-1 failing with BackoffLimitExceeded, but 0 counted restarts already reached maxRestarts 0, event #4',
    );
  });

  it('says a JobSet without a failure policy fails on its first Job failure', () => {
    const run = playInline(aJobSet({ workers: 2 }), [aChildJob('workers', 0, { type: 'Failed', reason: 'DeadlineExceeded' })]);
    expect(explain(run).events.find((e) => e.type === 'JobSetFailed')?.sentence).toBe(
      'Failed: no failurePolicy, so the first failure fails it: child Job ex-workers-0 failing with DeadlineExceeded, event #4',
    );
  });

  it('says the default action applied when no rule matched', () => {
    const jobSet = aJobSet({ workers: 1 }, { failurePolicy: { maxRestarts: 3, rules: [{ action: 'FailJobSet', onJobFailureReasons: ['PodFailurePolicy'] }] } });
    const run = playInline(jobSet, [aChildJob('workers', 0, { type: 'Failed', reason: 'BackoffLimitExceeded' })]);
    expect(explain(run).events.find((e) => e.type === 'JobSetRestarted')?.sentence).toBe(
      'Restarted (1 of maxRestarts 3): no rule matched child Job ex-workers-0 failing with BackoffLimitExceeded, so the default action RestartJobSet applied, event #3',
    );
  });
});

describe('explainJobSet after completion', () => {
  const jobSet = aJobSet({ driver: 1, workers: 4 }, { successPolicy: { operator: 'All', targetReplicatedJobs: ['workers'] } });
  const run = playInline(jobSet, [0, 1, 2, 3].map((i) => aChildJob('workers', i, { type: 'Complete' })));
  const explanation = explain(run);

  it('counts the succeeded Jobs of the targeted replicated jobs', () => {
    expect(explanation.outcome).toBe('Completed');
    expect(explanation.events.find((e) => e.type === 'JobSetCompleted')?.sentence).toBe(
      'Completed: success policy All over [workers] — 4 of 4 Jobs succeeded, event #10',
    );
    expect(explanation.conditions.find((c) => c.type === 'Completed')?.sentence).toBe(
      'Completed: AllJobsCompleted — success policy All over [workers] — 4 of 4 Jobs succeeded, event #10',
    );
  });

  it('names every replicated job when the policy targets none', () => {
    const any = aJobSet({ a: 1, b: 1 }, { successPolicy: { operator: 'Any' } });
    const completed = explain(playInline(any, [aChildJob('b', 0, { type: 'Complete' })]));
    expect(completed.events.find((e) => e.type === 'JobSetCompleted')?.sentence).toBe(
      'Completed: success policy Any over [a, b] (all replicated jobs) — 1 Job succeeded (ex-b-0), 1 needed, event #4',
    );
  });
});

describe('explainJobSet before anything happened', () => {
  it('says no JobSet has been observed', () => {
    expect(explainJobSet(initialState())).toEqual({
      kind: 'JobSet',
      jobSet: undefined,
      outcome: 'Pending',
      summary: 'No JobSet has been observed.',
      restarts: 0,
      restartsCountTowardsMax: 0,
      conditions: [],
      events: [],
      rejection: [],
      waiting: [],
    });
  });

  it('explains a rejected spec with upstream field errors', () => {
    const invalid = aJobSet({ workers: 1 }, { failurePolicy: { rules: [{ action: 'FailJob' }] } });
    const explanation = explain(playInline(invalid, []));
    expect(explanation.outcome).toBe('Rejected');
    expect(explanation.rejection[0]).toMatch(/^spec\.failurePolicy\.rules\[0\]\.action: /);
    expect(explanation.events[0]?.sentence).toMatch(/^Rejected: 1 validation error — spec\.failurePolicy\.rules\[0\]\.action: /);
  });
});

describe('the JobSet explanation printed', () => {
  const text = print(explain(playFixture(EXIT_CODE_3_FIXTURE, 1)));

  it('prints one line per fact, commands issued together on one line', () => {
    expect(text.split('\n')).toEqual([
      'Outcome:   Restarting',
      expect.stringMatching(/^Summary: {3}JobSet default\/restart-job-example is restarting \(restart 1, 1 of maxRestarts 10 counted\) at /),
      'Restarts:  1 (1 counted towards maxRestarts)',
      'Waiting:',
      '  simulations: 4 of 4 Jobs not created — waiting for 4 Jobs of the earlier restart attempt to be deleted: restart-job-example-simulations-0, restart-job-example-simulations-1, restart-job-example-simulations-2, … 1 more',
      "Why (event #N = position in the JobSet's log):",
      expect.stringMatching(/^ {2}RestartingJobSet: FailurePolicy_failurePolicyRule1 — restarted /),
      'Decisions:',
      '  #2-#5 2026-01-01T00:00:05Z  CreateJob ×4 (restart attempt 0): restart-job-example-simulations-0, restart-job-example-simulations-1, restart-job-example-simulations-2, restart-job-example-simulations-3',
      expect.stringMatching(/^ {2}#7 2026-01-01T00:00:05Z {2}Restarted \(1 of maxRestarts 10\): /),
      '  #8-#11 2026-01-01T00:00:05Z  DeleteJob ×4: restart-job-example-simulations-0, restart-job-example-simulations-1, restart-job-example-simulations-2, restart-job-example-simulations-3',
    ]);
  });
});
