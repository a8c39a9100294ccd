import * as z from 'zod';
import { EXPECTATIONS_TIMEOUT_MS } from './job-controller.ts';

// Issue 21: the forwarder numbers the events it sends about an owner's objects (a Job's pods,
// `jobSeq`; a JobSet's Jobs, `jobSetSeq`; docs/events.md "Ordering"), from 1 within an epoch (a
// relist starts it again). One watch delivers an owner's objects in the cluster's order, so the
// counts a log holds tell whether it lacks an event sent before the newest it holds: the
// owner's view is then not a prefix of the cluster's history, and upstream, whose informer only
// ever shows a prefix, never decides on such a view. This is the bookkeeping of those counts,
// one per owner log (shared/job/pod-view-gap.ts for a Job's pods, shared/jobset/child-counts.ts for a
// JobSet's Jobs): which counts the log holds, since when one is missing, and when the wait for
// it runs out (upstream's expectation timeout: an event lost or refused never wedges the owner).

/** What a log holds of the forwarder's count of an owner's events in its newest epoch. */
export interface SentCounts {
  readonly epoch: number;
  /** Every count up to this one is in the log. */
  through: number;
  /** Counts beyond `through + 1` in the log, as sorted, disjoint, non-adjacent [from, to] runs. */
  ahead: [number, number][];
  /** When a count first went missing (the fold's clock, epoch ms); set while `ahead` is not empty. */
  missingSince: number | undefined;
}

/**
 * Notes count `count` of epoch `epoch` logged at `at` (epoch ms), in place; returns the counts
 * the log holds now (new ones for a newer epoch: a relist showed everything again).
 */
export function noteSentCount(held: SentCounts | undefined, epoch: number, count: number, at: number): SentCounts {
  let counts = held;
  if (counts === undefined || epoch > counts.epoch) counts = { epoch, through: 0, ahead: [], missingSince: undefined };
  if (epoch < counts.epoch || count <= counts.through) return counts;
  // Missing for longer than upstream waits on an expectation: lost, not late. Given up on.
  if (counts.missingSince !== undefined && at - counts.missingSince > EXPECTATIONS_TIMEOUT_MS) {
    counts.through = (counts.ahead.at(-1) as [number, number])[1];
    counts.ahead = [];
    counts.missingSince = undefined;
    if (count <= counts.through) return counts;
  }
  addSentCount(counts, count);
  if (counts.ahead.length === 0) counts.missingSince = undefined;
  else counts.missingSince ??= at;
  return counts;
}

/** Adds count `count` (of the counts' epoch, beyond `through`) to the counts held, in place; `missingSince` is the caller's. */
export function addSentCount(counts: SentCounts, count: number): void {
  insert(counts, count);
  if (counts.ahead.length > 0 && counts.ahead[0]?.[0] === counts.through + 1) {
    counts.through = (counts.ahead.shift() as [number, number])[1];
  }
}

function insert(counts: SentCounts, count: number): void {
  if (count === counts.through + 1) {
    counts.through = count;
    return;
  }
  const runs = counts.ahead;
  let i = 0;
  while (i < runs.length && (runs[i] as [number, number])[1] < count - 1) i++;
  const run = runs[i];
  if (run === undefined || run[0] > count + 1) {
    runs.splice(i, 0, [count, count]);
    return;
  }
  if (count >= run[0] && count <= run[1]) return; // already in the log
  if (count === run[1] + 1) {
    run[1] = count;
    const next = runs[i + 1];
    if (next !== undefined && next[0] === count + 1) {
      run[1] = next[1];
      runs.splice(i + 1, 1);
    }
  } else run[0] = count;
}

/** A copy to note into, for a fold that keeps its states immutable. */
export function copySentCounts(counts: SentCounts | undefined): SentCounts | undefined {
  return counts === undefined ? undefined : { ...counts, ahead: counts.ahead.map(([from, to]): [number, number] => [from, to]) };
}

/** Whether the log lacks count `count` of epoch `epoch`: an event carrying it is logged even when it says nothing new. */
export function sentCountUnlogged(counts: SentCounts | undefined, epoch: number, count: number): boolean {
  if (counts === undefined || epoch > counts.epoch) return true;
  if (epoch < counts.epoch || count <= counts.through) return false;
  return !counts.ahead.some(([from, to]) => count >= from && count <= to);
}

/** Events sent before the newest the log holds and not in it yet, and since when (undefined: none). */
export function missingSentCounts(counts: SentCounts | undefined): { readonly count: number; readonly since: number } | undefined {
  if (counts === undefined || counts.missingSince === undefined || counts.ahead.length === 0) return undefined;
  let held = 0;
  for (const [from, to] of counts.ahead) held += to - from + 1;
  return { count: (counts.ahead.at(-1) as [number, number])[1] - counts.through - held, since: counts.missingSince };
}

/** Until when (epoch ms) an owner deciding at `now` waits for the missing counts; undefined: it does not wait. */
export function waitForSentCounts(counts: SentCounts | undefined, now: number): number | undefined {
  const missing = missingSentCounts(counts);
  if (missing === undefined) return undefined;
  const until = missing.since + EXPECTATIONS_TIMEOUT_MS;
  return now > until ? undefined : until;
}

/**
 * The eventId of an entry that says `says` and carries `carried` (named by the newest count: each
 * count is folded once, so it names the sync), and what such an eventId says without its counts:
 * two entries that say the same tell the other log the same thing, whatever counts they carry.
 */
export const countedEventId = (says: string, carried: CarriedCounts | undefined): string =>
  carried === undefined ? says : `${says}/seq/${carried.epoch}/${Math.max(...carried.counts)}`;
export const saidBy = (eventId: string): string => eventId.replace(/\/seq\/\d+\/\d+$/, '');

/** The most counts one entry carries (a Kinesis batch holds at most 1,000 records). */
export const MAX_CARRIED_COUNTS = 1000;

/**
 * Counts of one epoch that an entry carries to another log: a child Job's status, as its Job's
 * log folded it, carries the `jobSetSeq` of the Job events that log folded in the sync it is as
 * of, and a child Job's deletion its own (shared/job/child-job-status.ts, shared/jobset/child-counts.ts).
 */
export const CarriedCountsSchema = z.object({
  epoch: z.number().int().nonnegative(),
  counts: z.array(z.number().int().positive()).min(1).max(MAX_CARRIED_COUNTS),
});
export type CarriedCounts = z.infer<typeof CarriedCountsSchema>;
