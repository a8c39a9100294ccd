import { decide, type Reconciliation } from '../job/decide.ts';
import type { Decision } from '../job/decisions.ts';
import type { JobObserved } from '../job/events.ts';
import { evolve, type JobEvent } from '../job/evolve.ts';
import { initialState, type FoldConfig, type JobState } from '../job/state.ts';
import type { JobSetDecisionEvent } from '../jobset/decision-events.ts';
import { evolve as evolveJobSet } from '../jobset/evolve.ts';
import type { JobSetEvent, JobSetObserved } from '../jobset/events.ts';
import { settle, type Settled } from '../jobset/settle.ts';
import { initialState as initialJobSetState, type JobSetState } from '../jobset/state.ts';
import { parseTime } from '../k8s/time.ts';
import { countingOf, sameSummaries, summarize, summarizeJobSetDecision, summarizeRecorded } from './decision-summary.ts';
import { finishingPods, isJobSetDecision, jobSetOutcomeOf, outcomeOf, recordedJobSetOutcome, recordedOutcome, restartsAfter } from './outcome.ts';
import { mergeJob, mergeJobSet, patchJob, patchJobSet } from './patch.ts';
import { PatchedWorld } from './patched-world.ts';
import { replayRecord, type JobSetLogEntry, type ReconcileAt, type RecordReading, type Refolding } from './refold.ts';
import { podSpans, recordedAfter } from './pod-spans.ts';
import type {
  DecisionSummary,
  DivergenceOf,
  JobSetDecisionSummary,
  JobSetOutcomeView,
  JobSetWhatIfReport,
  OutcomeView,
  ReplayMismatch,
  WhatIfReport,
} from './report.ts';

// The what-if, for every kind (docs/whatif.md): a recorded object refolded under a patched spec,
// next to a refold under the recorded spec. Both folds read the record's observations — the
// patched one with the patch merged into every observation of the object — and are reconciled
// where the record's controller reconciled, at the end of every other batch and at the folds'
// own timers (refold.ts); where the record did not reconcile, only if the patched fold would act
// otherwise. The first reconcile where they decide differently is the divergence: the recorded
// events stop being evidence for the patched world after it, so the refold stops there, and the
// what-if's outcome is exact only if it was reached by then.
//
// That flow is `Folds` below, written once. A kind gives its fold (evolve, decide, what a
// decision is compared as, the outcome it settles) and its report. A Job adds what a JobSet's log
// cannot give: its record holds pods, so the what-if keeps the pods the patched world would not
// have had (patched-world.ts), tells the pod time it saves, can diverge on how one pod is
// counted, and checks that the record replays under its own spec; a JobSet's what-if tells its
// restarts instead.

export interface WhatIfInput {
  /** The Job's log as recorded: observations and decisions, each with its seq. */
  readonly log: readonly JobEvent[];
  /** The fold settings the log was recorded under. */
  readonly config: FoldConfig;
  /** A JSON merge patch (RFC 7386) of the Job. */
  readonly patch: unknown;
}

export interface JobSetWhatIfInput {
  /** The JobSet's log as recorded, each event with its seq. */
  readonly log: readonly JobSetLogEntry[];
  /** A JSON merge patch (RFC 7386) of the JobSet (its failure, success or startup policy). */
  readonly patch: unknown;
}

/** Thrown when the log holds no object to patch. */
export class WhatIfInputError extends Error {
  override name = 'WhatIfInputError';
}

/** Refolds a recorded Job under a patched spec; see the top of this file. */
export function whatIfJob(input: WhatIfInput): WhatIfReport {
  const folds = new JobFolds(input);
  replayRecord(input.log, JOB_FOLD.reading, folds);
  return folds.report();
}

/** Refolds a recorded JobSet under a patched spec; see the top of this file. */
export function whatIfJobSet(input: JobSetWhatIfInput): JobSetWhatIfReport {
  const folds = new JobSetFolds(input);
  replayRecord(input.log, JOBSET_FOLD.reading, folds);
  return folds.report();
}

/**
 * A kind's fold as the what-if drives it: how its log reads (`Recorded`, a decision as logged),
 * and one reconcile (`Decided`, what its decide returns), applied and compared.
 */
