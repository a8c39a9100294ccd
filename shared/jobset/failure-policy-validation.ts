import { GATED_FAILURE_POLICY_ACTIONS, JOB_FAILURE_REASONS } from './constants.ts';
import type { DefaultedJobSetSpec } from './defaulting.ts';
import { invalid, type JobSetFeatureGates, type JobSetValidationError } from './validation-error.ts';

const MIN_RULE_NAME_LENGTH = 1;
const MAX_RULE_NAME_LENGTH = 128;
const MAX_REPLICAS_FOR_RESTART_JOB = 1024;
const RULE_NAME = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;

/** A `metav1.Condition` reason: at most 128 characters here, as KEP-4443 requires. */
const MAX_REASON_LENGTH = 128;
const CONDITION_REASON = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;
const POD_FAILURE_POLICY_PREFIX = 'PodFailurePolicy_';

/**
 * True for a reason the webhook accepts in `onJobFailureReasons`: upstream's five Job failure
 * reasons, plus (jobfold's one extension) a KEP-4443 reason `PodFailurePolicy_<ruleName>` that is
 * itself a valid condition reason of at most 128 characters.
 */
export function isAcceptedJobFailureReason(reason: string): boolean {
  if ((JOB_FAILURE_REASONS as readonly string[]).includes(reason)) return true;
  return (
    reason.startsWith(POD_FAILURE_POLICY_PREFIX) &&
    reason.length > POD_FAILURE_POLICY_PREFIX.length &&
    reason.length <= MAX_REASON_LENGTH &&
    CONDITION_REASON.test(reason)
  );
}

/** `validateFailurePolicy` (pkg/webhooks/jobset_webhook.go). */
export function validateFailurePolicy(
  spec: DefaultedJobSetSpec,
  replicatedJobNames: ReadonlySet<string>,
  gates: JobSetFeatureGates,
): JobSetValidationError[] {
  const policy = spec.failurePolicy;
  if (policy === undefined) return [];
  const errors: JobSetValidationError[] = [];
  const base = 'spec.failurePolicy.rules';

  const gatedIndex = policy.rules.findIndex((rule) => GATED_FAILURE_POLICY_ACTIONS.includes(rule.action));
  if (gatedIndex >= 0) {
    if (gates.RestartJob !== true) {
      // Upstream returns early: nothing else is checked without the gate.
      return [
        invalid(
          `${base}[${gatedIndex}].action`,
          'RestartJob and RestartJobAndIgnoreMaxRestarts failure policy actions are not allowed when RestartJob feature gate is disabled',
          policy.rules[gatedIndex]?.action,
        ),
      ];
    }
    if (spec.replicatedJobs.some((rjob) => rjob.replicas > MAX_REPLICAS_FOR_RESTART_JOB)) {
      errors.push(
        invalid(
          'spec.replicatedJobs',
          `JobSet cannot have a failure policy rule with RestartJob or RestartJobAndIgnoreMaxRestarts action and a replicated job with replicas > ${MAX_REPLICAS_FOR_RESTART_JOB}`,
        ),
      );
    }
  }

  const indicesByName = new Map<string, number[]>();
  policy.rules.forEach((rule, index) => {
    const path = `${base}[${index}]`;
    const length = rule.name.length;
    if (length < MIN_RULE_NAME_LENGTH || length > MAX_RULE_NAME_LENGTH) {
      errors.push(
        invalid(
          `${path}.name`,
          `invalid failure policy rule name of length ${length}, the rule name must be at least ${MIN_RULE_NAME_LENGTH} characters long and at most ${MAX_RULE_NAME_LENGTH} characters long`,
          rule.name,
        ),
      );
    }
    indicesByName.set(rule.name, [...(indicesByName.get(rule.name) ?? []), index]);
    if (!RULE_NAME.test(rule.name)) {
      errors.push(
        invalid(
          `${path}.name`,
          `invalid failure policy rule name '${rule.name}', a failure policy rule name must start with an alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'`,
          rule.name,
        ),
      );
    }
    rule.targetReplicatedJobs.forEach((name, j) => {
      if (!replicatedJobNames.has(name)) {
        errors.push(
          invalid(
            `${path}.targetReplicatedJobs[${j}]`,
            `invalid replicatedJob name '${name}' in failure policy does not appear in .spec.ReplicatedJobs`,
            name,
          ),
        );
      }
    });
    rule.onJobFailureReasons.forEach((reason, j) => {
      if (!isAcceptedJobFailureReason(reason)) {
        errors.push(
          invalid(
            `${path}.onJobFailureReasons[${j}]`,
            `invalid job failure reason '${reason}' in failure policy is not a recognized job failure reason`,
            reason,
          ),
        );
      }
    });
  });

  for (const [name, indices] of indicesByName) {
    if (indices.length < 2) continue;
    // Go prints the index slice as `[0 1]`; the error sits on the later occurrences.
    const detail = `rule names are not unique, rules with indices [${indices.join(' ')}] all have the same name '${name}'`;
    for (const index of indices.slice(1)) {
      errors.push({ field: `${base}[${index}].name`, type: 'FieldValueDuplicate', detail, badValue: name });
    }
  }
  return errors;
}
