import { isJobSetDecisionType, type JobSetDecisionEvent } from '../jobset/decision-events.ts';
import { evolve } from '../jobset/evolve.ts';
import type { JobSetEvent, JobSetObserved } from '../jobset/events.ts';
import { settle, type Settled } from '../jobset/settle.ts';
import { initialState, type JobSetState } from '../jobset/state.ts';
import { sameSummaries, summarizeJobSetDecision } from './decision-summary.ts';
import { jobSetOutcomeOf } from './outcome.ts';
import type { JobSetDivergence, JobSetOutcomeView, JobSetWhatIfReport } from './report.ts';
import { mergeJobSet, patchJobSet } from './patch.ts';
import { WhatIfInputError } from './what-if.ts';

/** One entry of a JobSet's log: its own events, its child Jobs' statuses and its decisions. */
export interface JobSetLogEntry {
  readonly seq: number;
  readonly event: JobSetEvent;
}

const isDecision = (event: JobSetEvent): event is JobSetDecisionEvent => isJobSetDecisionType(event.type);

/**
 * Refolds a recorded JobSet under a patched spec (its failure, success or startup policy),
 * next to a refold under the recorded spec, the way the Job what-if does (docs/whatif.md):
 * both folds read the same observations — the JobSet's own and its child Jobs' statuses — and
 * are settled where the record reconciled, and at every other change of observation time (only
 * if the patched fold would act there). The first reconcile where they decide differently is
 * the divergence; after it the recorded child statuses stop being evidence (a JobSet that
 * failed instead of restarting has no new children), so the refold stops there.
 */
export function whatIfJobSet(input: { readonly log: readonly JobSetLogEntry[]; readonly patch: unknown }): JobSetWhatIfReport {
  const first = input.log.find((e): e is { seq: number; event: JobSetObserved } => e.event.type === 'JobSetObserved');
  if (!first) throw new WhatIfInputError('the log holds no JobSetObserved: there is no JobSet to patch');
  const firstPatched = patchJobSet(first.event.jobSet, input.patch);
  const patchObserved = (event: JobSetEvent): JobSetEvent => {
    if (event.type !== 'JobSetObserved') return event;
    return { ...event, jobSet: event === first.event ? firstPatched : mergeJobSet(event.jobSet, input.patch) };
  };

  let original: JobSetState = initialState();
  let patched: JobSetState = initialState();
  let lastRead = 0;
  let pendingAt: string | undefined;
  let divergence: JobSetDivergence | undefined;
  let reached: JobSetOutcomeView | undefined;
  let restarts = 0;

  /** Settles both folds at `at`; false once the divergence's reconcile has been read. */
  const reconcile = (at: string, recorded: boolean): boolean => {
    pendingAt = undefined;
    const o = settle(original, at);
    const p = settle(patched, at);
    const os = o.events.map(summarizeJobSetDecision);
    const ps = p.events.map(summarizeJobSetDecision);
    const differ = !sameSummaries(os, ps);
    // No reconcile in the record here: the controller acted only if the patched fold would.
    if (!recorded && (ps.length === 0 || !differ)) return true;
    if (differ) divergence = { atEvent: lastRead, at, by: 'reconcile', recorded: os, whatIf: ps };
    original = o.state;
    patched = p.state;
    noteWhatIf(p, at);
    return divergence === undefined;
  };
  const noteWhatIf = (settled: Settled, at: string) => {
    for (const decision of settled.events) {
      if (reached) break;
      if (decision.type === 'JobSetRestarted') restarts += 1;
      const outcome = jobSetOutcomeOf(decision);
      if (outcome) reached = { ...outcome, atEvent: lastRead, at, restarts };
    }
  };

  let open = true;
  for (let i = 0; i < input.log.length && open; i++) {
    const { seq, event } = input.log[i] as JobSetLogEntry;
    if (isDecision(event)) {
      // The record reconciled here: one settle per run of decisions taken at one time.
      const previous = input.log[i - 1]?.event;
      if (previous && isDecision(previous) && previous.at === event.at) continue;
      open = reconcile(event.at, true);
      continue;
    }
    if (pendingAt !== undefined && pendingAt !== event.at) open = reconcile(pendingAt, false);
    if (!open) break;
    lastRead = seq;
    pendingAt = event.at;
    original = evolve(original, event);
    patched = evolve(patched, patchObserved(event));
  }
  if (open && pendingAt !== undefined) reconcile(pendingAt, false);
  return report(input.log, divergence, reached, restarts);
}

function report(
  log: readonly JobSetLogEntry[],
  divergence: JobSetDivergence | undefined,
  reached: JobSetOutcomeView | undefined,
  restarts: number,
): JobSetWhatIfReport {
  const recorded = recordedJobSetOutcome(log);
  if (!divergence) return { kind: 'JobSet', recorded, whatIf: { ...recorded, exact: true }, divergesAtEvent: null, divergence: null };
  const whatIf = reached
    ? { ...reached, exact: true }
    : { outcome: 'Running' as const, condition: null, reason: null, atEvent: null, at: null, restarts, exact: false };
  return { kind: 'JobSet', recorded, whatIf, divergesAtEvent: divergence.atEvent, divergence };
}

/** The outcome the record holds: its first JobSetCompleted or JobSetFailed, and the restarts before it. */
export function recordedJobSetOutcome(log: readonly JobSetLogEntry[]): JobSetOutcomeView {
  let lastRead = 0;
  let restarts = 0;
  for (const { seq, event } of log) {
    if (!isDecision(event)) {
      lastRead = seq;
      continue;
    }
    if (event.type === 'JobSetRestarted') restarts += 1;
    const outcome = jobSetOutcomeOf(event);
    if (outcome) return { ...outcome, atEvent: lastRead, at: event.at, restarts };
  }
  return { outcome: 'Running', condition: null, reason: null, atEvent: null, at: null, restarts };
}
