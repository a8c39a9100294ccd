import { describe, expect, it } from 'vitest';
import { uidFor, withRealisticPods } from '../../../bench/realistic-pods.ts';
import { TraceRecorder } from '../../../local/sample/trace-recorder.ts';
import { parseInbound } from '../../../shared/contract/parse-inbound.ts';

// The benches' realistic pods (bench/realistic-pods.ts) are what the forwarder would send for a
// real Indexed Job pod. Given a recorded Job's pods running, exiting and deleted, when they are
// rebuilt on the real pod's shape and sent through the forwarder's own event builder, then the
// service takes every one, each carries what the trim keeps of a real pod (all its labels and
// annotations, five conditions, the init container) and nothing it drops, and the same recording
// gives the same entries.

function recorded() {
  const trace = new TraceRecorder('2026-01-01T00:00:00Z', 'c0de');
  const job = trace.job('c1', 0, 'ml', 'train', { completions: 3, parallelism: 3, completionMode: 'Indexed' });
  const pods = [0, 1, 2].map((i) => trace.runPod(job, 1, i));
  trace.exitPod(pods[0]!, 3, 0);
  trace.exitPod(pods[1]!, 3, 1);
  trace.deletePod(pods[2]!, 4);
  return { trace, pods };
}

const envelope = (entry: { Source: string; DetailType: string; Detail: string }) => ({
  version: '0', id: 'x', 'detail-type': entry.DetailType, source: entry.Source, account: '1', time: '2026-01-01T00:00:00Z',
  region: 'eu-west-1', resources: [], detail: JSON.parse(entry.Detail) as unknown,
});

describe('realistic pods for the benches', () => {
  it('are taken by the service, carry what the forwarder keeps of a real pod, and are the same for the same recording', () => {
    const { trace, pods } = recorded();
    const entries = withRealisticPods(trace.entries);
    expect(entries).toHaveLength(trace.entries.length);
    for (const entry of entries) expect(parseInbound(envelope(entry)).ok).toBe(true);

    const running = JSON.parse(entries[1]!.Detail) as { eventId: string; partitionKey: string; object: Record<string, any> };
    expect(running.object['metadata'].uid).toBe(uidFor(pods[0]!.uid));
    expect(running.eventId).toMatch(new RegExp(`^${uidFor(pods[0]!.uid)}/\\d{9}$`));
    expect(Object.keys(running.object['metadata'].labels)).toHaveLength(13);
    expect(running.object['metadata'].labels['batch.kubernetes.io/job-completion-index']).toBe('0');
    expect(running.object['metadata'].annotations['kubectl.kubernetes.io/last-applied-configuration']).toBeUndefined();
    expect(running.object['metadata'].managedFields).toBeUndefined();
    expect(running.object['spec']).toEqual({ nodeName: expect.stringMatching(/^ip-10-42-/), restartPolicy: 'Never' });
    expect(running.object['status'].conditions.map((c: { type: string }) => c.type)).toHaveLength(5);
    expect(running.object['status'].initContainerStatuses).toHaveLength(1);
    expect(Buffer.byteLength(entries[1]!.Detail)).toBeGreaterThan(2000);

    const failed = JSON.parse(entries[5]!.Detail) as { object: Record<string, any> };
    expect(failed.object['status'].phase).toBe('Failed');
    expect(failed.object['status'].containerStatuses[0].state.terminated.exitCode).toBe(1);
    expect(entries[6]!.DetailType).toBe('Pod Deleted');
    expect(JSON.parse(entries[6]!.Detail).eventId).toBe(`${uidFor(pods[2]!.uid)}/deleted`);

    expect(withRealisticPods(recorded().trace.entries)).toEqual(entries);
  });
});
