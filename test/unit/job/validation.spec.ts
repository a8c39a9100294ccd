import { describe, expect, it } from 'vitest';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { validateJob } from '../../../shared/job/validation/index.ts';
import { aJob, aPod, at, jobObserved, podObserved, tick, withSpec } from '../../support/builders.ts';
import { given } from '../../support/job-spec.ts';

const invalid = aJob({ parallelism: -1, completions: -2, completionMode: 'Sometimes' }, { restartPolicy: 'OnFailure' });

describe('Spec validation', () => {
  describe('When an invalid Job is observed with validateSpecs on', () => {
    it('rejects it once, listing every violation with upstream paths and messages', () => {
      given(invalid).expectingRejection()
        .when({ now: at(0) })
        .then((outcome) => {
          expect(outcome.commands).toEqual([]);
          expect(outcome.decisions).toHaveLength(1);
          const [rejection] = outcome.decisions;
          expect(rejection?.type).toBe('JobRejected');
          if (rejection?.type !== 'JobRejected') return;
          const expected = validateJob(invalid, { gates: DEFAULT_FOLD_CONFIG.gates });
          expect(rejection.errors).toEqual(expected.map(({ field, type, detail, message }) => ({ field, type, detail, message })));
          expect(rejection.errors.map((e) => e.field)).toEqual(
            expect.arrayContaining(['spec.parallelism', 'spec.completions', 'spec.completionMode']),
          );
          expect(rejection.errors.find((e) => e.field === 'spec.parallelism')).toMatchObject({
            type: 'FieldValueInvalid',
            message: 'spec.parallelism: Invalid value: -1: must be greater than or equal to 0',
          });
        });
    });

    it('records the rejection only once', () => {
      given(invalid, tick(at(0)), tick(at(10))).expectingRejection().when({ now: at(20) }).thenNothingHappened();
    });

    it('never reconciles its pods', () => {
      given(invalid, tick(at(0)), podObserved(aPod({ name: 'a', phase: 'Failed' }), at(5)))
        .expectingRejection()
        .when({ now: at(5) })
        .thenNothingHappened()
        .thenStatus({ conditions: [], startTime: null });
    });
  });

  describe('When an invalid update of a valid Job is observed', () => {
    it('refuses the update with its errors and keeps the Job as it was (issue 14 §2)', () => {
      const job = aJob({ completions: 2 });
      given(job, tick(at(0)), jobObserved(withSpec(job, { completionMode: 'Indexed' }), at(5)))
        .when({ now: at(5) })
        .then({ decisions: [{ type: 'JobUpdateRefused' }] })
        .then(({ decisions, state }) => {
          const refusal = decisions[0];
          expect(refusal?.type === 'JobUpdateRefused' && refusal.errors.map((e) => e.field)).toContain('spec.completionMode');
          expect(state.rejected).toBeUndefined();
          expect(state.settings?.indexed).toBe(false);
        });
    });
  });

  describe('When validateSpecs is off', () => {
    it('reconciles a Job the API server would reject', () => {
      given(aJob({ completionMode: 'Indexed' }))
        .withConfig({ validateSpecs: false })
        .when({ now: at(0) })
        .then(({ decisions }) => expect(decisions.map((d) => d.type)).toContain('StartTimeSet'));
    });
  });
});
