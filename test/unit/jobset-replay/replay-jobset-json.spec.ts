import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runReplay } from '../replay/run-replay.ts';
import { EXIT_CODE_2_FIXTURE, EXIT_CODE_3_TRACE } from './jobset-scenarios.ts';

const REPORT_KEYS = ['source', 'jobSet', 'status', 'conditions', 'childJobs', 'commands', 'explanation', 'logLength'];
const EXPLANATION_KEYS = ['kind', 'jobSet', 'outcome', 'summary', 'restarts', 'restartsCountTowardsMax', 'conditions', 'events', 'rejection', 'waiting'];

const scenarioReplay = await runReplay(EXIT_CODE_2_FIXTURE, '--json');

describe('jobfold replay --json of a JobSet scenario', () => {
  const { code, out } = scenarioReplay;
  const report = JSON.parse(out);

  it('prints one object with the report fields and the explanation', async () => {
    expect(code).toBe(0);
    expect(Object.keys(report)).toEqual(REPORT_KEYS);
    expect(Object.keys(report.explanation)).toEqual(EXPLANATION_KEYS);
    expect(report.source).toEqual({ file: EXIT_CODE_2_FIXTURE, kind: 'jobset-scenario', id: 'seed-002__story-2-exit-code-2-fails-jobset' });
    expect(report.jobSet).toEqual({ namespace: 'default', name: 'restart-job-example', uid: 'restart-job-example-uid' });
  });

  it('has the status the scenario expects at its last checkpoint', async () => {
    const last = JSON.parse(readFileSync(EXIT_CODE_2_FIXTURE, 'utf8')).checkpoints.at(-1).expect;
    expect(report.status).toMatchObject({
      terminalState: last.terminalState,
      restarts: last.restarts,
      restartsCountTowardsMax: last.restartsCountTowardsMax,
      replicatedJobsStatus: last.replicatedJobsStatus,
    });
    expect(report.conditions).toEqual(report.status.conditions);
  });

  it('lists commands with their time and without the Job manifest', async () => {
    expect(report.commands[0]).toEqual({
      at: '2026-01-01T00:00:05Z',
      type: 'CreateJob',
      commandId: 'restart-job-example-uid/0/restart-job-example-simulations-0/CreateJob/1',
      namespace: 'default',
      name: 'restart-job-example-simulations-0',
      replicatedJob: 'simulations',
      jobIndex: 0,
      restartAttempt: 0,
      suspend: false,
    });
  });

  it('keeps each decision with its sentence and the decision itself', async () => {
    const failed = report.explanation.events.find((e: { type: string }) => e.type === 'JobSetFailed');
    expect(failed).toMatchObject({ seq: 8, tippedBy: 7, decision: { rule: { name: 'failurePolicyRule0', action: 'FailJobSet' } } });
  });
});

describe('jobfold replay --json of a JobSet trace', () => {
  it('says which commands left jobfold and lists every child Job with the reason it failed', async () => {
    const report = JSON.parse((await runReplay(EXIT_CODE_3_TRACE, '--json')).out);
    expect(Object.keys(report)).toEqual(REPORT_KEYS);
    expect(report.source).toEqual({ file: EXIT_CODE_3_TRACE, kind: 'jobset-trace' });
    expect(report.status).toMatchObject({ restarts: 1, restartsCountTowardsMax: 1, terminalState: '' });
    expect(report.commands.map((c: { type: string; dispatched: boolean }) => `${c.type}:${c.dispatched}`)).toEqual([
      ...Array(4).fill('CreateJob:true'),
      ...Array(4).fill('DeleteJob:true'),
      ...Array(4).fill('CreateJob:true'),
    ]);
    expect(report.childJobs).toHaveLength(8);
    expect(report.childJobs[3]).toMatchObject({
      name: 'restart-job-example-simulations-3',
      restartAttempt: 0,
      status: 'Failed, deleted',
      failureReason: 'PodFailurePolicy_ExitCode3',
    });
    expect(report.explanation.outcome).toBe('Running');
  });
});
