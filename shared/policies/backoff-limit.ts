/**
 * backoffLimit: `failed > backoffLimit` (so 6 tolerates six failures), or, for
 * `restartPolicy: OnFailure`, container restarts of Running/Pending pods summing to
 * `>= backoffLimit` (`> 0` when backoffLimit is 0) — upstream `pastBackoffLimitOnFailure`.
 */
export function exceedsBackoffLimit(input: {
  readonly backoffLimit: number;
  readonly failed: number;
  readonly restartPolicyOnFailure: boolean;
  readonly restartsOfRunningPods: number;
}): boolean {
  if (input.failed > input.backoffLimit) return true;
  if (!input.restartPolicyOnFailure) return false;
  if (input.backoffLimit === 0) return input.restartsOfRunningPods > 0;
  return input.restartsOfRunningPods >= input.backoffLimit;
}
