import { decide, type Reconciliation } from '../job/decide.ts';
import type { Decision } from '../job/decisions.ts';
import type { JobObserved } from '../job/events.ts';
import { evolve, type JobEvent } from '../job/evolve.ts';
import { initialState, type FoldConfig, type JobState } from '../job/state.ts';
import { parseTime } from '../k8s/time.ts';
import { countingOf, sameSummaries, summarize } from './decision-summary.ts';
import { finishingPods, outcomeOf, recordedOutcome } from './outcome.ts';
import { mergeJob, patchJob } from './patch.ts';
import { podEnds } from './pod-ends.ts';
import type { DecisionSummary, Divergence, OutcomeView, WhatIfReport } from './report.ts';

export interface WhatIfInput {
  /** The Job's log as recorded: observations and decisions, each with its seq. */
  readonly log: readonly JobEvent[];
  /** The fold settings the log was recorded under. */
  readonly config: FoldConfig;
  /** A JSON merge patch (RFC 7386) of the Job. */
  readonly patch: unknown;
}

/** Thrown when the log holds no Job to patch. */
export class WhatIfInputError extends Error {
  override name = 'WhatIfInputError';
}

/**
 * Refolds a recorded Job under a patched spec, next to a refold under the recorded spec, and
 * compares the two where the record's controller acted: after every observation (how it is
 * counted), at every reconcile the record holds, at every other batch boundary and at the
 * folds' own timers (only if the patched fold would decide something there). The first
 * difference is the divergence: the recorded events stop being evidence for the patched world
 * after the reconcile that follows it, so the what-if's outcome is exact only if it was reached
 * by then. See docs/whatif.md.
 */
export function whatIfJob(input: WhatIfInput): WhatIfReport {
  const run = new Refold(input);
  run.play();
  return run.report();
}

class Refold {
  private readonly log: readonly JobEvent[];
  private readonly original: JobState;
  private readonly patched: JobState;
  private readonly patchJobObserved: (event: JobObserved) => JobObserved;
  private lastRead = 0;
  private pendingAt: string | undefined;
  private wake: number | undefined;
  private timersChecked = Number.NEGATIVE_INFINITY;
  private whatIfOutcome: OutcomeView | undefined;
  private whatIfFinishing = 0;
  private divergence: Divergence | undefined;
  private closed = false;
  private podSecondsSaved = 0;
  private podsKeptUnknown = 0;

  constructor(input: WhatIfInput) {
    this.log = input.log;
    const first = input.log.find((e): e is JobObserved => e.type === 'JobObserved');
    if (!first) throw new WhatIfInputError('the log holds no JobObserved: there is no Job to patch');
    const firstPatched = patchJob(first.job, input.patch, input.config.gates);
    this.patchJobObserved = (event) => ({ ...event, job: event === first ? firstPatched : mergeJob(event.job, input.patch) });
    this.original = initialState(input.config);
    this.patched = initialState(input.config);
  }

  play(): void {
    const log = this.log;
    for (let i = 0; i < log.length && !this.closed; i++) {
      const event = log[i] as JobEvent;
      if ('at' in event) {
        // The record reconciled here: once per run of decisions taken at one time.
        const previous = log[i - 1];
        if (previous && 'at' in previous && previous.at === event.at) continue;
        this.fireTimers(parseTime(event.at));
        if (!this.closed) this.reconcile(event.at, true);
        continue;
      }
      if (this.pendingAt !== undefined && this.pendingAt !== event.observedAt) this.reconcile(this.pendingAt, false);
      if (!this.closed) this.fireTimers(parseTime(event.observedAt));
      if (!this.closed) this.observe(event);
    }
    if (!this.closed && this.pendingAt !== undefined) this.reconcile(this.pendingAt, false);
  }

  private observe(event: Exclude<JobEvent, Decision>): void {
    this.lastRead = event.seq ?? this.lastRead + 1;
    this.pendingAt = event.observedAt;
    evolve(this.original, event);
    evolve(this.patched, event.type === 'JobObserved' ? this.patchJobObserved(event) : event);
    if (this.divergence) return;
    const uid = event.type === 'PodObserved' ? event.pod.metadata.uid : event.type === 'PodDeleted' ? event.uid : undefined;
    if (uid === undefined) return;
    const recorded = countingOf(this.original, uid);
    const whatIf = countingOf(this.patched, uid);
    if (sameSummaries([recorded], [whatIf])) return;
    this.divergence = { atEvent: this.lastRead, at: event.observedAt, by: 'observation', recorded: [recorded], whatIf: [whatIf] };
  }

