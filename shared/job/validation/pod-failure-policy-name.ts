import type { PodFailurePolicyRule } from '../../k8s/job.ts';
import { POD_FAILURE_POLICY_REASON_PREFIX } from '../../policies/pod-failure-policy.ts';
import { duplicate, invalid, type FieldError } from './field-error.ts';
import { goQuote, regexError, utf8Length } from './go-format.ts';

/**
 * KEP-4443 rule names (seed 002, Design Details > Validation). Not in upstream Kubernetes, so
 * the messages are jobfold's own, written in upstream's style; paths and error types follow the
 * corpus readings (shared/conformance/k8s-validation/README.md, "KEP-4443 rule names").
 *
 * Feature gate off: the seed's upgrade/downgrade and PRR sections say an API server without
 * the gate *removes* the field from new Jobs ("the kube-apiserver would remove this field when
 * the Job is submitted") and the controller ignores it; nothing is rejected. Validation there
 * runs after the field is dropped, so with the gate off jobfold does not validate names at all
 * and reports no error for them (validateJobUpdate likewise ignores names newly added to a
 * policy that had none). Whoever stores the Job drops or ignores the field.
 */

/** The prefix of the reason a rule that fails the Job produces: `PodFailurePolicy_<name or index>`. */
const RULE_REASON_PREFIX = POD_FAILURE_POLICY_REASON_PREFIX;
/** The seed's limit on the generated reason. */
export const MAX_RULE_REASON_LENGTH = 128;

/** The Job controller's own reasons (batch/v1 `JobReason*`), which a name may not take. */
const CONTROLLER_REASONS = [
  'PodFailurePolicy',
  'BackoffLimitExceeded',
  'DeadlineExceeded',
  'MaxFailedIndexesExceeded',
  'FailedIndexes',
  'SuccessPolicy',
  'CompletionsReached',
];

// metav1.Condition's reason format (apimachinery meta/v1/validation, isValidConditionReason).
const CONDITION_REASON_FMT = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const CONDITION_REASON_ERR_MSG =
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";
const CONDITION_REASON_REGEXP = new RegExp(`^${CONDITION_REASON_FMT}$`);

const REASON_TOO_LONG_DETAIL =
  `must be no more than ${MAX_RULE_REASON_LENGTH - RULE_REASON_PREFIX.length} characters, ` +
  `so that the reason ${RULE_REASON_PREFIX}<name> is no more than ${MAX_RULE_REASON_LENGTH} characters`;

const CONDITION_REASON_ERROR = regexError(
  CONDITION_REASON_ERR_MSG,
  CONDITION_REASON_FMT,
  'my_name',
  'MY_NAME',
  'MyName',
  'ReasonA,ReasonB',
  'ReasonA:ReasonB',
);

/**
 * Checks `spec.podFailurePolicy.rules[].name`: unique (the later occurrence is the duplicate);
 * the reason `PodFailurePolicy_<name>` a valid condition reason of at most 128 characters; a
 * CamelCase name, i.e. starting with a letter, unless it is exactly the rule's own index; never
 * the integer index of another rule; never one of the controller's own reasons.
 */
export function validatePodFailurePolicyNames(rules: readonly PodFailurePolicyRule[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  rules.forEach((rule, i) => {
    const name = rule.name;
    if (name === undefined) return; // unnamed: the reason is PodFailurePolicy_<index>
    const path = `spec.podFailurePolicy.rules[${i}].name`;
    if (seen.has(name)) errors.push(duplicate(path, name));
    else seen.add(name);
    errors.push(...validateRuleName(name, i, rules.length, path));
  });
  return errors;
}

function validateRuleName(name: string, ownIndex: number, ruleCount: number, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const reason = `${RULE_REASON_PREFIX}${name}`;
  if (utf8Length(reason) > MAX_RULE_REASON_LENGTH) {
    errors.push(invalid(path, name, REASON_TOO_LONG_DETAIL));
  }
  if (!CONDITION_REASON_REGEXP.test(reason)) {
    errors.push(invalid(path, name, `the reason ${goQuote(reason)} is not a valid condition reason: ${CONDITION_REASON_ERROR}`));
  }
  // The rule's own index yields the reason an unnamed rule gets anyway.
  if (name !== String(ownIndex)) {
    const otherIndex = /^[0-9]+$/.test(name) ? Number(name) : undefined;
    if (otherIndex !== undefined && otherIndex < ruleCount) {
      const detail = `must not be the index of another rule (rule ${otherIndex} gets the reason ${RULE_REASON_PREFIX}${otherIndex} when unnamed)`;
      errors.push(invalid(path, name, detail));
    } else if (!/^[A-Za-z]/.test(name)) {
      const detail = `must be CamelCase, starting with a letter, unless it is the rule's own index ${ownIndex}`;
      errors.push(invalid(path, name, detail));
    }
  }
  if (CONTROLLER_REASONS.includes(name)) {
    errors.push(invalid(path, name, `must not be one of the Job controller's reasons: ${CONTROLLER_REASONS.map(goQuote).join(', ')}`));
  }
  return errors;
}
