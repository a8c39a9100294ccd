import { boundedText, MAX_REASON_BYTES } from '../k8s/bounded-text.ts';
import { StoreLimitError, type JobSummary, type StreamId, type SummaryUpdate } from '../log/event-store.ts';

/** A Job whose reconcile fails the same way on every retry: parked, with the error shown. */
export interface Stall {
  readonly error: string;
  /** When the Job was first found stalled (kept across later failures). */
  readonly since: string;
}

/**
 * Whether a reconcile failure would fail again on retry with the same log: errors of the pure
 * fold and decision (RangeError, TypeError, ...) and store limits. Store transport errors and
 * version conflicts are not: a retry may fix those, so they are thrown to the caller. A
 * transport failure can wear a deterministic class (undici's `TypeError: fetch failed` with
 * an ECONNRESET cause), so any sign of I/O anywhere in the cause chain makes it transient.
 */
export function isDeterministicFailure(error: unknown): boolean {
  return (
    (error instanceof StoreLimitError ||
      error instanceof RangeError ||
      error instanceof TypeError ||
      error instanceof SyntaxError ||
      error instanceof ReferenceError) &&
    !causeChain(error).some(isTransportError)
  );
}

/**
 * Node's socket and DNS error codes (ECONNRESET, EAI_AGAIN, ...) and undici's (UND_ERR_SOCKET,
 * ...); not Node's argument errors (ERR_INVALID_ARG_TYPE), which the same data throws again.
 */
const TRANSPORT_CODE = /^(E(?!RR_)[A-Z]+|EAI_[A-Z]+|UND_ERR_[A-Z_]+)$/;
const TRANSPORT_NAMES = new Set(['AbortError', 'TimeoutError', 'FetchError']);

/**
 * A failure of I/O rather than of the data: a system call or socket error, an AWS SDK error
 * (it carries `$metadata` or `$fault`), an abort or timeout, or undici's `fetch failed`.
 */
function isTransportError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { name?: unknown; message?: unknown; code?: unknown; syscall?: unknown };
  return (
    (typeof e.code === 'string' && TRANSPORT_CODE.test(e.code)) ||
    typeof e.syscall === 'string' ||
    '$metadata' in error ||
    '$fault' in error ||
    (typeof e.name === 'string' && TRANSPORT_NAMES.has(e.name)) ||
    (error instanceof TypeError && e.message === 'fetch failed')
  );
}

/** The error, its `cause`, the cause's cause, ... (and an AggregateError's errors), cycle-safe. */
function causeChain(error: unknown): unknown[] {
  const seen: unknown[] = [];
  const queue = [error];
  while (queue.length > 0 && seen.length < 32) {
    const next = queue.shift();
    if (next === undefined || next === null || seen.includes(next)) continue;
    seen.push(next);
    if (typeof next !== 'object') continue;
    queue.push((next as { cause?: unknown }).cause);
    if (next instanceof AggregateError) queue.push(...next.errors);
  }
  return seen;
}

/** The stall record of a failure: `since` carries over from a previous stall of the Job. */
export function stallRecord(error: unknown, now: string, previous: Stall | undefined): Stall {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { error: boundedText(text, MAX_REASON_BYTES), since: previous?.since ?? now };
}

/**
 * The fleet summary of a stalled log: what the fold knew (`known`, if it got that far), plus
 * the stall. The name falls back to the one its batch observed, then to the uid, when the
 * object's own observation was never folded.
 */
export function stalledSummary(
  stream: StreamId,
  known: SummaryUpdate | undefined,
  previous: JobSummary | undefined,
  stall: Stall,
  now: string,
  name?: string,
): SummaryUpdate {
  const base = known ?? {
    name: previous?.name ?? name ?? stream.uid,
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
    latestCondition: previous?.latestCondition,
    finishedAt: previous?.finishedAt,
  };
  return { ...base, stalled: stall };
}