  /** Timers (deadline, expectations) due before `limit`: the log says nothing happened until then. */
  private fireTimers(limit: number): void {
    while (!this.closed && this.wake !== undefined && this.wake < limit && this.wake > this.timersChecked) {
      const at = this.wake;
      this.timersChecked = at;
      if (this.pendingAt !== undefined) this.reconcile(this.pendingAt, false);
      if (!this.closed) this.reconcile(new Date(at).toISOString(), false);
    }
  }

  /**
   * One reconcile of both folds. Where the record holds no reconcile, the folds are only asked
   * whether the patched one would act: if it would not, or both would do the same, the record's
   * controller did not reconcile there and neither fold changes.
   */
  private reconcile(at: string, recorded: boolean): void {
    this.pendingAt = undefined;
    const original = decide(this.original, at);
    const patched = decide(this.patched, at);
    const o = summarize(original.decisions);
    const p = summarize(patched.decisions);
    this.wake = earliest(original.wakeAt, patched.wakeAt);
    const differ = !sameSummaries(o, p);
    if (!recorded && !this.divergence && (p.length === 0 || !differ)) return;
    if (differ && !this.divergence) {
      this.divergence = { atEvent: this.lastRead, at, by: 'reconcile', recorded: o, whatIf: p };
    }
    this.apply(this.original, original);
    this.apply(this.patched, patched, at);
    if (this.divergence) this.close(original, patched, at);
  }

  private apply(state: JobState, result: Reconciliation, at?: string): void {
    for (const decision of result.decisions) {
      evolve(state, decision);
      if (at === undefined) continue;
      this.whatIfFinishing += finishingPods(decision);
      const settled = this.whatIfOutcome ? undefined : outcomeOf(decision);
      if (settled) this.whatIfOutcome = { ...settled, atEvent: this.lastRead, at, podsTerminated: 0 };
    }
  }

  /** The reconcile at (or right after) the divergence: the last one the record is evidence for. */
  private close(original: Reconciliation, patched: Reconciliation, at: string): void {
    this.closed = true;
    const kept = terminated(original.decisions);
    const ended = terminated(patched.decisions);
    const { ends, lastAt } = podEnds(this.log);
    const decidedAt = parseTime(at);
    for (const uid of ended) {
      if (!kept.has(uid)) this.podSecondsSaved += (ends.get(uid) ?? lastAt) - decidedAt;
    }
    for (const uid of kept) if (!ended.has(uid)) this.podsKeptUnknown += 1;
  }

  report(): WhatIfReport {
    const recorded = recordedOutcome(this.log);
    const divergence = this.divergence ?? null;
    const podSecondsSaved = Math.round(this.podSecondsSaved) / 1000;
    if (!divergence) {
      return { recorded, whatIf: { ...recorded, exact: true }, divergesAtEvent: null, divergence, podSecondsSaved: 0, podsKeptUnknown: 0 };
    }
    const reached = this.whatIfOutcome;
    // Reached before the divergence: both folds decided it, so it is the recorded outcome.
    const whatIf = !reached
      ? { ...RUNNING_UNKNOWN }
      : reached.atEvent !== null && reached.atEvent < divergence.atEvent && recorded.outcome === reached.outcome && recorded.reason === reached.reason
        ? { ...recorded, exact: true }
        : { ...reached, podsTerminated: this.whatIfFinishing, exact: true };
    return { recorded, whatIf, divergesAtEvent: divergence.atEvent, divergence, podSecondsSaved, podsKeptUnknown: this.podsKeptUnknown };
  }
}

const RUNNING_UNKNOWN = { outcome: 'Running', condition: null, reason: null, atEvent: null, at: null, podsTerminated: 0, exact: false } as const;

function terminated(decisions: readonly Decision[]): Set<string> {
  const uids = new Set<string>();
  for (const d of decisions) if (d.type === 'PodsTerminationRequested') for (const pod of d.pods) uids.add(pod.uid);
  return uids;
}

function earliest(a: string | undefined, b: string | undefined): number | undefined {
  if (a === undefined) return b === undefined ? undefined : parseTime(b);
  if (b === undefined) return parseTime(a);
  return Math.min(parseTime(a), parseTime(b));
}

export type { DecisionSummary };
