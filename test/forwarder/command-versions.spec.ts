import { describe, expect, it } from 'vitest';
import { parseCommandMessage } from '../../forwarder/commands/command-message.ts';
import { asQueueMessage } from './commands.ts';
import { CLUSTER_ID } from './harness.ts';

// The forwarder reads each command's detail with the schema jobfold builds it against
// (shared/contract/command-details.ts), and still applies what other jobfold versions wrote.

const job = { commandId: 'c-1', clusterId: CLUSTER_ID, namespace: 'default', jobName: 'job', jobUid: 'job-uid' };
const childJob = { commandId: 'c-2', clusterId: CLUSTER_ID, namespace: 'default', jobSetName: 'train', jobSetUid: 'js-uid', jobName: 'train-workers-0' };

describe('Given commands as other jobfold versions wrote them', () => {
  it('reads a Pod Creation Requested written before backoffLimitPerIndex counts (no indexFailureCount fields)', () => {
    const body = asQueueMessage('Pod Creation Requested', { ...job, index: 2, templateHash: 'h' });

    const parsed = parseCommandMessage(body, CLUSTER_ID);

    expect(parsed).toEqual({ kind: 'command', command: { type: 'CreatePod', ...job, index: 2, templateHash: 'h' } });
  });

  it('reads a Pod Termination Requested whose cause a newer jobfold named', () => {
    const detail = { ...job, podName: 'job-a', podUid: 'pod-uid', reason: 'R', message: 'M', cause: 'SomeNewCause' };

    const parsed = parseCommandMessage(asQueueMessage('Pod Termination Requested', detail), CLUSTER_ID);

    expect(parsed).toEqual({ kind: 'command', command: { type: 'TerminatePod', ...detail } });
  });

  it('reads a Pod Finalizer Removal Requested written before causes (no cause field), and one whose cause a newer jobfold named', () => {
    const before = { ...job, podName: 'job-a', podUid: 'pod-uid' };
    const newer = { ...before, cause: 'SomeNewCause' };

    expect(parseCommandMessage(asQueueMessage('Pod Finalizer Removal Requested', before), CLUSTER_ID)).toEqual({ kind: 'command', command: { type: 'RemovePodFinalizer', ...before } });
    expect(parseCommandMessage(asQueueMessage('Pod Finalizer Removal Requested', newer), CLUSTER_ID)).toEqual({ kind: 'command', command: { type: 'RemovePodFinalizer', ...newer } });
  });

  it('reads a Job Suspension Requested as every version wrote it', () => {
    const parsed = parseCommandMessage(asQueueMessage('Job Suspension Requested', childJob), CLUSTER_ID);

    expect(parsed).toEqual({ kind: 'command', command: { type: 'SuspendJob', ...childJob } });
  });
});

describe('Given a command whose detail breaks its schema', () => {
  it('is poison naming the field: a JobSet command without the JobSet uid', () => {
    const { jobSetUid: _uid, ...detail } = childJob;

    const parsed = parseCommandMessage(asQueueMessage('Job Deletion Requested', { ...detail, propagationPolicy: 'Foreground' }), CLUSTER_ID);

    expect(parsed).toMatchObject({ kind: 'poison', reason: 'invalid-detail', detailType: 'Job Deletion Requested' });
    expect(parsed.kind === 'poison' && parsed.message).toMatch(/^detail\.jobSetUid: /);
  });

  it('is poison naming the field: a pod name that is empty', () => {
    const detail = { ...job, podName: '', podUid: 'pod-uid' };

    const parsed = parseCommandMessage(asQueueMessage('Pod Finalizer Removal Requested', detail), CLUSTER_ID);

    expect(parsed).toMatchObject({ kind: 'poison', reason: 'invalid-detail' });
    expect(parsed.kind === 'poison' && parsed.message).toMatch(/^detail\.podName: /);
  });
});