interface KindFold<Entry, Recorded, State, Decided, Summary> {
  readonly reading: RecordReading<Entry, Recorded>;
  /** The position of an observation in the log. */
  position(entry: Entry, lastRead: number): number;
  evolve(state: State, entry: Entry): State;
  decide(state: State, at: string): Decided;
  /** The state after a reconcile's decisions. */
  apply(state: State, decided: Decided): State;
  /** What a reconcile's decisions are compared as. */
  summarize(decided: Decided): Summary[];
}

/**
 * The two folds of a kind side by side, and the comparison every kind makes. A kind gives its
 * fold, the observation as the patched world sees it, what it notes of the patched fold's
 * decisions and its report; its hooks (observed, compared, comparable, closing) do nothing
 * unless it overrides them.
 */
abstract class Folds<Entry, Recorded, State, Decided, Summary, Reached> implements Refolding<Entry, Recorded> {
  protected lastRead = 0;
  protected divergence: DivergenceOf<Summary> | undefined;
  /** The patched fold's outcome, once settled. */
  protected reached: Reached | undefined;
  closed = false;
  wake: number | undefined;

  protected original: State;
  protected patched: State;

  private readonly fold: KindFold<Entry, Recorded, State, Decided, Summary>;

  protected constructor(fold: KindFold<Entry, Recorded, State, Decided, Summary>, original: State, patched: State) {
    this.fold = fold;
    this.original = original;
    this.patched = patched;
  }

  /** The observation as the patched world sees it, or undefined when that world never had it. */
  protected abstract asPatched(entry: Entry): Entry | undefined;
  /** Takes note of what the patched fold decided at `at` (its outcome). */
  protected abstract note(decided: Decided, at: string): void;

  observe(entry: Entry): void {
    this.lastRead = this.fold.position(entry, this.lastRead);
    this.original = this.fold.evolve(this.original, entry);
    const patched = this.asPatched(entry);
    if (patched === undefined) return;
    this.patched = this.fold.evolve(this.patched, patched);
    if (!this.divergence) this.observed(entry);
  }

  /**
   * One reconcile of both folds. Where the record holds no reconcile, the folds are only asked
   * whether the patched one would act: if it would not, or both would do the same, the record's
   * controller did not reconcile there and neither fold changes.
   */
  reconcile(at: string, where: ReconcileAt<Recorded>): void {
    const original = this.fold.decide(this.original, at);
    const patched = this.fold.decide(this.patched, at);
    const o = this.fold.summarize(original);
    const p = this.fold.summarize(patched);
    this.compared(at, where, original, patched, o);
    const differ = !sameSummaries(this.comparable(o), p);
    if (where.kind !== 'record' && !this.divergence && (p.length === 0 || !differ)) return;
    if (differ && !this.divergence) {
      this.divergence = { atEvent: this.lastRead, at, by: 'reconcile', recorded: o, whatIf: p };
    }
    this.original = this.fold.apply(this.original, original);
    this.patched = this.fold.apply(this.patched, patched);
    this.note(patched, at);
    if (!this.divergence) return;
    this.closed = true;
    this.closing(original, patched, at);
  }

  /** After an observation both folds read, before any divergence. */
  protected observed(_entry: Entry): void {}
  /** After both folds decided at `at`, before they are compared. */
  protected compared(_at: string, _where: ReconcileAt<Recorded>, _original: Decided, _patched: Decided, _o: readonly Summary[]): void {}
  /** The recorded fold's summaries as the patched fold's are compared with. */
  protected comparable(o: Summary[]): readonly Summary[] {
    return o;
  }
  /** At the divergence's reconcile, the last one the record is evidence for. */
  protected closing(_original: Decided, _patched: Decided, _at: string): void {}
}

const JOB_FOLD: KindFold<JobEvent, Decision, JobState, Reconciliation, DecisionSummary> = {
  /** A Job's log: decisions carry `at`, observations `observedAt`; a refused observation is no event. */
  reading: {
    decision: (event) => (isReconcile(event) ? event : undefined),
    time: (event) => ('at' in event ? event.at : event.observedAt),
    skip: (event) => event.type === 'ObservationRefused',
  },
  position: (event, lastRead) => event.seq ?? lastRead + 1,
  // The Job fold folds into the state it is given.
  evolve: (state, event) => {
    evolve(state, event);
    return state;
  },
  decide,
  apply: (state, { decisions }) => {
    for (const decision of decisions) evolve(state, decision);
    return state;
  },
  summarize: ({ decisions }) => summarize(decisions),
};

