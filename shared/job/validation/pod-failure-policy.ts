import type { JobSpec, PodFailurePolicyRule } from '../../k8s/job.ts';
import { goQuoteList } from './go-format.ts';
import { invalid, invalidWithoutValue, notSupported, required, tooMany, type FieldError } from './field-error.ts';
import { actionFailsIndex, SUPPORTED_POD_FAILURE_POLICY_ACTIONS as SUPPORTED_ACTIONS } from '../../policies/pod-failure-policy.ts';
import { validatePodFailurePolicyNames } from './pod-failure-policy-name.ts';
import { validateOnExitCodes, validateOnPodConditions } from './pod-failure-policy-requirements.ts';

/** Upstream `maxPodFailurePolicyRules`. */
export const MAX_POD_FAILURE_POLICY_RULES = 20;

export interface PodFailurePolicyValidationOptions {
  /** KEP-4443: validate `rules[].name` (see pod-failure-policy-name.ts for the gate-off reading). */
  readonly validateRuleNames: boolean;
}

/**
 * `spec.podFailurePolicy` (upstream `validatePodFailurePolicy`): at most 20 rules, each with a
 * supported `action` (one that fails the pod's index, `FailIndex`, only with `backoffLimitPerIndex`) and exactly one of
 * `onExitCodes` / `onPodConditions`; with the PodFailurePolicyName gate, the rule names too.
 * The `restartPolicy: Never` and `podReplacementPolicy: Failed` requirements are checked with
 * those fields.
 */
export function validatePodFailurePolicy(spec: JobSpec, options: PodFailurePolicyValidationOptions): FieldError[] {
  const policy = spec.podFailurePolicy;
  if (policy === undefined) return [];
  const rulesPath = 'spec.podFailurePolicy.rules';
  const errors: FieldError[] = [];
  if (policy.rules.length > MAX_POD_FAILURE_POLICY_RULES) {
    errors.push(tooMany(rulesPath, policy.rules.length, MAX_POD_FAILURE_POLICY_RULES));
  }
  const containerNames = new Set([
    ...(spec.template.spec.containers ?? []).map((container) => container.name),
    ...(spec.template.spec.initContainers ?? []).map((container) => container.name),
  ]);
  policy.rules.forEach((rule, i) => errors.push(...validateRule(spec, rule, `${rulesPath}[${i}]`, containerNames)));
  if (options.validateRuleNames) errors.push(...validatePodFailurePolicyNames(policy.rules));
  return errors;
}

/** Upstream `validatePodFailurePolicyRule`. */
function validateRule(
  spec: JobSpec,
  rule: PodFailurePolicyRule,
  rulePath: string,
  containerNames: ReadonlySet<string>,
): FieldError[] {
  const errors: FieldError[] = [];
  const actionPath = `${rulePath}.action`;
  // An absent action is Go's zero value "", reported the same way.
  const action = rule.action ?? '';
  if (action === '') {
    errors.push(required(actionPath, `valid values: ${goQuoteList(SUPPORTED_ACTIONS)}`));
  } else if (!SUPPORTED_ACTIONS.includes(action)) {
    errors.push(notSupported(actionPath, action, SUPPORTED_ACTIONS));
  } else if (actionFailsIndex(action) && spec.backoffLimitPerIndex === undefined) {
    // Upstream names FailIndex here; the policy module says which actions fail an index.
    errors.push(invalid(actionPath, action, 'requires the backoffLimitPerIndex to be set'));
  }
  const onPodConditions = rule.onPodConditions ?? [];
  if (rule.onExitCodes !== undefined) {
    errors.push(...validateOnExitCodes(rule.onExitCodes, `${rulePath}.onExitCodes`, containerNames));
  }
  if (onPodConditions.length > 0) {
    errors.push(...validateOnPodConditions(onPodConditions, `${rulePath}.onPodConditions`));
  }
  if (rule.onExitCodes !== undefined && onPodConditions.length > 0) {
    errors.push(invalidWithoutValue(rulePath, 'specifying both OnExitCodes and OnPodConditions is not supported'));
  }
  if (rule.onExitCodes === undefined && onPodConditions.length === 0) {
    errors.push(invalidWithoutValue(rulePath, 'specifying one of OnExitCodes and OnPodConditions is required'));
  }
  return errors;
}
