import { describe, expect, it } from 'vitest';
import type { PodObserved } from '../../../shared/job/events.ts';
import { anIndexedJob, aPod, at, podObserved } from '../../support/builders.ts';
import { writeWarm } from '../../property/job/stored-log.ts';

// Issue 21: upstream's syncJob checks the success policy (check 7) before the completions
// (check 8), and a sync that chose a finish condition neither manages pods nor checks
// completions. A Job whose view of its pods has a hole (the forwarder's jobSeq: an earlier pod
// event not arrived yet, pod-view-gap.ts) holds a new outcome until the hole closes; the sync that
// held the success policy went on to check completions, found them reached (the pods in the hole
// unseen, so none active) and wrote CompletionsReached, which no later sync takes back. Found by
// the generated cluster histories with the forwarder's counts (seed-8/history-59, 5 of 10 orders).

const job = anIndexedJob(1, { parallelism: 2, podReplacementPolicy: 'Failed', successPolicy: { rules: [{ succeededIndexes: '0' }] } });
const counted = (event: PodObserved, seq: number, jobSeq: number): PodObserved => ({ ...event, sequence: { epoch: 1, seq, jobSeq } });
// p0 (index 0) running and being deleted at 0:35; p5 (index 0) succeeded at 7:14, seen at 7:15
const p0 = counted(podObserved(aPod({ name: 'p0', index: 0, deletionTimestamp: at(35), resourceVersion: '2' }), at(35)), 1, 1);
const p5 = counted(podObserved(aPod({ name: 'p5', index: 0, phase: 'Succeeded', finishedAt: at(434), resourceVersion: '3' }), at(435)), 1, 2);

const conditionsAfter = async (batches: { at: string; events: PodObserved[] }[]) =>
  (await writeWarm(job, batches, batches.map(() => false))).written.at(-1)?.status.conditions.map((c) => `${c.type}:${c.reason}`);

describe('a success policy and completions met in one sync, the view with a hole', () => {
  it('given the cluster order, when folded, then the success policy is the reason', async () => {
    expect(await conditionsAfter([{ at: at(35), events: [p0] }, { at: at(435), events: [p5] }])).toEqual(['SuccessCriteriaMet:SuccessPolicy']);
  });

  it('given the success first (p0\'s event, sent before it, missing), when p0 arrives after, then the success policy is still the reason', async () => {
    expect(await conditionsAfter([{ at: at(435), events: [p5] }, { at: at(35), events: [p0] }])).toEqual(['SuccessCriteriaMet:SuccessPolicy']);
  });
});
