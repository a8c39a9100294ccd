/**
 * A duration as kubectl's AGE and DURATION columns print it (apimachinery `duration.HumanDuration`):
 * 45s, 3m5s, 12m, 3h4m, 9h, 2d5h, 40d, 3y120d. Up to a second in the future reads as "0s"
 * (clocks differ a little); further is "<invalid>".
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (!Number.isFinite(seconds)) return '<invalid>';
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 192) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (days < 730) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (years < 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}

/** kubectl's AGE of a timestamp (`translateTimestampSince`): "<unknown>" without one. */
export function ageOf(since: string | undefined, nowMs: number): string {
  if (since === undefined) return '<unknown>';
  const at = Date.parse(since);
  return Number.isNaN(at) ? '<unknown>' : humanDuration(nowMs - at);
}
