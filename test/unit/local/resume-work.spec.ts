import { describe, expect, it } from 'vitest';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { jobWakeUp } from '../../../local/data/job-wake-up.ts';
import { resumeStoredWork } from '../../../local/data/resume-work.ts';
import { aJob, aPod, at, CLUSTER, jobObserved, podObserved } from '../../support/builders.ts';
import { writeDeps, writeJob } from '../writer/write-support.ts';

// `npm start -- --data DIR` restarted: each Job not finished gets back the timer its writer
// last asked for, computed from its log without writing to it; a finished Job gets nothing.

const streamOf = (uid: string): StreamId => ({ kind: 'Job', clusterId: CLUSTER, namespace: 'default', uid });

async function aStoreWithTwoJobs() {
  const store = new InMemoryEventStore();
  const running = aJob({ activeDeadlineSeconds: 60 }, { uid: 'running', name: 'running' });
  const done = aJob({}, { uid: 'done', name: 'done' });
  const waiting = await writeJob(writeDeps(store), streamOf('running'), [jobObserved(running, at(0)), podObserved(aPod({ name: 'r' }), at(1))]);
  await writeJob(writeDeps(store), streamOf('done'), [jobObserved(done, at(0)), podObserved(aPod({ name: 'd', uid: 'd', phase: 'Succeeded' }), at(1))]);
  return { store, asked: waiting.wakeAt };
}

describe('Given a kept store with a Job waiting for its deadline and a finished Job', () => {
  it('when the stack restarts, then only the unfinished Job is woken, at the deadline its writer asked for, and no log grows', async () => {
    const { store, asked } = await aStoreWithTwoJobs();
    const heads = async () => [(await store.read(streamOf('running'))).head, (await store.read(streamOf('done'))).head];
    const before = await heads();
    const woken: StreamId[] = [];

    const count = await resumeStoredWork(store, { wakeJob: (s) => woken.push(s), publish: () => undefined });

    expect(count).toBe(1);
    expect(woken.map((s) => s.uid)).toEqual(['running']);
    expect(asked).toBe(at(60));
    expect(await jobWakeUp({ store, config: DEFAULT_FOLD_CONFIG }, streamOf('running'))).toBe(asked);
    expect(await heads()).toEqual(before);
  });
});
