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

/** When the deadline will pass, for the timer that wakes the Job up. */
export function activeDeadlineAt(
  activeDeadlineSeconds: number | undefined,
  startTime: number | undefined,
): number | undefined {
  if (activeDeadlineSeconds === undefined || startTime === undefined) return undefined;
  return startTime + activeDeadlineSeconds * 1000;
}
