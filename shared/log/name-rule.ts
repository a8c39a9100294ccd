import type { JobSummary } from './event-store.ts';

// Which object a name shows (issue 24). An object is its (cluster, uid); its name is reused
// after deletion, so several objects of a kind may have carried one name in one namespace. A
// name shows, in this order:
//   1. an object not deleted before a deleted one (a Job deleted and recreated in the same
//      second, upstream's TestImmediateJobRecreation: creationTimestamps have one-second
//      precision; an old Job whose creationTimestamp lies in the future);
//   2. then the newest by metadata.creationTimestamp;
//   3. then the one that arrived last: its log's first entry was recorded later;
//   4. then the greater uid (nothing else left to tell them apart; at least it does not change).
// Every place that resolves a name uses this module: the API's routes by name (the stores'
// findJob), and through it the CLI, the console and the Kubernetes-compatible API.

/** Negative when `a` is shown before `b`; `arrivedAt` is consulted only for the third rule. */
export function compareByNameRule(a: JobSummary & { arrivedAt?: string }, b: JobSummary & { arrivedAt?: string }): number {
  if (Boolean(a.deleted) !== Boolean(b.deleted)) return a.deleted ? 1 : -1;
  if (instant(a.createdAt) !== instant(b.createdAt)) return instant(b.createdAt) - instant(a.createdAt);
  if ((a.arrivedAt ?? '') !== (b.arrivedAt ?? '')) return (a.arrivedAt ?? '') < (b.arrivedAt ?? '') ? 1 : -1;
  return a.uid === b.uid ? 0 : a.uid < b.uid ? 1 : -1;
}

/**
 * The object the name shows among `candidates` (every summary carrying it), or undefined for
 * none. `arrivedAt` (when the object's log began) is asked only of candidates that the first
 * two rules cannot tell apart, so it may read the store.
 */
export async function shownByName(
  candidates: readonly JobSummary[],
  arrivedAt: (summary: JobSummary) => Promise<string | undefined>,
): Promise<JobSummary | undefined> {
  if (candidates.length <= 1) return candidates[0];
  const ranked = [...candidates].sort(compareByNameRule);
  const best = ranked[0] as JobSummary;
  const tied = ranked.filter((c) => Boolean(c.deleted) === Boolean(best.deleted) && instant(c.createdAt) === instant(best.createdAt));
  if (tied.length === 1) return best;
  const timed = await Promise.all(tied.map(async (summary) => ({ ...summary, arrivedAt: await arrivedAt(summary) })));
  const { arrivedAt: _arrivedAt, ...shown } = timed.sort(compareByNameRule)[0] as JobSummary & { arrivedAt?: string };
  return shown;
}

/** A time as milliseconds (one that does not parse sorts last). */
function instant(time: string): number {
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}
