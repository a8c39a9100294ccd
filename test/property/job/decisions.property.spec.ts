import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecisionSchema } from '../../../shared/job/decisions.ts';
import { historyArb, jobArb } from './arbitraries.ts';
import { drive, startJob } from './drive.ts';

const caseArb = jobArb.chain((job) => fc.record({ job: fc.constant(job), batches: historyArb(job) }));

describe('Decisions (property)', () => {
  it('are valid log events that survive the JSON trip to the store unchanged', () => {
    fc.assert(
      fc.property(caseArb, ({ job, batches }) => {
        for (const { decisions } of drive(startJob(job), batches)) {
          for (const decision of decisions) {
            const stored = JSON.parse(JSON.stringify(decision));
            expect(DecisionSchema.parse(stored)).toEqual(decision);
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it('are the same, with the same ids, every time the same history is folded', () => {
    fc.assert(
      fc.property(caseArb, ({ job, batches }) => {
        expect(drive(startJob(job), batches)).toEqual(drive(startJob(job), batches));
      }),
      { numRuns: 100 },
    );
  });
});
