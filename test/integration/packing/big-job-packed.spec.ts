import { describe, expect, it } from 'vitest';
import type { DeliveredEntry } from '../../../local/bus/bus-rules.ts';
import { TraceRecorder, type PodRef, type RecordedEntry } from '../../../local/sample/trace-recorder.ts';
import { PACKED_DETAIL_TYPE } from '../../../shared/contract/packed-observations.ts';
import { packedEntries } from '../../../bench/packed-feed.ts';
import { uidFor, withRealisticPods } from '../../../bench/realistic-pods.ts';
import { putAll } from '../../../bench/bench-stack.ts';
import { useTestStack } from '../local/local-stack-fixture.ts';

// A big Job through the local stack on DynamoDB Local, once as single events and once as the
// forwarder packs them (`Pod Observations`, its own packer at its defaults): the same Job in two
// clusters, same uids. Its pods are real-sized (bench/realistic-pods.ts: a real Indexed Job pod's
// labels, annotations, conditions and container statuses as the forwarder's trim keeps them,
// ~2.5 KB an event), so the packs are as big as a real Job's. Given a leader-only success policy with failures, when the leader
// succeeds and the cluster deletes every commanded pod, then both end with the same log, status
// and commands: every lingering pod terminated once, Complete after the deletions. Each event
// has a time of its own, so the writer decides after each one whatever its batches (a run of
// events sharing an observedAt that a batch boundary cuts is decided where it is cut: that is
// batching, the same with or without packs, and the batching properties cover it); events are
// put one call at a time, so both Jobs' events arrive in the same order.

const PODS = Number(process.env['JOBFOLD_BIG_PODS'] ?? 1_500);
// Now, not a fixed past date: the Job's wake-ups (expectations expire after 5 minutes) must not
// fire during the test, where their Tick would land at a different place in each log.
const START = new Date().toISOString();
/** A time of its own for pod `i`'s event in a phase starting at `at` seconds. */
const tick = (at: number, i: number) => at + i / 1000;
// Sent as the forwarder sends: a call reset on an idle keep-alive socket is made again.
const local = useTestStack({}, { maxAttempts: 6 });

/** The Job's life in `cluster`, phase by phase, so the second phase can delete what was commanded. */
function aBigJob(cluster: string) {
  const trace = new TraceRecorder(START, 'b1a0');
  const job = trace.job(cluster, 0, 'big', 'indexed-big', {
    completions: PODS, parallelism: PODS, completionMode: 'Indexed', backoffLimit: PODS, successPolicy: { rules: [{ succeededIndexes: '0' }] },
  });
  const pods: PodRef[] = Array.from({ length: PODS }, (_, i) => trace.runPod(job, tick(1, i), i));
  for (const [i, pod] of pods.entries()) {
    if (i === 0) continue;
    if (i % 50 === 0) trace.exitPod(pod, tick(3, i), 1);
    else if (i % 3 === 0) trace.exitPod(pod, tick(3, i), 0);
  }
  trace.exitPod(pods[0]!, 5, 0);
  return { trace, job, pods };
}

async function commandsOf(cluster: string): Promise<string[]> {
  const response = await fetch(`${local.stack.url}/local/clusters/${cluster}/commands`);
  return ((await response.json()) as DeliveredEntry[]).map((c) => `${c.detailType} ${String(c.detail['commandId'])}`).sort();
}

async function live(cluster: string, packed: boolean) {
  const { trace, job, pods } = aBigJob(cluster);
  const asSent = (entries: readonly RecordedEntry[]) => (packed ? packedEntries(withRealisticPods(entries)) : withRealisticPods(entries));
  const send = (entries: readonly RecordedEntry[]) => putAll(local.client, asSent(entries), 1);
  await send(trace.entries);
  await local.stack.whenQuiet(0);
  const terminated = new Set((await commandsOf(cluster)).filter((c) => c.startsWith('Pod Termination')).map((c) => c.split('/').at(-1)));
  const firstPhase = trace.entries.length;
  for (const [i, pod] of pods.entries()) if (terminated.has(uidFor(pod.uid))) trace.deletePod(pod, tick(10, i));
  await send(trace.entries.slice(firstPhase));
  await local.stack.whenQuiet(0);
  const stream = { kind: 'Job' as const, clusterId: cluster, namespace: 'big', uid: job.uid };
  const log = (await local.stack.store.read(stream)).entries.map((e) => `${e.seq} ${e.type} ${e.eventId}`);
  const status = (await (await fetch(`${local.stack.url}/v1/clusters/${cluster}/namespaces/big/jobs/${job.name}/status`)).json()) as Record<string, unknown>;
  const entriesSent = asSent(trace.entries);
  return { log, status: status['status'], commands: await commandsOf(cluster), terminated: terminated.size, packs: entriesSent.filter((e) => e.DetailType === PACKED_DETAIL_TYPE).length };
}

describe(`a ${PODS}-pod Job through the local stack, fed in packs`, () => {
  it('ends with the log, status and commands of the same Job fed singly', async () => {
    const singly = await live('single-c', false);
    const packed = await live('packed-c', true);
    expect(packed.packs).toBeGreaterThan(1);
    expect(singly.packs).toBe(0);
    expect(singly.terminated).toBeGreaterThan(PODS / 2);
    expect(singly.status).toMatchObject({ conditions: expect.arrayContaining([expect.objectContaining({ type: 'Complete', status: 'True' })]) });
    expect(packed.log).toEqual(singly.log);
    expect(packed.status).toEqual(singly.status);
    expect(packed.commands).toEqual(singly.commands);
    expect(new Set(packed.commands).size).toBe(packed.commands.length);
  }, 300_000);
});
