import { decide, type Reconciliation } from '../job/decide.ts';
import type { Decision } from '../job/decisions.ts';
import type { JobObserved } from '../job/events.ts';
import { evolve, type JobEvent } from '../job/evolve.ts';
import { initialState, type FoldConfig, type JobState } from '../job/state.ts';
import { parseTime } from '../k8s/time.ts';
import { countingOf, sameSummaries, summarize, summarizeRecorded } from './decision-summary.ts';
import { finishingPods, outcomeOf, recordedOutcome } from './outcome.ts';
import { mergeJob, patchJob } from './patch.ts';
import { PatchedWorld } from './patched-world.ts';
import { replayRecord, type ReconcileAt, type RecordReading, type Refolding } from './refold.ts';
import { podSpans, recordedAfter } from './pod-spans.ts';
import type { DecisionSummary, Divergence, OutcomeView, ReplayMismatch, WhatIfReport } from './report.ts';

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
  const folds = new JobFolds(input);
  replayRecord(input.log, JOB_LOG, folds);
  return folds.report();
}

/** A Job's log: decisions carry `at`, observations `observedAt`; a refused observation is no event. */
const JOB_LOG: RecordReading<JobEvent, Decision> = {
  decision: (event) => (isReconcile(event) ? event : undefined),
  time: (event) => ('at' in event ? event.at : event.observedAt),
  skip: (event) => event.type === 'ObservationRefused',
};

