import { formatTime, parseTime } from '../k8s/time.ts';

// The fold's clock (docs/data-model.md, "Time"). Upstream's controller decides by its own clock
// inside the cluster; jobfold reads the cluster's clock from what the cluster reports:
//  - an observation happened at its `observedAt` (the forwarder's clock, in the cluster);
//  - unless it lies more than the allowed skew *after* the platform's arrival time
//    (`arrivedAt`, EventBridge/Kinesis): an event cannot be observed after it arrived, so such
//    a stamp is a clock jumping ahead (or 9999-12-31), and the arrival time stands in for it.
//    A stamp *before* its arrival is a delivery delay (a retry, a spool re-sent after an
//    outage) and is kept, so a late event is still judged at the time it happened;
//  - a reconcile runs at the newest instant read so far, never earlier: a stamp from the
//    past (a clock stepping back, a late event) cannot move a Job's time backwards.
// Observations without an arrival time (the conformance corpus, scenario files, tests) are
// taken at their observedAt. The clock is part of the fold's state: the same log gives the
// same times, whenever and however often it is folded.

/** How far an observedAt may lie after its arrival and still be the cluster's time of the event. */
export const DEFAULT_CLOCK_SKEW_MS = 5 * 60_000;

export interface ClusterClock {
  /** The newest instant (epoch ms) on the cluster's clock the fold has read; reconciles never run earlier. */
  now: number | undefined;
  /** The newest platform arrival time folded (epoch ms): a reconcile time beyond it plus the skew is no reading of the cluster's clock. */
  arrived: number | undefined;
  /** Observations whose observedAt lay beyond the skew after their arrival (their arrival stood in). */
  distrusted: number;
}

export const newClock = (): ClusterClock => ({ now: undefined, arrived: undefined, distrusted: 0 });

/**
 * In a timeline kept on the cluster's clock (entries sorted by `at`: a Job's parallelism,
 * excess-deletions.ts; its spec.suspend, suspension-order.ts), the index of the entry in force
 * at `at`: the last at or before it; -1 before the first.
 */
export function entryAt(entries: readonly { readonly at: number }[], at: number): number {
  let i = entries.length - 1;
  while (i >= 0 && (entries[i] as { readonly at: number }).at > at) i--;
  return i;
}

/** What the fold needs of an event to read the clock from it. */
export interface Stamped {
  readonly observedAt: string;
  readonly arrivedAt?: string | undefined;
}

/**
 * The instant an observation happened on the cluster's clock: its observedAt, or its arrival
 * time when the observedAt lies more than `skewMs` after it.
 */
export function observedInstant(event: Stamped, skewMs: number): { readonly at: number; readonly trusted: boolean } {
  if (event.arrivedAt === undefined || !beyondSkew(event.observedAt, event.arrivedAt, skewMs)) {
    return { at: parseTime(event.observedAt), trusted: true };
  }
  return { at: parseTime(event.arrivedAt), trusted: false };
}

/** Whether a stamp lies more than the skew after an arrival time (no arrival: never). */
export function beyondSkew(stamp: string, arrivedAt: string | undefined, skewMs: number): boolean {
  return arrivedAt !== undefined && parseTime(stamp) - parseTime(arrivedAt) > skewMs;
}

/** Folds an observation into the clock; returns the instant it happened at (see observedInstant). */
export function readObservation(clock: ClusterClock, event: Stamped, skewMs: number): number {
  const { at, trusted } = observedInstant(event, skewMs);
  if (!trusted) clock.distrusted += 1;
  if (event.arrivedAt !== undefined) {
    const arrived = parseTime(event.arrivedAt);
    if (clock.arrived === undefined || arrived > clock.arrived) clock.arrived = arrived;
  }
  advance(clock, at);
  return at;
}

/**
 * Whether the fold is reading a cluster live: no arrival time known (a scenario, a test), or its
 * clock within the skew of the newest arrival. A history folded long after it happened (a trace
 * replayed, a spool drained after an outage) is not: a wake-up the fold asks for on the cluster's
 * clock is then already due, and one that asks for the next (sync.ts wakeWhenExpectationExpires) would run
 * through the past at machine speed.
 */
export function readingLive(clock: ClusterClock, skewMs: number): boolean {
  return clock.arrived === undefined || clock.now === undefined || clock.arrived - clock.now <= skewMs;
}

/** The clock has reached `at` (a decision taken then, a Job's creation). */
export function advance(clock: ClusterClock, at: number): void {
  if (Number.isFinite(at) && (clock.now === undefined || at > clock.now)) clock.now = at;
}

/**
 * The instant a reconcile asked for at `requested` runs at: never before the newest instant
 * read, and, once arrival times are known, never beyond the newest arrival plus the skew (the
 * caller passed a stamp the clock distrusted): the newest trusted instant then.
 */
export function reconcileInstant(clock: ClusterClock, requested: string, skewMs: number): { readonly at: number; readonly iso: string } {
  const asked = parseTime(requested);
  let at = asked;
  if (clock.arrived !== undefined && asked > clock.arrived + skewMs) at = clock.now ?? clock.arrived;
  else if (clock.now !== undefined && clock.now > asked) at = clock.now;
  return { at, iso: at === asked ? requested : formatTime(at) };
}
