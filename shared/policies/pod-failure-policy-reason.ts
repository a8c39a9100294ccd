import type { FeatureGates } from '../job/gates.ts';
import { POD_FAILURE_POLICY_REASON_PREFIX, Reason } from '../job/constants.ts';

/**
 * KEP-4443: the reason of the FailureTarget/Failed condition set by a FailJob rule.
 * Gate on: `PodFailurePolicy_<name>`, or `PodFailurePolicy_<index>` for an unnamed rule.
 * Gate off: upstream's plain `PodFailurePolicy` (a stored name is ignored).
 */
export function failJobReason(
  rule: { readonly ruleIndex?: number; readonly ruleName?: string },
  gates: FeatureGates,
): string {
  if (!gates.PodFailurePolicyName) return Reason.PodFailurePolicy;
  return POD_FAILURE_POLICY_REASON_PREFIX + (rule.ruleName ?? String(rule.ruleIndex ?? 0));
}
