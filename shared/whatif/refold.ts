import type { JobSetEvent } from '../jobset/events.ts';
import { parseTime } from '../k8s/time.ts';

// The walk every what-if takes over a record, whatever the kind (docs/whatif.md, "Two refolds,
// one comparison"): observations are read in log order into both folds; both are reconciled
// where the record's controller reconciled (once per run of decisions taken at one time), at the
// end of every other batch of observations (a change of observation time), and at the folds'
// own timers that fall before the next recorded event. What a reconcile compares, and when the
// record stops being evidence (`closed`), is the kind's (job-folds.ts, jobset-folds.ts).

/** One entry of a JobSet's log: its own events, its child Jobs' statuses and its decisions. (A Job's log entries are its events, with their seq.) */
export interface JobSetLogEntry {
  readonly seq: number;
  readonly event: JobSetEvent;
}

/** Where both folds reconcile: at a recorded run of decisions, at the end of a batch the record left undecided, at a fold's timer. */
export type ReconcileAt<Decision> =
  | { readonly kind: 'record'; readonly decisions: readonly Decision[] }
  | { readonly kind: 'batch' }
  | { readonly kind: 'timer' };

/** How a kind's log reads: which entries record decisions, and the time of each. */
export interface RecordReading<Entry, Decision> {
  /** The decision an entry records; undefined for an observation. */
  readonly decision: (entry: Entry) => Decision | undefined;
  /** When the decision was taken, or the observation observed (RFC 3339). */
  readonly time: (entry: Entry) => string;
  /** Entries that are neither (a Job's ObservationRefused: no event, no reconcile). */
  readonly skip?: (entry: Entry) => boolean;
}

/** A kind's two folds, side by side. */
export interface Refolding<Entry, Decision> {
  /** The divergence's reconcile has been read: nothing later in the record is evidence. */
  readonly closed: boolean;
  /** The folds' earliest timer (epoch ms), if any. */
  readonly wake: number | undefined;
  observe(entry: Entry): void;
  reconcile(at: string, where: ReconcileAt<Decision>): void;
}

const BATCH = { kind: 'batch' } as const;
const TIMER = { kind: 'timer' } as const;

/** Plays the record through both folds, reconciling them where its controller did. */
export function replayRecord<Entry, Decision>(log: readonly Entry[], reading: RecordReading<Entry, Decision>, folds: Refolding<Entry, Decision>): void {
  const skip = reading.skip ?? (() => false);
  let pendingAt: string | undefined;
  let timersChecked = Number.NEGATIVE_INFINITY;
  const reconcile = (at: string, where: ReconcileAt<Decision>) => {
    pendingAt = undefined;
    folds.reconcile(at, where);
  };
  // Timers due before `time`: the log says nothing happened until then.
  const fireTimers = (time: string) => {
    if (folds.wake === undefined) return;
    const limit = parseTime(time);
    for (let wake = folds.wake; !folds.closed && wake !== undefined && wake < limit && wake > timersChecked; wake = folds.wake) {
      timersChecked = wake;
      if (pendingAt !== undefined) reconcile(pendingAt, BATCH);
      if (!folds.closed) reconcile(new Date(wake).toISOString(), TIMER);
    }
  };
  const previousRead = (i: number): Entry | undefined => {
    for (let k = i - 1; k >= 0; k--) if (!skip(log[k] as Entry)) return log[k];
    return undefined;
  };

  for (let i = 0; i < log.length && !folds.closed; i++) {
    const entry = log[i] as Entry;
    if (skip(entry)) continue;
    const at = reading.time(entry);
    if (reading.decision(entry) !== undefined) {
      // The record reconciled here: once per run of decisions taken at one time.
      const previous = previousRead(i);
      if (previous !== undefined && reading.decision(previous) !== undefined && reading.time(previous) === at) continue;
      const run: Decision[] = [];
      for (let j = i; j < log.length; j++) {
        const next = log[j] as Entry;
        if (skip(next)) continue;
        const decision = reading.decision(next);
        if (decision === undefined || reading.time(next) !== at) break;
        run.push(decision);
      }
      fireTimers(at);
      if (!folds.closed) reconcile(at, { kind: 'record', decisions: run });
      continue;
    }
    if (pendingAt !== undefined && pendingAt !== at) reconcile(pendingAt, BATCH);
    if (!folds.closed) fireTimers(at);
    if (folds.closed) break;
    folds.observe(entry);
    pendingAt = at;
  }
  if (!folds.closed && pendingAt !== undefined) reconcile(pendingAt, BATCH);
}
