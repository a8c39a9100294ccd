import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../../shared/contract/jsonl-trace.ts';
import { parseJsonlEvents, parseJsonlLine } from '../../../cli/replay/jsonl-events.ts';

const entry = (DetailType: string, object: unknown, detail: Record<string, unknown> = {}) =>
  JSON.stringify({
    Source: 'jobfold.cluster.dev-eu-1',
    DetailType,
    Detail: JSON.stringify({ eventId: 'e1', observedAt: '2026-01-01T00:00:10Z', object, ...detail }),
  });

const pod = {
  metadata: { name: 'train-0', namespace: 'ml', uid: 'pod-uid-0', labels: { 'batch.kubernetes.io/controller-uid': 'job-uid' } },
  status: { phase: 'Running' },
};
const job = {
  metadata: { name: 'train', namespace: 'ml', uid: 'job-uid' },
  spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main' }] } } },
};

describe('parseJsonlLine, PutEvents entries', () => {
  it('maps Pod Observed to PodObserved with the cluster id from Source', () => {
    const result = parseJsonlLine(entry('Pod Observed', pod));
    expect(result).toMatchObject({
      ok: true,
      observation: { type: 'PodObserved', eventId: 'e1', clusterId: 'dev-eu-1', observedAt: '2026-01-01T00:00:10Z', pod: { metadata: { uid: 'pod-uid-0' } } },
    });
  });

  it('maps Pod Deleted to PodDeleted with the uid, name and namespace of the last known pod', () => {
    expect(parseJsonlLine(entry('Pod Deleted', pod))).toEqual({
      ok: true,
      observation: { type: 'PodDeleted', eventId: 'e1', clusterId: 'dev-eu-1', observedAt: '2026-01-01T00:00:10Z', uid: 'pod-uid-0', name: 'train-0', namespace: 'ml' },
      jobUid: 'job-uid',
    });
  });

  it('maps Job Observed and Job Deleted', () => {
    expect(parseJsonlLine(entry('Job Observed', job))).toMatchObject({ ok: true, observation: { type: 'JobObserved', job: { metadata: { uid: 'job-uid' } } } });
    expect(parseJsonlLine(entry('Job Deleted', job))).toEqual({
      ok: true,
      observation: { type: 'JobDeleted', eventId: 'e1', clusterId: 'dev-eu-1', observedAt: '2026-01-01T00:00:10Z', uid: 'job-uid' },
      jobUid: 'job-uid',
    });
  });

  it.each([
    ['a Source of another bus', JSON.stringify({ Source: 'aws.ec2', DetailType: 'Pod Observed', Detail: '{}' }), 'Source'],
    ['a cluster id that is not a DNS label', entry('Pod Observed', pod).replace('dev-eu-1', 'Dev_EU'), 'Source'],
    ['an unknown DetailType', entry('Pod Gone', pod), 'DetailType'],
    ['a Detail that is not JSON', JSON.stringify({ Source: 'jobfold.cluster.a', DetailType: 'Pod Observed', Detail: '{' }), 'Detail'],
    ['a bad observedAt', entry('Pod Observed', pod, { observedAt: 'noon' }), 'Detail.observedAt'],
    ['an empty eventId', entry('Pod Observed', pod, { eventId: '' }), 'Detail.eventId'],
    ['a pod without a uid', entry('Pod Observed', { metadata: { name: 'p' } }), 'Detail.object.metadata.uid'],
    ['a bad pod phase', entry('Pod Observed', { ...pod, status: { phase: 'Done' } }), 'Detail.object.status.phase'],
    ['a deleted pod without a uid', entry('Pod Deleted', { metadata: { name: 'p' } }), 'Detail.object.metadata.uid'],
    ['a pod without a namespace', entry('Pod Observed', { metadata: { name: 'p', uid: 'u' } }), 'Detail.object.metadata.namespace'],
    ['a pod that names no Job', entry('Pod Observed', { metadata: { name: 'p', namespace: 'ml', uid: 'u' } }), 'Detail.object.metadata.ownerReferences'],
    ['a payload that names a cluster', entry('Pod Observed', pod, { clusterId: 'other' }), 'Detail.clusterId'],
    ['a Job without a uid', entry('Job Observed', { ...job, metadata: { name: 'train' } }), 'Detail.object.metadata.uid'],
  ])('names the field of %s', (_, line, path) => {
    const result = parseJsonlLine(line);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0]?.path).toBe(path);
  });
});

