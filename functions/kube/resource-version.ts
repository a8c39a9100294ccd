import { badRequest, expired } from './status.ts';

// resourceVersion, derived from the log. Clients treat it as opaque, but it must let a watch
// resume "after" it and it must grow along a list scope (a cluster's Jobs, pods, events). The
// log gives both: every entry is recorded at a time (`recordedAt`), and the change feed
// (shared/log/change-feed.ts) lists a cluster's log writes by that time. So:
// - an object's version is the time its log's last entry was recorded, in milliseconds × 1000,
//   plus the entry's position modulo 1000 (two states of one log in the same millisecond differ);
// - a list's version, and a watch bookmark's, is the time it was read (× 1000).
// A watch from version V replays the changes recorded from V's millisecond minus
// VISIBILITY_LAG_MS on (watch.ts): a log write is visible a moment after the time it carries, so
// the replay overlaps what the client saw, and overlapping changes are sent again (at least
// once, never lost while writes become visible within the lag).

/** How long after the time it carries a log write may first be read (commit latency, index lag). */
export const VISIBILITY_LAG_MS = 5_000;
/** How far back a watch may resume by default; older versions are 410 Expired and the client lists again. */
export const WATCH_WINDOW_MS = 15 * 60_000;
/** A version this far past the server's clock cannot have come from it. */
const FUTURE_SKEW_MS = 60_000;

export function objectVersion(recordedAt: string | undefined, seq: number): string {
  const ms = recordedAt === undefined ? 0 : Date.parse(recordedAt);
  return String((Number.isNaN(ms) ? 0 : ms) * 1000 + (seq % 1000));
}

export function versionAt(ms: number): string {
  return String(ms * 1000);
}

/** The millisecond a version stands for. 400 unless it is a version this API could have written. */
export function versionMs(version: string, field = 'resourceVersion'): number {
  if (!/^\d{1,19}$/.test(version)) throw badRequest(`${field}: Invalid value: "${version.slice(0, 64)}": must be a resourceVersion this API returned (digits)`, field);
  const value = Number(version);
  if (!Number.isSafeInteger(value)) throw badRequest(`${field}: Invalid value: "${version}": out of range`, field);
  return Math.floor(value / 1000);
}

/**
 * The millisecond a watch resumes from, checked against the window: 410 Expired (with the
 * API server's words) when older than `windowMs` or beyond this server's clock.
 */
export function watchStartMs(version: string, nowMs: number, windowMs = WATCH_WINDOW_MS): number {
  const ms = versionMs(version);
  if (ms < nowMs - windowMs) {
    throw expired(`too old resource version: ${version} (${versionAt(nowMs - windowMs)})`);
  }
  if (ms > nowMs + FUTURE_SKEW_MS) {
    throw expired(`resource version ${version} is ahead of this server's clock (${versionAt(nowMs)}); list again`);
  }
  return ms;
}

/** A list's resourceVersion parameter: "" or "0" (any), or a version not in the future. */
export function checkListVersion(version: string | undefined, match: string | undefined, nowMs: number): void {
  if (match !== undefined && match !== 'NotOlderThan' && match !== 'Exact') {
    throw badRequest(`resourceVersionMatch: Unsupported value: "${match}": supported values: "Exact", "NotOlderThan"`, 'resourceVersionMatch');
  }
  if (version === undefined || version === '') {
    if (match !== undefined) throw badRequest('resourceVersionMatch is forbidden unless resourceVersion is provided', 'resourceVersionMatch');
    return;
  }
  if (version === '0') {
    if (match === 'Exact') throw badRequest('resourceVersionMatch "Exact" is forbidden for resourceVersion "0"', 'resourceVersionMatch');
    return;
  }
  const ms = versionMs(version);
  if (ms > nowMs + FUTURE_SKEW_MS) throw expired(`resource version ${version} is ahead of this server's clock (${versionAt(nowMs)}); list again`);
  // Every list is served as of now, which is never older than a version this API gave; an exact
  // past state of a whole list is not kept (a Job's own past is: GET /v1/…/status?at=).
  if (match === 'Exact') throw expired(`too old resource version: ${version} (${versionAt(nowMs)}): jobfold serves lists as of now only`);
}
