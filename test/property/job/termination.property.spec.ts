import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { historyArb, jobArb } from './arbitraries.ts';
import { drive, startJob } from './drive.ts';

const caseArb = jobArb.chain((job) => fc.record({ job: fc.constant(job), batches: historyArb(job) }));

describe('Pod termination (property)', () => {
  it('asks for each pod’s termination at most once over the whole history', () => {
    fc.assert(
      fc.property(caseArb, ({ job, batches }) => {
        const reconciles = drive(startJob(job), batches);
        const terminated = reconciles.flatMap((r) => r.commands.flatMap((c) => (c.type === 'TerminatePod' ? [c.podUid] : [])));
        expect(terminated.filter((uid, i) => terminated.indexOf(uid) !== i)).toEqual([]);
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
