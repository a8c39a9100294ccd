import { decide, type Reconciliation } from '../job/decide.ts';
import type { Decision } from '../job/decisions.ts';
import type { JobObserved } from '../job/events.ts';
import { evolve, type JobEvent } from '../job/evolve.ts';
import { initialState, type FoldConfig, type JobState } from '../job/state.ts';
import { parseTime } from '../k8s/time.ts';
import { countingOf, sameSummaries, summarize, summarizeRecorded } from './decision-summary.ts';
import { Folds, WhatIfInputError, type KindFold } from './folds.ts';
import { finishingPods, outcomeOf, recordedOutcome } from './outcome.ts';
import { mergeJob, patchJob } from './patch.ts';
import { PatchedWorld } from './patched-world.ts';
import { podSpans, recordedAfter } from './pod-spans.ts';
import type { ReconcileAt } from './refold.ts';
import type { DecisionSummary, OutcomeView, ReplayMismatch, WhatIfReport } from './report.ts';

// A Job's what-if (what-if.ts): its fold, and what only a Job's record can tell — the pods.

export interface WhatIfInput {
  /** The Job's log as recorded: observations and decisions, each with its seq. */
  readonly log: readonly JobEvent[];
  /** The fold settings the log was recorded under. */
  readonly config: FoldConfig;
  /** A JSON merge patch (RFC 7386) of the Job. */
  readonly patch: unknown;
}

export const JOB_FOLD: KindFold<JobEvent, Decision, JobState, Reconciliation, DecisionSummary> = {
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

export class JobFolds extends Folds<JobEvent, Decision, JobState, Reconciliation, DecisionSummary, OutcomeView> {
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
