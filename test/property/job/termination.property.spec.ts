import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { historyArb, jobArb } from './arbitraries.ts';
import { drive, startJob } from './drive.ts';

const caseArb = jobArb.chain((job) => fc.record({ job: fc.constant(job), batches: historyArb(job) }));

describe('Pod termination (property)', () => {
  // A Job jobfold runs asks again for a deletion it did not see made once its expectation
  // expired (the forwarder's guard may have refused it: shared/job/termination-lapse.ts); the
  // `PodsTerminationExpired` that takes the pod back is logged before the new request.
  it('asks for each pod’s termination once, and again only after a PodsTerminationExpired took the pod back', () => {
    fc.assert(
      fc.property(caseArb, ({ job, batches }) => {
        const asked = new Set<string>();
        const askedAgain: string[] = [];
        for (const { decisions, commands } of drive(startJob(job), batches)) {
          for (const d of decisions) if (d.type === 'PodsTerminationExpired') for (const pod of d.pods) asked.delete(pod.uid);
          for (const c of commands) {
            if (c.type !== 'TerminatePod') continue;
            if (asked.has(c.podUid)) askedAgain.push(c.podUid);
            asked.add(c.podUid);
          }
        }
        expect(askedAgain).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('records one PodsTerminationRequested per TerminatePod command', () => {
    fc.assert(
      fc.property(caseArb, ({ job, batches }) => {
        for (const { decisions, commands } of drive(startJob(job), batches)) {
          const requested = decisions.flatMap((d) => (d.type === 'PodsTerminationRequested' ? d.pods.map((p) => p.uid) : []));
          const sent = commands.flatMap((c) => (c.type === 'TerminatePod' ? [c.podUid] : []));
          expect(sent).toEqual(requested);
        }
      }),
      { numRuns: 100 },
    );
  });
});
