/** Exponential backoff bounds. */
export interface BackoffPolicy {
  readonly baseMs: number;
  readonly maxMs: number;
}

/**
 * The delay before retry number `attempt` (0 for the first retry): "equal jitter", half of
 * the capped exponential plus a random share of the other half. The floor keeps the delay
 * growing; the random half keeps many forwarders from retrying in step after a throttle.
 */
export function backoffDelayMs(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const exponential = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
