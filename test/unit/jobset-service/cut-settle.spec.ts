import { describe, expect, it } from 'vitest';
import type { StreamId } from '../../../shared/app/event-store.ts';
import { publishPending, type Publisher } from '../../../shared/app/publish.ts';
import { reconcileJobSet } from '../../../shared/app/reconcile-jobset.ts';
import { JOBFOLD_JOBSET_CONTROLLER_NAME } from '../../../shared/contract/jobset-outbound.ts';
import type { OutboundEvent } from '../../../shared/contract/outbound.ts';
import { InMemoryEventStore } from '../../../shared/app/in-memory-event-store.ts';
import { CrashableStore, SimulatedCrash, type CrashPoint } from '../../support/service-harness.ts';
import { at, jobSetObserved } from '../jobset/support/builders.ts';

// A JobSet of 70 child Jobs settles into more decisions than one commit takes (32 entries a
// step), all its commands queued with the first step. A crash between steps, then a retry at a
// later time, leaves the log a run without a crash writes (the rest decided at the settle's own
// time) and every Job Creation Requested published once, under the id it has without a crash.

const stream: StreamId = { kind: 'JobSet', clusterId: 'c1', namespace: 'default', uid: 'js-uid' };

class RecordingBus implements Publisher {
  readonly sent: OutboundEvent[] = [];
  async publish(events: readonly OutboundEvent[]) {
    this.sent.push(...events);
    return { failed: [] };
  }
}

async function run(crash?: { step: number; point: CrashPoint }) {
  const store = new CrashableStore(new InMemoryEventStore());
  const observed = jobSetObserved({ replicatedJobs: [{ name: 'workers', replicas: 70 }], managedBy: JOBFOLD_JOBSET_CONTROLLER_NAME });
  await store.append(stream, [{ eventId: 'js-uid/observed', type: observed.type, observedAt: at(0), body: observed }], at(0));
  const bus = new RecordingBus();
  let commits = 0;
  store.beforeCommit = async () => {
    if (++commits === crash?.step) store.crashOnce(crash.point);
  };
  const publish = async () => {
    while ((await publishPending({ store, publisher: bus, clock: () => at(9) })).items > 0);
  };
  let crashes = 0;
  for (let done = false; !done;) {
    try {
      await reconcileJobSet({ store, clock: () => at(1 + crashes) }, stream);
      done = true;
    } catch (error) {
      if (!(error instanceof SimulatedCrash)) throw error;
      crashes += 1;
    }
    await publish();
  }
  const log = (await store.read(stream)).entries.map(({ seq, eventId, type, body }) => ({ seq, eventId, type, body }));
  return { log, commits, crashes, ids: bus.sent.map((e) => `${e.detailType} ${e.commandId}`).sort() };
}

describe('given a managed JobSet whose first settle takes several commit steps', () => {
  it('when the reconcile dies before or after any step and is retried later, then the log and every command are those of a run without a crash', async () => {
    const reference = await run();
    expect(reference.commits).toBeGreaterThanOrEqual(3);
    expect(reference.ids.filter((id) => id.startsWith('Job Creation Requested'))).toHaveLength(70);
    expect(new Set(reference.ids).size).toBe(reference.ids.length);
    for (let step = 1; step <= reference.commits; step++) {
      for (const point of ['commit', 'afterCommit'] as const) {
        const crashed = await run({ step, point });
        const where = `${point} step ${step}`;
        expect(crashed.crashes, where).toBe(1);
        // (dead before anything was logged, the retry settles at its own, later time)
        const nothingLogged = point === 'commit' && step === 1;
        const shape = (log: typeof reference.log) => log.map(({ seq, eventId, type }) => ({ seq, eventId, type }));
        if (nothingLogged) expect(shape(crashed.log), where).toEqual(shape(reference.log));
        else expect(crashed.log, where).toEqual(reference.log);
        expect(crashed.ids, where).toEqual(reference.ids);
      }
    }
  });
});
