import { describeDecisions } from '../whatif/describe-decision.ts';
import { changeOf, outcomeLabel, round } from '../whatif/fleet.ts';
import type { WhatIfReport } from '../whatif/report.ts';
import { compare, EXAMPLES, jobKey } from './evidence.ts';
import type { JobRef } from './job-facts.ts';

// The check of one proposal: the exact what-if of every Job of its family, summed. Figures are
// the fleet what-if's (shared/whatif/fleet.ts), so `jobfold whatif --fleet` with the family and
// the patch prints the same. Harm is listed Job by Job, with the divergence as evidence:
//
// - `fails`: a Job that succeeded would fail;
// - `later`: the outcome would be settled later than the record's (a failure caught later);
// - `unknown`: the patched controller acts differently before the record's outcome and the
//   record cannot say what follows — for a failed Job, its failure is not caught where it was;
//   for a succeeded one, nothing proves it would still succeed.
//
// Jobs whose record does not replay exactly, and Jobs the patched spec is invalid for, are
// counted and listed, and in no other figure.

export type HarmKind = 'fails' | 'later' | 'unknown';

/** Where the two folds first decided differently, in words. */
export interface DivergenceEvidence {
  readonly atEvent: number;
  readonly at: string;
  readonly recorded: string;
  readonly whatIf: string;
}

export interface HarmedJob {
  readonly job: JobRef;
  readonly harm: HarmKind;
  /** `Succeeded (CompletionsReached) at …`. */
  readonly recorded: string;
  readonly whatIf: string;
  readonly divergence: DivergenceEvidence;
}

export interface ChangedJob {
  readonly job: JobRef;
  readonly recorded: string;
  readonly whatIf: string;
  readonly podSecondsSaved: number;
}

export interface ProposalCheck {
  /** Jobs of the family read. */
  readonly jobs: number;
  readonly unchanged: number;
  readonly decidedEarlier: number;
  readonly decidedLater: number;
  /** Exact outcomes (or reasons) other than the record's. */
  readonly outcomeChanged: number;
  readonly podSecondsSaved: number;
  readonly harm: readonly HarmedJob[];
  /** Jobs decided earlier, the largest savings first (a few). */
  readonly examples: readonly ChangedJob[];
  readonly notReplayable: readonly { readonly job: JobRef; readonly divergence: DivergenceEvidence }[];
  /** Jobs the patched spec is invalid for (upstream's validation message). */
  readonly refused: readonly { readonly job: JobRef; readonly reason: string }[];
}

export const NO_CHECK: ProposalCheck = {
  jobs: 0, unchanged: 0, decidedEarlier: 0, decidedLater: 0, outcomeChanged: 0, podSecondsSaved: 0, harm: [], examples: [], notReplayable: [], refused: [],
};

const labelAt = (o: WhatIfReport['recorded'] & { exact?: boolean }): string =>
  o.exact === false ? outcomeLabel(o) : `${outcomeLabel(o)}${o.at ? ` at ${o.at}` : ''}`;

/** Adds one Job's what-if under the proposal's patch. */
export function checkJob(check: ProposalCheck, job: JobRef, report: WhatIfReport): ProposalCheck {
  const base = { ...check, jobs: check.jobs + 1 };
  const mismatch = report.replayMismatch;
  if (mismatch) {
    const divergence = { atEvent: mismatch.atEvent, at: mismatch.at, recorded: describeDecisions('Job', mismatch.recorded), whatIf: describeDecisions('Job', mismatch.refold) };
    return { ...base, notReplayable: [...base.notReplayable, { job, divergence }] };
  }
  const change = changeOf(report);
  const d = report.divergence;
  if (!change || !d) return { ...base, unchanged: base.unchanged + 1 };
  const { recorded, whatIf } = report;
  const harm: HarmKind | undefined =
    whatIf.exact && recorded.outcome === 'Succeeded' && whatIf.outcome === 'Failed' ? 'fails' : change.unknown ? 'unknown' : change.later ? 'later' : undefined;
  const counted = {
    ...base,
    decidedEarlier: base.decidedEarlier + (change.earlier ? 1 : 0),
    decidedLater: base.decidedLater + (change.later ? 1 : 0),
    outcomeChanged: base.outcomeChanged + (change.changedOutcome ? 1 : 0),
    podSecondsSaved: round(base.podSecondsSaved + report.podSecondsSaved),
  };
  if (harm) {
    const divergence = { atEvent: d.atEvent, at: d.at, recorded: describeDecisions('Job', d.recorded), whatIf: describeDecisions('Job', d.whatIf) };
    return { ...counted, harm: [...counted.harm, { job, harm, recorded: labelAt(recorded), whatIf: labelAt(whatIf), divergence }] };
  }
  if (!change.earlier) return counted;
  const example = { job, recorded: labelAt(recorded), whatIf: labelAt(whatIf), podSecondsSaved: report.podSecondsSaved };
  return { ...counted, examples: topExamples([...counted.examples, example]) };
}

/** A Job the patched spec is invalid for. */
export function refuseJob(check: ProposalCheck, job: JobRef, reason: string): ProposalCheck {
  return { ...check, jobs: check.jobs + 1, refused: [...check.refused, { job, reason }] };
}

/** Two pages' checks of one proposal as one; lists in Job order, so any page order gives the same. */
export function mergeChecks(a: ProposalCheck, b: ProposalCheck): ProposalCheck {
  const byJob = <T extends { job: JobRef }>(x: readonly T[], y: readonly T[]) => [...x, ...y].sort((p, q) => compare(jobKey(p.job), jobKey(q.job)));
  return {
    jobs: a.jobs + b.jobs,
    unchanged: a.unchanged + b.unchanged,
    decidedEarlier: a.decidedEarlier + b.decidedEarlier,
    decidedLater: a.decidedLater + b.decidedLater,
    outcomeChanged: a.outcomeChanged + b.outcomeChanged,
    podSecondsSaved: round(a.podSecondsSaved + b.podSecondsSaved),
    harm: byJob(a.harm, b.harm),
    examples: topExamples([...a.examples, ...b.examples]),
    notReplayable: byJob(a.notReplayable, b.notReplayable),
    refused: byJob(a.refused, b.refused),
  };
}

function topExamples(examples: readonly ChangedJob[]): ChangedJob[] {
  return [...examples].sort((x, y) => y.podSecondsSaved - x.podSecondsSaved || compare(jobKey(x.job), jobKey(y.job))).slice(0, EXAMPLES);
}
