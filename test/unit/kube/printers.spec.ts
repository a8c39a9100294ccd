import { describe, expect, it } from 'vitest';
import type { JobObject } from '../../../functions/kube/objects/job-object.ts';
import type { PodObject } from '../../../functions/kube/objects/pod-objects.ts';
import { eventPrinter, jobPrinter, podPrinter, tableOf } from '../../../functions/kube/tables.ts';
import { humanDuration } from '../../../shared/k8s/human-duration.ts';

// Server-side printing as upstream's printers fill the cells (pkg/printers/internalversion).

const NOW = Date.parse('2026-01-10T00:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString().replace('.000Z', 'Z');

function job(spec: Record<string, unknown>, status: Record<string, unknown>, metadata: Record<string, unknown> = {}): JobObject {
  return {
    apiVersion: 'batch/v1', kind: 'Job',
    metadata: { name: 'train', namespace: 'ml', uid: 'u', resourceVersion: '1', labels: {}, creationTimestamp: ago(600), ...metadata },
    spec: { template: { spec: { containers: [{ name: 'main', image: 'img:1' }, { name: 'side', image: 'img:2' }] } }, ...spec },
    status,
  };
}

function pod(status: Record<string, unknown>, metadata: Record<string, unknown> = {}, spec: Record<string, unknown> = {}): PodObject {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: 'train-0-abcde', namespace: 'ml', uid: 'p', resourceVersion: '1', labels: {}, creationTimestamp: ago(90), ...metadata },
    spec: { containers: [{ name: 'main' }], nodeName: 'node-1', ...spec },
    status,
  };
}

describe('the Job printer', () => {
  it('fills NAME, STATUS, COMPLETIONS, DURATION, AGE and the wide CONTAINERS, IMAGES, SELECTOR', () => {
    const done = job({ completions: 4, selector: { matchLabels: { b: '2', a: '1' } } }, {
      succeeded: 4, startTime: ago(300), completionTime: ago(100), conditions: [{ type: 'Complete', status: 'True' }],
    });
    expect(jobPrinter.row(done, NOW).cells).toEqual(['train', 'Complete', '4/4', '3m20s', '10m', 'main,side', 'img:1,img:2', 'a=1,b=2']);
  });

  it('words STATUS and COMPLETIONS as upstream: work queues, parallelism, interim conditions, deletion', () => {
    const status = (s: Record<string, unknown>, spec: Record<string, unknown> = { completions: 2 }, meta: Record<string, unknown> = {}) =>
      jobPrinter.row(job(spec, s, meta), NOW).cells.slice(1, 4);
    expect(status({ startTime: ago(30) })).toEqual(['Running', '0/2', '30s']);
    expect(status({ succeeded: 1 }, { parallelism: 3 })).toEqual(['Running', '1/1 of 3', '']);
    expect(status({}, { parallelism: 1 })).toEqual(['Running', '0/1', '']);
    expect(status({ conditions: [{ type: 'FailureTarget', status: 'True' }] })[0]).toBe('FailureTarget');
    expect(status({ conditions: [{ type: 'SuccessCriteriaMet', status: 'True' }] })[0]).toBe('SuccessCriteriaMet');
    expect(status({ conditions: [{ type: 'Suspended', status: 'True' }] })[0]).toBe('Suspended');
    expect(status({ conditions: [{ type: 'Suspended', status: 'False' }] })[0]).toBe('Running');
    expect(status({}, { completions: 2 }, { deletionTimestamp: ago(1) })[0]).toBe('Terminating');
    expect(status({ conditions: [{ type: 'FailureTarget', status: 'True' }, { type: 'Failed', status: 'True' }] })[0]).toBe('Failed');
  });
});

describe('the pod printer', () => {
  const running = { state: { running: {} }, ready: true, restartCount: 2 };
  const cells = (p: PodObject) => podPrinter.row(p, NOW).cells;

  it('fills READY, STATUS, RESTARTS and AGE from the containers', () => {
    expect(cells(pod({ phase: 'Running', containerStatuses: [{ name: 'main', ...running }] })).slice(0, 5)).toEqual(['train-0-abcde', '1/1', 'Running', '2', '90s']);
    expect(cells(pod({ phase: 'Succeeded', containerStatuses: [{ name: 'main', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] }))[2]).toBe('Completed');
    expect(cells(pod({ phase: 'Failed', containerStatuses: [{ name: 'main', state: { terminated: { exitCode: 42 } } }] }))[2]).toBe('ExitCode:42');
    expect(cells(pod({ phase: 'Failed', containerStatuses: [{ name: 'main', state: { terminated: { exitCode: 137, reason: 'OOMKilled' } } }] }))[2]).toBe('OOMKilled');
    expect(cells(pod({ phase: 'Pending', containerStatuses: [{ name: 'main', state: { waiting: { reason: 'ImagePullBackOff' } } }] }))[2]).toBe('ImagePullBackOff');
    expect(cells(pod({ phase: 'Running', containerStatuses: [{ name: 'main', ...running }] }, { deletionTimestamp: ago(1) }))[2]).toBe('Terminating');
    expect(cells(pod({ phase: 'Failed', reason: 'Evicted' }))[2]).toBe('Evicted');
  });

  it('shows init containers while they run, and marks finished pods\' rows as upstream does', () => {
    const init = pod({ phase: 'Pending', initContainerStatuses: [{ name: 'setup', state: { waiting: { reason: 'PodInitializing' } } }] }, {}, { initContainers: [{ name: 'setup' }] });
    expect(cells(init)[2]).toBe('Init:0/1');
    expect(podPrinter.row(pod({ phase: 'Succeeded' }), NOW).conditions?.[0]).toMatchObject({ type: 'Completed', status: 'True', reason: 'Succeeded' });
  });
});

describe('Tables', () => {
  it('carry each row\'s object as metadata, whole or not at all (includeObject)', () => {
    const j = job({ completions: 1 }, {});
    const table = (include: 'None' | 'Metadata' | 'Object') => tableOf(jobPrinter, [j], include, { resourceVersion: '5' }, NOW) as { rows: { object?: unknown }[]; metadata: unknown; kind: string };
    expect(table('Metadata').rows[0]?.object).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: j.metadata });
    expect(table('Object').rows[0]?.object).toBe(j);
    expect(table('None').rows[0]).not.toHaveProperty('object');
    expect(table('None')).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '5' } });
    expect(eventPrinter.columns.filter((c) => c.priority === 0).map((c) => c.name)).toEqual(['Last Seen', 'Type', 'Reason', 'Object', 'Message']);
  });
});

describe('humanDuration', () => {
  it('abbreviates as apimachinery does', () => {
    expect([0, 5, 119, 120, 185, 600, 10_800, 3 * 3600 + 240, 9 * 3600, 50 * 3600, 9 * 86400, 800 * 86400, 3000 * 86400].map((s) => humanDuration(s * 1000)))
      .toEqual(['0s', '5s', '119s', '2m', '3m5s', '10m', '3h', '3h4m', '9h', '2d2h', '9d', '2y70d', '8y']);
    expect(humanDuration(-1500)).toBe('0s');
    expect(humanDuration(-2500)).toBe('<invalid>');
  });
});
