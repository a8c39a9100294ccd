// Times as kubectl shows them: AGE as 45s, 3m12s, 5h, 2d; timestamps in UTC, to the second.

export function age(iso: string | undefined | null, now = Date.now()): string {
  if (!iso) return '<unknown>';
  const seconds = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
}

export function utc(iso: string | undefined | null): string {
  if (!iso) return '<none>';
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(t).toISOString().replace('.000Z', 'Z').replace('T', ' ');
}

export const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
