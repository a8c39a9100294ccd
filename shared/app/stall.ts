import { boundedText, MAX_REASON_BYTES } from '../job/bounded-text.ts';
import type { JobState } from '../job/state.ts';
import { StoreLimitError, type JobSummary, type StreamId, type SummaryUpdate } from './event-store.ts';
import { jobSummary } from './job-summary.ts';

/** A Job whose reconcile fails the same way on every retry: parked, with the error shown. */
export interface Stall {
  readonly error: string;
  /** When the Job was first found stalled (kept across later failures). */
  readonly since: string;
}

/**
 * Whether a reconcile failure would fail again on retry with the same log: errors of the pure
 * fold and decision (RangeError, TypeError, ...) and store limits. Store transport errors and
 * version conflicts are not: a retry may fix those, so they are thrown to the caller.
 */
export function isDeterministicFailure(error: unknown): boolean {
  return (
    error instanceof StoreLimitError ||
    error instanceof RangeError ||
    error instanceof TypeError ||
    error instanceof SyntaxError ||
    error instanceof ReferenceError
  );
}

/** The stall record of a failure: `since` carries over from a previous stall of the Job. */
export function stallRecord(error: unknown, now: string, previous: Stall | undefined): Stall {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { error: boundedText(text, MAX_REASON_BYTES), since: previous?.since ?? now };
}

/**
 * The fleet summary of a stalled Job: what the fold knew (if it got that far), plus the stall.
 * The name falls back to the uid when the Job's own observation was never folded.
 */
export function stalledSummary(
  stream: StreamId,
  state: JobState | undefined,
  previous: JobSummary | undefined,
  stall: Stall,
  now: string,
): SummaryUpdate {
  const base = (state && jobSummary(state, now)) ?? {
    name: previous?.name ?? stream.uid,
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
    latestCondition: previous?.latestCondition,
    finishedAt: previous?.finishedAt,
  };
  return { ...base, stalled: stall };
}