class JobFolds extends Folds<JobEvent, Decision, JobState, Reconciliation, DecisionSummary, OutcomeView> {
  private readonly log: readonly JobEvent[];
  private readonly patchJobObserved: (event: JobObserved) => JobObserved;
  private readonly world: PatchedWorld;
  /** The recorded Job's pods carry its controller's per-index failure counts. */
  private readonly recordedPerIndex: boolean;
  private whatIfFinishing = 0;
  private replayMismatch: ReplayMismatch | undefined;
  private podSecondsSaved = 0;
  private podsKeptUnknown = 0;

  constructor(input: WhatIfInput) {
    super(JOB_FOLD, initialState(input.config), initialState(input.config));
    this.log = input.log;
    const first = input.log.find((e): e is JobObserved => e.type === 'JobObserved');
    if (!first) throw new WhatIfInputError('the log holds no JobObserved: there is no Job to patch');
    const firstPatched = patchJob(first.job, input.patch, input.config.gates);
    this.patchJobObserved = (event) => ({ ...event, job: event === first ? firstPatched : mergeJob(event.job, input.patch) });
    this.recordedPerIndex = first.job.spec.backoffLimitPerIndex !== undefined;
    this.world = new PatchedWorld(!this.recordedPerIndex && firstPatched.spec.backoffLimitPerIndex !== undefined);
  }

  protected asPatched(event: JobEvent): JobEvent | undefined {
    const uid = podUid(event);
    if (uid !== undefined && !this.world.admit(uid, this.original, this.patched)) return undefined;
    if (event.type === 'JobObserved') return this.patchJobObserved(event);
    if (event.type === 'PodObserved') return this.world.podAsPatched(event, this.original.pods.get(event.pod.metadata.uid)?.index);
    return event;
  }

  /**
   * A pod counted differently changes nothing in the cluster: the controller acts on it at its
   * next reconcile, where the two folds are compared. Except where the recorded pods carry the
   * recorded controller's per-index failure counts: a failure the patched fold ignores (or
   * counts) that the record counted (or ignored) gives its replacement other counts there.
   */
  protected override observed(event: JobEvent): void {
    const uid = podUid(event);
    if (uid === undefined || !this.recordedPerIndex || 'at' in event) return;
    const recordedPod = this.original.pods.get(uid);
    const whatIfPod = this.patched.pods.get(uid);
    const counts = (pod: typeof recordedPod) => pod?.failureMatch === undefined ? undefined : pod.failureMatch.countFailed;
    if (counts(recordedPod) === counts(whatIfPod)) return;
    const index = whatIfPod?.index;
    if (index !== undefined && this.patched.status.failedIndexes.has(index)) return; // no replacement in the patched world
    this.divergence = { atEvent: this.lastRead, at: event.observedAt, by: 'observation', recorded: [countingOf(this.original, uid)], whatIf: [countingOf(this.patched, uid)] };
  }

  /**
   * The folds' timers; and the record's own spec, refolded, must decide what the log holds: at a
   * recorded run, that run; at the end of a batch the record left undecided, nothing. (At a timer
   * the record's controller may have woken later: not a mismatch.)
   */
  protected override compared(at: string, where: ReconcileAt<Decision>, original: Reconciliation, patched: Reconciliation, refold: readonly DecisionSummary[]): void {
    this.wake = earliest(original.wakeAt, patched.wakeAt);
    if (this.divergence || this.replayMismatch || where.kind === 'timer') return;
    const recorded = where.kind === 'record' ? summarizeRecorded(where.decisions) : [];
    if (sameSummaries(recorded, refold)) return;
    this.replayMismatch = { atEvent: this.lastRead, at, recorded, refold };
  }

  /** What the record decided about pods the patched world never had (phantoms, patched-world.ts) is left out of the comparison. */
  protected override comparable(o: DecisionSummary[]): readonly DecisionSummary[] {
    return this.world.withoutPhantoms(o, this.original, this.patched);
  }

  protected note(patched: Reconciliation, at: string): void {
    for (const decision of patched.decisions) {
      this.whatIfFinishing += finishingPods(decision);
      const settled = this.reached ? undefined : outcomeOf(decision);
      if (settled) this.reached = { ...settled, atEvent: this.lastRead, at, podsTerminated: 0 };
    }
    this.world.noteCreations(patched.commands);
  }

