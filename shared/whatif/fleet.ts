import { parseTime } from '../k8s/time.ts';
import type { OutcomeView, WhatIfReport } from './report.ts';

/** A Job whose what-if decided something the record did not. */
export interface ChangedJob {
  readonly cluster: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly recorded: string;
  readonly whatIf: string;
  readonly divergesAtEvent: number;
  readonly at: string;
  readonly podSecondsSaved: number;
}

/** What a patch does to a fleet, summed over Jobs; tallies of pages add up. */
export interface FleetTally {
  readonly jobs: number;
  /** Jobs whose what-if reaches a different outcome (exact), or one unknown past divergence. */
  readonly outcomeChanged: number;
  readonly outcomeUnknown: number;
  readonly decidedEarlier: number;
  readonly decidedLater: number;
  readonly podSecondsSaved: number;
  /** Jobs whose log could not be refolded under the patch (an invalid patched spec, a corrupt log). */
  readonly skipped: number;
  /** Jobs whose record does not replay exactly under its own spec (report.replayMismatch): in no other figure. */
  readonly notReplayable: number;
  readonly changed: readonly ChangedJob[];
}

export const EMPTY_TALLY: FleetTally = {
  jobs: 0, outcomeChanged: 0, outcomeUnknown: 0, decidedEarlier: 0, decidedLater: 0, podSecondsSaved: 0, skipped: 0, notReplayable: 0, changed: [],
};

type JobName = Pick<ChangedJob, 'cluster' | 'namespace' | 'name' | 'uid'>;

/** How a diverging Job's what-if compares to its record (the fleet tally's and the advice's words). */
export interface JobChange {
  /** An exact outcome other than the record's (outcome or reason). */
  readonly changedOutcome: boolean;
  /** The what-if is unknown past its divergence. */
  readonly unknown: boolean;
  /** Exact, and settled before the record's outcome. */
  readonly earlier: boolean;
  /** Settled after the record's outcome, or unknown. */
  readonly later: boolean;
}

/** Undefined when nothing changed (no divergence) or the record does not replay exactly. */
export function changeOf(report: WhatIfReport): JobChange | undefined {
  const { recorded, whatIf, divergence } = report;
  if (report.replayMismatch || !divergence) return undefined;
  const when = (at: string | null) => (at === null ? undefined : parseTime(at));
  const [whatIfAt, recordedAt] = [when(whatIf.at), when(recorded.at)];
  const earlier = whatIf.exact && whatIfAt !== undefined && (recordedAt === undefined || whatIfAt < recordedAt);
  const later = !whatIf.exact || (whatIfAt !== undefined && recordedAt !== undefined && whatIfAt > recordedAt);
  return {
    changedOutcome: whatIf.exact && (whatIf.outcome !== recorded.outcome || whatIf.reason !== recorded.reason),
    unknown: !whatIf.exact,
    earlier,
    later: later && !earlier,
  };
}

/** `Failed (BackoffLimitExceeded)`, or `unknown past divergence`. */
export function outcomeLabel(o: OutcomeView & { readonly exact?: boolean }): string {
  if (o.exact === false) return 'unknown past divergence';
  return o.reason ? `${o.outcome} (${o.reason})` : o.outcome;
}

/**
 * Adds one Job's report. "Earlier"/"later": the what-if settles its outcome before/after the
 * record. A Job whose record does not replay exactly is counted as such and nowhere else.
 */
export function tallyJob(tally: FleetTally, job: JobName, report: WhatIfReport): FleetTally {
  const base = { ...tally, jobs: tally.jobs + 1 };
  if (report.replayMismatch) return { ...base, notReplayable: base.notReplayable + 1 };
  const change = changeOf(report);
  const divergence = report.divergence;
  if (!change || !divergence) return base;
  const entry: ChangedJob = {
    ...job,
    recorded: outcomeLabel(report.recorded),
    whatIf: outcomeLabel(report.whatIf),
    divergesAtEvent: divergence.atEvent,
    at: divergence.at,
    podSecondsSaved: report.podSecondsSaved,
  };
  return {
    ...base,
    outcomeChanged: base.outcomeChanged + (change.changedOutcome ? 1 : 0),
    outcomeUnknown: base.outcomeUnknown + (change.unknown ? 1 : 0),
    decidedEarlier: base.decidedEarlier + (change.earlier ? 1 : 0),
    decidedLater: base.decidedLater + (change.later ? 1 : 0),
    podSecondsSaved: round(base.podSecondsSaved + report.podSecondsSaved),
    changed: [...base.changed, entry],
  };
}

export const skipJob = (tally: FleetTally): FleetTally => ({ ...tally, jobs: tally.jobs + 1, skipped: tally.skipped + 1 });

/** Two tallies as one (pages of the fleet, read one after another). */
export function mergeTallies(a: FleetTally, b: FleetTally): FleetTally {
  return {
    jobs: a.jobs + b.jobs,
    outcomeChanged: a.outcomeChanged + b.outcomeChanged,
    outcomeUnknown: a.outcomeUnknown + b.outcomeUnknown,
    decidedEarlier: a.decidedEarlier + b.decidedEarlier,
    decidedLater: a.decidedLater + b.decidedLater,
    podSecondsSaved: round(a.podSecondsSaved + b.podSecondsSaved),
    skipped: a.skipped + b.skipped,
    notReplayable: a.notReplayable + b.notReplayable,
    changed: [...a.changed, ...b.changed],
  };
}

export const round = (seconds: number): number => Math.round(seconds * 1000) / 1000;
