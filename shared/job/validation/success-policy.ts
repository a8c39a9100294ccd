import type { JobSpec, SuccessPolicyRule } from '../../k8s/job.ts';
import { invalid, required, tooLong, tooMany, validateNonnegativeField, type FieldError } from './field-error.ts';
import { utf8Length } from './go-format.ts';
import { validateIndexesFormat } from '../../indexes/index-set.ts';

/** Upstream `maxSuccessPolicyRule`. */
export const MAX_SUCCESS_POLICY_RULES = 20;
/** Upstream `maxJobSuccessPolicySucceededIndexesLimit`: 64 KiB. */
export const MAX_SUCCEEDED_INDEXES_LENGTH = 64 * 1024;

// Stands in for `completions` when an Indexed job has none (already reported as Required):
// upstream would dereference a nil pointer; every int32 index then passes the bound.
const NO_COMPLETIONS_BOUND = 2 ** 31;

/**
 * KEP-3998 `spec.successPolicy` (upstream `validateSuccessPolicy`): Indexed jobs only; 1 to 20
 * rules; each rule names `succeededIndexes` (a well-formed list below `completions`, at most
 * 64 KiB) and/or a `succeededCount` in `0..completions`, no more than the listed indexes.
 */
export function validateSuccessPolicy(spec: JobSpec): FieldError[] {
  const policy = spec.successPolicy;
  if (policy === undefined) return [];
  if (spec.completionMode !== 'Indexed') {
    return [invalid('spec.successPolicy', policy, 'requires indexed completion mode')];
  }
  const errors: FieldError[] = [];
  const rulesPath = 'spec.successPolicy.rules';
  if (policy.rules.length === 0) {
    errors.push(required(rulesPath, 'at least one rules must be specified when the successPolicy is specified'));
  }
  if (policy.rules.length > MAX_SUCCESS_POLICY_RULES) {
    errors.push(tooMany(rulesPath, policy.rules.length, MAX_SUCCESS_POLICY_RULES));
  }
  policy.rules.forEach((rule, i) => errors.push(...validateSuccessPolicyRule(rule, spec.completions, `${rulesPath}[${i}]`)));
  return errors;
}

function validateSuccessPolicyRule(rule: SuccessPolicyRule, completions: number | undefined, rulePath: string): FieldError[] {
  const errors: FieldError[] = [];
  const { succeededIndexes, succeededCount } = rule;
  if (succeededIndexes === undefined && succeededCount === undefined) {
    errors.push(required(rulePath, 'at least one of succeededCount or succeededIndexes must be specified'));
  }
  let totalIndexes = 0;
  if (succeededIndexes !== undefined) {
    const indexesPath = `${rulePath}.succeededIndexes`;
    if (utf8Length(succeededIndexes) > MAX_SUCCEEDED_INDEXES_LENGTH) {
      errors.push(tooLong(indexesPath, succeededIndexes, MAX_SUCCEEDED_INDEXES_LENGTH));
    }
    const format = validateIndexesFormat(succeededIndexes, completions ?? NO_COMPLETIONS_BOUND);
    // Upstream keeps a total of 0 when parsing fails, so any positive count is then also reported.
    if (format.ok) totalIndexes = format.total;
    else errors.push(invalid(indexesPath, succeededIndexes, `error parsing succeededIndexes: ${format.message}`));
  }
  if (succeededCount !== undefined) {
    const countPath = `${rulePath}.succeededCount`;
    errors.push(...validateNonnegativeField(succeededCount, countPath));
    if (completions !== undefined && succeededCount > completions) {
      errors.push(invalid(countPath, succeededCount, `must be less than or equal to ${completions} (the number of specified completions)`));
    }
    if (succeededIndexes !== undefined && succeededCount > totalIndexes) {
      errors.push(
        invalid(
          countPath,
          succeededCount,
          `must be less than or equal to ${totalIndexes} (the number of indexes in the specified succeededIndexes field)`,
        ),
      );
    }
  }
  return errors;
}