  /**
   * If the what-if's outcome is settled at the divergence, nothing of the record after it happens
   * in the patched world: every recorded pod's time past it is saved, but for the pods the record
   * also terminates here. Otherwise only the pods it terminates here (to their recorded end) are.
   * Phantom pods never ran in the patched world: their whole recorded time is saved.
   */
  protected override closing(original: Reconciliation, patched: Reconciliation, at: string): void {
    const kept = terminated(original.decisions);
    const ended = terminated(patched.decisions);
    const spans = podSpans(this.log);
    const decidedAt = parseTime(at);
    const phantoms = this.world.phantomPods();
    const settledHere = this.reached?.at === at;
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
      const own = this.reached;
      const whatIf = own && own.at !== recorded.at ? { ...recorded, atEvent: own.atEvent, at: own.at, exact: true } : { ...recorded, exact: true };
      return { kind: 'Job', recorded, whatIf, divergesAtEvent: null, divergence, podSecondsSaved: 0, podsKeptUnknown: 0, replayMismatch };
    }
    const reached = this.reached;
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

const podUid = (event: JobEvent): string | undefined =>
  event.type === 'PodObserved' ? event.pod.metadata.uid : event.type === 'PodDeleted' ? event.uid : undefined;

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

const JOBSET_FOLD: KindFold<JobSetLogEntry, JobSetDecisionEvent, JobSetState, Settled, JobSetDecisionSummary> = {
  /** A JobSet's log: its decisions and observations each carry `at`. */
  reading: {
    decision: ({ event }) => (isJobSetDecision(event) ? event : undefined),
    time: ({ event }) => event.at,
  },
  position: ({ seq }) => seq,
  evolve: (state, { event }) => evolveJobSet(state, event),
  // The controller's requeue loop, to its fixed point.
  decide: settle,
  apply: (_state, settled) => settled.state,
  summarize: (settled) => settled.events.map(summarizeJobSetDecision),
};

/**
 * A JobSet's folds read its own observations and its child Jobs' statuses; after the divergence
 * the recorded child statuses stop being evidence (a JobSet that failed instead of restarting
 * has no new children). The JobSet folds set no timers the what-if fires.
 */
class JobSetFolds extends Folds<JobSetLogEntry, JobSetDecisionEvent, JobSetState, Settled, JobSetDecisionSummary, JobSetOutcomeView> {
  private readonly log: readonly JobSetLogEntry[];
  private readonly patchObserved: (event: JobSetEvent) => JobSetEvent;
  private restarts = 0;

  constructor(input: JobSetWhatIfInput) {
    super(JOBSET_FOLD, initialJobSetState(), initialJobSetState());
    this.log = input.log;
    const first = input.log.find((e): e is { seq: number; event: JobSetObserved } => e.event.type === 'JobSetObserved');
    if (!first) throw new WhatIfInputError('the log holds no JobSetObserved: there is no JobSet to patch');
    const firstPatched = patchJobSet(first.event.jobSet, input.patch);
    this.patchObserved = (event) => {
      if (event.type !== 'JobSetObserved') return event;
      return { ...event, jobSet: event === first.event ? firstPatched : mergeJobSet(event.jobSet, input.patch) };
    };
  }

  protected asPatched(entry: JobSetLogEntry): JobSetLogEntry {
    return { ...entry, event: this.patchObserved(entry.event) };
  }

  protected note(settled: Settled, at: string): void {
    for (const decision of settled.events) {
      if (this.reached) break;
      this.restarts = restartsAfter(decision, this.restarts);
      const outcome = jobSetOutcomeOf(decision);
      if (outcome) this.reached = { ...outcome, atEvent: this.lastRead, at, restarts: this.restarts };
    }
  }

  report(): JobSetWhatIfReport {
    const recorded = recordedJobSetOutcome(this.log);
    const divergence = this.divergence;
    if (!divergence) return { kind: 'JobSet', recorded, whatIf: { ...recorded, exact: true }, divergesAtEvent: null, divergence: null };
    const whatIf = this.reached
      ? { ...this.reached, exact: true }
      : { outcome: 'Running' as const, condition: null, reason: null, atEvent: null, at: null, restarts: this.restarts, exact: false };
    // A JobSet's folds diverge at a reconcile only: it counts no pods.
    return { kind: 'JobSet', recorded, whatIf, divergesAtEvent: divergence.atEvent, divergence: { ...divergence, by: 'reconcile' } };
  }
}

export type { DecisionSummary, JobSetLogEntry };
