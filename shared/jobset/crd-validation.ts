import { FAILURE_POLICY_ACTIONS } from './constants.ts';
import type { DefaultedJobSetSpec } from './defaulting.ts';
import { notSupported, type JobSetValidationError } from './validation-error.ts';

/** What the CRD's OpenAPI schema rejects before the webhook runs: enums and list-map keys. */
export function validateSchema(spec: DefaultedJobSetSpec): JobSetValidationError[] {
  const errors: JobSetValidationError[] = [];
  const order = spec.startupPolicy.startupPolicyOrder;
  if (order !== 'AnyOrder' && order !== 'InOrder') {
    errors.push(notSupported('spec.startupPolicy.startupPolicyOrder', order, ['AnyOrder', 'InOrder']));
  }
  const operator = spec.successPolicy.operator;
  if (operator !== 'All' && operator !== 'Any') {
    errors.push(notSupported('spec.successPolicy.operator', operator, ['All', 'Any']));
  }
  const seen = new Set<string>();
  spec.replicatedJobs.forEach((rjob, index) => {
    if (seen.has(rjob.name)) {
      errors.push({ field: `spec.replicatedJobs[${index}]`, type: 'FieldValueDuplicate', detail: '', badValue: rjob.name });
    }
    seen.add(rjob.name);
  });
  const policy = spec.failurePolicy;
  if (policy === undefined) return errors;
  const strategies = ['Recreate', 'BlockingRecreate', 'InPlaceRestart'];
  if (!strategies.includes(policy.restartStrategy)) {
    errors.push(notSupported('spec.failurePolicy.restartStrategy', policy.restartStrategy, strategies));
  }
  policy.rules.forEach((rule, index) => {
    const path = `spec.failurePolicy.rules[${index}]`;
    if (!(FAILURE_POLICY_ACTIONS as readonly string[]).includes(rule.action)) {
      errors.push(notSupported(`${path}.action`, rule.action, FAILURE_POLICY_ACTIONS));
    }
    for (const list of ['onJobFailureReasons', 'onJobFailureMessagePatterns'] as const) {
      rule[list].forEach((value, j) => {
        if (rule[list].indexOf(value) < j) {
          errors.push({ field: `${path}.${list}[${j}]`, type: 'FieldValueDuplicate', detail: '', badValue: value });
        }
      });
    }
  });
  return errors;
}
