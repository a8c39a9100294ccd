import { FAILURE_POLICY_ACTIONS } from './constants.ts';
import type { DefaultedJobSetSpec } from './defaulting.ts';
import { belowMinimum, invalid, notSupported, type JobSetValidationError } from './validation-error.ts';

/** `maxItems` of `replicatedJobs[].dependsOn`. */
const MAX_DEPENDS_ON = 5;
const DEPENDS_ON_STATUSES = ['Ready', 'Complete'];

/**
 * What the CRD's OpenAPI schema rejects before the webhook runs: enums, minimums, list sizes,
 * list-map keys and the CEL rule on the spec.
 */
export function validateSchema(spec: DefaultedJobSetSpec): JobSetValidationError[] {
  const errors: JobSetValidationError[] = [];
  const ttl = spec.ttlSecondsAfterFinished;
  if (ttl !== undefined && ttl < 0) errors.push(belowMinimum('spec.ttlSecondsAfterFinished', ttl, 0));
  spec.replicatedJobs.forEach((rjob, index) => {
    if (rjob.replicas < 0) errors.push(belowMinimum(`spec.replicatedJobs[${index}].replicas`, rjob.replicas, 0));
    errors.push(...validateDependsOnSchema(rjob.dependsOn ?? [], `spec.replicatedJobs[${index}].dependsOn`));
  });
  // The CEL rule on JobSetSpec; the API server reports the object's type as the value.
  if (spec.startupPolicy.startupPolicyOrder === 'InOrder' && spec.replicatedJobs.some((rjob) => rjob.dependsOn !== undefined)) {
    errors.push(invalid('spec', 'StartupPolicy and DependsOn APIs are mutually exclusive', 'object'));
  }
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

/** `dependsOn`: at most 5 items, keyed by `name`, each `status` one of the enum. */
function validateDependsOnSchema(dependsOn: readonly { name: string; status: string }[], path: string): JobSetValidationError[] {
  const errors: JobSetValidationError[] = [];
  if (dependsOn.length > MAX_DEPENDS_ON) {
    errors.push({ field: path, type: 'FieldValueTooMany', detail: `must have at most ${MAX_DEPENDS_ON} items`, badValue: dependsOn.length });
  }
  dependsOn.forEach((item, j) => {
    if (dependsOn.findIndex((other) => other.name === item.name) < j) {
      errors.push({ field: `${path}[${j}]`, type: 'FieldValueDuplicate', detail: '', badValue: item.name });
    }
    if (!DEPENDS_ON_STATUSES.includes(item.status)) {
      errors.push(notSupported(`${path}[${j}].status`, item.status, DEPENDS_ON_STATUSES));
    }
  });
  return errors;
}
