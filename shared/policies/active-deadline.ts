/**
 * activeDeadlineSeconds (upstream `pastActiveDeadline`): only with a startTime and while not
 * suspended; reached at exactly `startTime + activeDeadlineSeconds`.
 */
export function pastActiveDeadline(input: {
  readonly activeDeadlineSeconds: number | undefined;
  readonly startTime: number | undefined;
  readonly suspended: boolean;
  readonly now: number;
}): boolean {
  const { activeDeadlineSeconds, startTime, suspended, now } = input;
  if (activeDeadlineSeconds === undefined || startTime === undefined || suspended) return false;
  return now - startTime >= activeDeadlineSeconds * 1000;
}

/**
 * The last instant an RFC 3339 timestamp can name (9999-12-31T23:59:59.999Z). The API server
 * accepts any int64 activeDeadlineSeconds; a deadline past this instant is one that never
 * passes (upstream's `time.Duration` of such a value would overflow, which we do not copy).
 */
export const LAST_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** When the deadline will pass, for the timer that wakes the Job up; undefined for never. */
export function activeDeadlineAt(
  activeDeadlineSeconds: number | undefined,
  startTime: number | undefined,
): number | undefined {
  if (activeDeadlineSeconds === undefined || startTime === undefined) return undefined;
  const at = startTime + activeDeadlineSeconds * 1000;
  return Number.isFinite(at) && at <= LAST_TIME_MS ? at : undefined;
}