describe('parseJsonlLine, events as EventBridge delivers them', () => {
  it('reads source, detail-type and detail', () => {
    const delivered = { source: 'jobfold.cluster.dev-eu-1', 'detail-type': 'Pod Observed', detail: { eventId: 'e1', observedAt: '2026-01-01T00:00:10Z', object: pod } };
    expect(parseJsonlLine(JSON.stringify(delivered))).toMatchObject({ ok: true, observation: { type: 'PodObserved', clusterId: 'dev-eu-1' }, jobUid: 'job-uid' });
  });

  it('names the field as the event spells it', () => {
    const delivered = { source: 'jobfold.cluster.dev-eu-1', 'detail-type': 'Pod Observed', detail: { eventId: 'e1', observedAt: 'noon', object: pod } };
    expect(parseJsonlLine(JSON.stringify(delivered))).toMatchObject({ ok: false, problems: [{ path: 'detail.observedAt' }] });
  });
});

describe('parseJsonlLine, observations in the fold shape', () => {
  it('takes an observation as it is', () => {
    const tick = { type: 'Tick', eventId: 't1', clusterId: 'dev', observedAt: '2026-01-01T00:01:00Z' };
    expect(parseJsonlLine(JSON.stringify(tick))).toEqual({ ok: true, observation: tick });
  });

  it('asks for a type or a PutEvents entry when a line has neither', () => {
    expect(parseJsonlLine('{"eventId":"x"}')).toMatchObject({ ok: false, problems: [{ path: 'type' }] });
  });

  it('refuses a line that is not an object', () => {
    expect(parseJsonlLine('[1]')).toEqual({ ok: false, problems: [{ path: '', message: 'expected a JSON object' }] });
  });
});

describe('parseJsonlEvents', () => {
  it('skips blank lines and keeps the file line of each event', () => {
    const result = parseJsonlEvents(`${entry('Job Observed', job)}\n\n${entry('Pod Observed', pod)}\n`);
    expect(result.ok && result.events.map((e) => [e.line, e.observation.type])).toEqual([
      [1, 'JobObserved'],
      [3, 'PodObserved'],
    ]);
  });

  it('refuses a pod of another Job', () => {
    const stranger = { ...pod, metadata: { ...pod.metadata, labels: { 'batch.kubernetes.io/controller-uid': 'other-uid' } } };
    const result = parseJsonlEvents(`${entry('Job Observed', job)}\n${entry('Pod Observed', stranger)}`);
    expect(result).toMatchObject({ ok: false, problems: [{ line: 2, path: 'Detail.object.metadata.ownerReferences' }] });
  });

  it('refuses a second Job in one stream', () => {
    const other = { ...job, metadata: { ...job.metadata, uid: 'other-uid' } };
    const result = parseJsonlEvents(`${entry('Job Observed', job)}\n${entry('Job Observed', other)}`);
    expect(result).toEqual({
      ok: false,
      problems: [{ line: 2, path: 'Detail.object.metadata.uid', message: 'another Job (uid other-uid); this stream is Job job-uid' }],
    });
  });

  it('formats a problem as FILE:LINE: field: message', () => {
    expect(formatProblem('in.jsonl', { line: 4, path: 'Detail.observedAt', message: 'Invalid ISO datetime' })).toBe(
      'in.jsonl:4: Detail.observedAt: Invalid ISO datetime',
    );
    expect(formatProblem('in.jsonl', { line: 2, path: '', message: 'expected a JSON object' })).toBe('in.jsonl:2: expected a JSON object');
  });
});