class JobFolds implements Refolding<JobEvent, Decision> {
  private readonly log: readonly JobEvent[];
  private readonly original: JobState;
  private readonly patched: JobState;
  private readonly patchJobObserved: (event: JobObserved) => JobObserved;
  private readonly world: PatchedWorld;
  /** The recorded Job's pods carry its controller's per-index failure counts. */
  private readonly recordedPerIndex: boolean;
  private lastRead = 0;
  wake: number | undefined;
  private whatIfOutcome: OutcomeView | undefined;
  private whatIfFinishing = 0;
  private divergence: Divergence | undefined;
  private replayMismatch: ReplayMismatch | undefined;
  closed = false;
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
    this.recordedPerIndex = first.job.spec.backoffLimitPerIndex !== undefined;
    this.world = new PatchedWorld(!this.recordedPerIndex && firstPatched.spec.backoffLimitPerIndex !== undefined);
  }

  observe(event: JobEvent): void {
    if ('at' in event) return; // a decision is a reconcile (refold.ts), never observed
    this.lastRead = event.seq ?? this.lastRead + 1;
    evolve(this.original, event);
    const uid = event.type === 'PodObserved' ? event.pod.metadata.uid : event.type === 'PodDeleted' ? event.uid : undefined;
    if (uid !== undefined && !this.world.admit(uid, this.original, this.patched)) return;
    if (event.type === 'JobObserved') evolve(this.patched, this.patchJobObserved(event));
    else if (event.type === 'PodObserved') evolve(this.patched, this.world.podAsPatched(event, this.original.pods.get(event.pod.metadata.uid)?.index));
    else evolve(this.patched, event);
    if (this.divergence || uid === undefined) return;
    // A pod counted differently changes nothing in the cluster: the controller acts on it at its
    // next reconcile, where the two folds are compared. Except where the recorded pods carry the
    // recorded controller's per-index failure counts: a failure the patched fold ignores (or
    // counts) that the record counted (or ignored) gives its replacement other counts there.
    if (!this.recordedPerIndex) return;
    const recordedPod = this.original.pods.get(uid);
    const whatIfPod = this.patched.pods.get(uid);
    const counts = (pod: typeof recordedPod) => pod?.failureMatch === undefined ? undefined : pod.failureMatch.countFailed;
    if (counts(recordedPod) === counts(whatIfPod)) return;
    const index = whatIfPod?.index;
    if (index !== undefined && this.patched.status.failedIndexes.has(index)) return; // no replacement in the patched world
    this.divergence = { atEvent: this.lastRead, at: event.observedAt, by: 'observation', recorded: [countingOf(this.original, uid)], whatIf: [countingOf(this.patched, uid)] };
  }

  /**
   * One reconcile of both folds. Where the record holds no reconcile, the folds are only asked
   * whether the patched one would act: if it would not, or both would do the same, the record's
   * controller did not reconcile there and neither fold changes. What the record decided about
   * pods the patched world never had (phantoms, patched-world.ts) is left out of the comparison.
   */
  reconcile(at: string, where: ReconcileAt<Decision>): void {
    const original = decide(this.original, at);
    const patched = decide(this.patched, at);
    const o = summarize(original.decisions);
    const p = summarize(patched.decisions);
    this.wake = earliest(original.wakeAt, patched.wakeAt);
    if (!this.divergence) this.checkReplay(at, where, o);
    const differ = !sameSummaries(this.world.withoutPhantoms(o, this.original, this.patched), p);
    if (where.kind !== 'record' && !this.divergence && (p.length === 0 || !differ)) return;
    if (differ && !this.divergence) {
      this.divergence = { atEvent: this.lastRead, at, by: 'reconcile', recorded: o, whatIf: p };
    }
    this.apply(this.original, original);
    this.apply(this.patched, patched, at);
    this.world.noteCreations(patched.commands);
    if (this.divergence) this.close(original, patched, at);
  }

  /**
   * The record's own spec, refolded, must decide what the log holds: at a recorded run, that
   * run; at the end of a batch the record left undecided, nothing. (At a timer the record's
   * controller may have woken later: not a mismatch.)
   */
  private checkReplay(at: string, where: ReconcileAt<Decision>, refold: readonly DecisionSummary[]): void {
    if (this.replayMismatch || where.kind === 'timer') return;
    const recorded = where.kind === 'record' ? summarizeRecorded(where.decisions) : [];
    if (sameSummaries(recorded, refold)) return;
    this.replayMismatch = { atEvent: this.lastRead, at, recorded, refold };
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

  /**
   * The reconcile at (or right after) the divergence: the last one the record is evidence for.
   * If the what-if's outcome is settled here, nothing of the record after it happens in the
   * patched world: every recorded pod's time past it is saved, but for the pods the record
   * also terminates here. Otherwise only the pods it terminates here (to their recorded end)
   * are. Phantom pods never ran in the patched world: their whole recorded time is saved.
   */
  private close(original: Reconciliation, patched: Reconciliation, at: string): void {
    this.closed = true;
    const kept = terminated(original.decisions);
    const ended = terminated(patched.decisions);
    const spans = podSpans(this.log);
    const decidedAt = parseTime(at);
    const phantoms = this.world.phantomPods();
    const settledHere = this.whatIfOutcome?.at === at;
    for (const uid of phantoms) this.podSecondsSaved += recordedAfter(spans, uid, Number.NEGATIVE_INFINITY);
    for (const uid of settledHere ? spans.starts.keys() : ended) {
      if (kept.has(uid) || phantoms.has(uid)) continue;
      this.podSecondsSaved += recordedAfter(spans, uid, decidedAt);
    }
    for (const uid of kept) if (!ended.has(uid)) this.podsKeptUnknown += 1;
  }

  report(): WhatIfReport {
    const recorded = recordedOutcome(this.log);
    const divergence = this.divergence ?? null;
    const replayMismatch = this.replayMismatch ?? null;
    const podSecondsSaved = Math.round(this.podSecondsSaved) / 1000;
    if (!divergence) {
      // The patched fold decided what the record did, but about phantoms (pods it never had): the
      // outcome is the record's, settled where the patched fold settled it.
      const own = this.whatIfOutcome;
      const whatIf = own && own.at !== recorded.at ? { ...recorded, atEvent: own.atEvent, at: own.at, exact: true } : { ...recorded, exact: true };
      return { kind: 'Job', recorded, whatIf, divergesAtEvent: null, divergence, podSecondsSaved: 0, podsKeptUnknown: 0, replayMismatch };
    }
    const reached = this.whatIfOutcome;
    // Reached before the divergence: both folds decided it, so it is the recorded outcome.
    const whatIf = !reached
      ? { ...RUNNING_UNKNOWN }
      : reached.atEvent !== null && reached.atEvent < divergence.atEvent && recorded.outcome === reached.outcome && recorded.reason === reached.reason
        ? { ...recorded, exact: true }
        : { ...reached, podsTerminated: this.whatIfFinishing, exact: true };
    return { kind: 'Job', recorded, whatIf, divergesAtEvent: divergence.atEvent, divergence, podSecondsSaved, podsKeptUnknown: this.podsKeptUnknown, replayMismatch };
  }
}

const isReconcile = (event: JobEvent): event is Decision => 'at' in event && event.type !== 'ObservationRefused';

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
