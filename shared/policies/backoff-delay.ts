/** Upstream `DefaultJobPodFailureBackOff` and `MaxJobPodFailureBackOff`. */
const POD_FAILURE_BACKOFF_BASE_MS = 10_000;
const POD_FAILURE_BACKOFF_MAX_MS = 600_000;

/**
 * Pod recreation backoff (upstream `getRemainingTimeForFailuresCount`): 10 s doubling per
 * consecutive failure, capped at 10 minutes, measured from the last failure's finish time.
 * Returns the milliseconds left (0 when creation may go ahead).
 */
export function remainingBackoffMs(
  failures: number,
  lastFailureAt: number | undefined,
  now: number,
): number {
  if (failures <= 0 || lastFailureAt === undefined) return 0;
  let delay = POD_FAILURE_BACKOFF_BASE_MS;
  for (let i = 1; i < failures; i++) {
    delay *= 2;
    if (delay >= POD_FAILURE_BACKOFF_MAX_MS) {
      delay = POD_FAILURE_BACKOFF_MAX_MS;
      break;
    }
  }
  const elapsed = now - lastFailureAt;
  return delay < elapsed ? 0 : delay - elapsed;
}
